import Foundation
import Photos

/// An album, smart album, moment or folder as the API shows it: what the CLI's `albums --json`
/// says too (``CollectionJSONFields``) and the API's own keys beside it.
struct CollectionJSON: Encodable, Sendable {
    let shared: CollectionJSONFields
    let own: Own

    init(_ collection: PHCollection) {
        shared = CollectionJSONFields(collection)
        own = Own(collection)
    }

    func encode(to encoder: any Encoder) throws {
        try shared.encode(to: encoder)
        try own.encode(to: encoder)
    }

    /// What only the API says, or says its own way.
    struct Own: Encodable, Sendable {
        let id: String
        /// `album`, `smartAlbum`, `moment` or `folder`.
        let kind: String
        let subtype: Int
        /// `nil` where PhotoKit doesn't know it cheaply (smart albums, folders).
        let estimatedAssetCount: Int?
        /// The span of its assets' creation dates.
        let startDate: Date?, endDate: Date?
        let locationNames: [String]
        let canContainAssets: Bool

        init(_ collection: PHCollection) {
            id = ObjectID.uuid(collection.localIdentifier)
            canContainAssets = collection.canContainAssets
            if let assets = collection as? PHAssetCollection {
                kind =
                    switch assets.assetCollectionType {
                    case .album: "album"
                    case .smartAlbum: "smartAlbum"
                    default: "moment"
                    }
                subtype = assets.assetCollectionSubtype.rawValue
                estimatedAssetCount = CollectionJSONFields.estimatedAssetCount(of: assets)
                startDate = assets.startDate
                endDate = assets.endDate
                locationNames = assets.localizedLocationNames
            } else if let list = collection as? PHCollectionList {
                kind = "folder"
                subtype = list.collectionListSubtype.rawValue
                estimatedAssetCount = nil
                startDate = list.startDate
                endDate = list.endDate
                locationNames = list.localizedLocationNames
            } else {
                kind = "album"
                subtype = 0
                estimatedAssetCount = nil
                startDate = nil
                endDate = nil
                locationNames = []
            }
        }
    }
}

struct CollectionPage: Encodable, Sendable {
    let count: Int
    let offset: Int
    let collections: [CollectionJSON]
}
