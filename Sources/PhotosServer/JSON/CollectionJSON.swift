import Foundation
import Photos

/// An album, smart album, moment or folder as the API shows it.
struct CollectionJSON: Encodable, Sendable {
    let id: String
    let localIdentifier: String
    /// `album`, `smartAlbum`, `moment` or `folder`.
    let kind: String
    let subtype: Int
    let title: String?
    /// `nil` where PhotoKit doesn't know it cheaply (smart albums, folders).
    let estimatedAssetCount: Int?
    let startDate: Date?
    let endDate: Date?
    let locationNames: [String]
    let canContainAssets: Bool

    init(_ collection: PHCollection) {
        id = ObjectID.uuid(collection.localIdentifier)
        localIdentifier = collection.localIdentifier
        title = collection.localizedTitle
        canContainAssets = collection.canContainAssets
        if let assets = collection as? PHAssetCollection {
            kind =
                switch assets.assetCollectionType {
                case .album: "album"
                case .smartAlbum: "smartAlbum"
                default: "moment"
                }
            subtype = assets.assetCollectionSubtype.rawValue
            estimatedAssetCount = assets.estimatedAssetCount == NSNotFound ? nil : assets.estimatedAssetCount
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

struct CollectionPage: Encodable, Sendable {
    let count: Int
    let offset: Int
    let collections: [CollectionJSON]
}
