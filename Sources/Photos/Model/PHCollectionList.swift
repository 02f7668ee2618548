public import Foundation
import PhotosStore

/// A group of collections: a folder of albums, a moment cluster or year, or a transient list.
public final class PHCollectionList: PHCollection, @unchecked Sendable {
    public let collectionListType: PHCollectionListType
    public let collectionListSubtype: PHCollectionListSubtype
    public let startDate: Date?
    public let endDate: Date?
    /// Place names of a moment cluster's moments. Linux: named offline from a gazetteer of
    /// GeoNames data; empty without one, and for other lists.
    public let localizedLocationNames: [String]

    /// The collections of a transient list, in order.
    let transientCollections: [PHCollection]?

    init(record: CollectionRecord, library: PHPhotoLibrary?) {
        collectionListType = PHCollectionListType(rawValue: record.type) ?? .folder
        collectionListSubtype = PHCollectionListSubtype(rawValue: record.subtype) ?? .regularFolder
        startDate = record.startDate
        endDate = record.endDate
        localizedLocationNames = record.locationNames
        transientCollections = nil
        super.init(
            localIdentifier: LocalIdentifier.collection(record.uuid, isList: true), localizedTitle: record.title,
            record: record, library: library)
    }

    init(transientCollections: [PHCollection], title: String?) {
        collectionListType = .folder
        collectionListSubtype = .regularFolder
        startDate = nil
        endDate = nil
        localizedLocationNames = []
        self.transientCollections = transientCollections
        super.init(
            localIdentifier: LocalIdentifier.collection(UUID().uuidString, isList: true), localizedTitle: title,
            record: nil, library: transientCollections.first?.library)
    }

    var isUserFolder: Bool { record != nil && collectionListType == .folder }

    public override var canContainCollections: Bool { true }

    public override func canPerform(_ anOperation: PHCollectionEditOperation) -> Bool {
        guard isUserFolder else { return false }
        switch anOperation {
        case .removeContent, .addContent, .rearrangeContent, .delete, .rename, .createContent: return true
        case .deleteContent: return true
        }
    }

    public override var description: String {
        "<PHCollectionList: \(localIdentifier) \"\(localizedTitle ?? "")\" type=\(collectionListType.rawValue)/\(collectionListSubtype.rawValue)>"
    }
}
