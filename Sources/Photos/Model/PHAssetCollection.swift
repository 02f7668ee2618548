public import CoreLocation
public import Foundation
import PhotosStore

/// A group of assets: a user album, a smart album, a moment, or a transient collection.
public final class PHAssetCollection: PHCollection, @unchecked Sendable {
    public let assetCollectionType: PHAssetCollectionType
    public let assetCollectionSubtype: PHAssetCollectionSubtype
    /// The number of assets, when it can be given without fetching them; `NSNotFound`
    /// otherwise. Here: albums and moments count their assets (including hidden ones, not
    /// those in Recently Deleted); smart albums and transient collections give `NSNotFound`,
    /// as on Apple's platforms. Fall back to `fetchAssets(in:options:).count`.
    public let estimatedAssetCount: Int
    public let startDate: Date?
    public let endDate: Date?
    /// The average location of a moment's assets.
    public let approximateLocation: CLLocation?
    /// Place names of a moment, most frequent first. Linux: named offline from a gazetteer of
    /// GeoNames data (`make deps` installs it); empty without one, and for other collections.
    public let localizedLocationNames: [String]

    /// The assets of a transient collection, in order.
    let transientAssets: [PHAsset]?

    init(record: CollectionRecord, library: PHPhotoLibrary?) {
        assetCollectionType = PHAssetCollectionType(rawValue: record.type) ?? .album
        assetCollectionSubtype = PHAssetCollectionSubtype(rawValue: record.subtype) ?? .albumRegular
        estimatedAssetCount = record.estimatedAssetCount ?? NSNotFound
        startDate = record.startDate
        endDate = record.endDate
        approximateLocation = record.approximateLocation.map(CLLocation.init(record:))
        localizedLocationNames = record.locationNames
        transientAssets = nil
        super.init(
            localIdentifier: LocalIdentifier.collection(record.uuid, isList: false), localizedTitle: record.title,
            record: record, library: library)
    }

    /// A transient collection: never stored, fetchable with `PHAsset.fetchAssets(in:options:)`.
    init(transientAssets: [PHAsset], title: String?) {
        assetCollectionType = .album
        assetCollectionSubtype = .albumRegular
        estimatedAssetCount = NSNotFound
        let dates = transientAssets.compactMap(\.creationDate)
        startDate = dates.min()
        endDate = dates.max()
        approximateLocation = nil
        localizedLocationNames = []
        self.transientAssets = transientAssets
        super.init(
            localIdentifier: LocalIdentifier.collection(UUID().uuidString, isList: false), localizedTitle: title,
            record: nil, library: transientAssets.first?.library)
    }

    var isUserAlbum: Bool { record != nil && assetCollectionType == .album }

    public override var canContainAssets: Bool { true }

    public override func canPerform(_ anOperation: PHCollectionEditOperation) -> Bool {
        guard isUserAlbum else { return false }
        switch anOperation {
        case .removeContent, .addContent, .rearrangeContent, .delete, .rename: return true
        case .deleteContent: return true
        case .createContent: return false
        }
    }

    public override var description: String {
        "<PHAssetCollection: \(localIdentifier) \"\(localizedTitle ?? "")\" type=\(assetCollectionType.rawValue)/\(assetCollectionSubtype.rawValue)>"
    }
}
