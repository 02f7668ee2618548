import Foundation

/// What the JSON of an album, smart album, moment or folder says in both of the package's
/// vocabularies (see ``AssetJSONFields``): the CLI's `photos albums --json` and the API's
/// collections (`/api/collections`). Written beside each vocabulary's own keys (the CLI's
/// `kind`, `count` and `children`, the API's `id`, `kind`, `estimatedAssetCount`, dates…), into
/// the same object; a collection without a title has no `title` key.
package struct CollectionJSONFields: Encodable, Sendable {
    package let localIdentifier: String
    package let title: String?

    package init(_ collection: PHCollection) {
        localIdentifier = collection.localIdentifier
        title = collection.localizedTitle
    }

    /// An album's ``PHAssetCollection/estimatedAssetCount``, `nil` where PhotoKit doesn't know
    /// it cheaply (`NSNotFound`: smart albums).
    package static func estimatedAssetCount(of album: PHAssetCollection) -> Int? {
        album.estimatedAssetCount == NSNotFound ? nil : album.estimatedAssetCount
    }
}
