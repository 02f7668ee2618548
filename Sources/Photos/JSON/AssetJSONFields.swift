import Foundation

/// What an asset's JSON says in both of the package's vocabularies, under the same keys with the
/// same values: the CLI's (`photos ls --json`, `info --json`, `deleted --json`, documented in
/// the README) and the API's (`/api/assets`, `/api/assets/{id}`, uploads and live messages,
/// documented in the server's OpenAPI description and read by the gallery).
///
/// Each vocabulary's object writes these beside its own keys: its `encode(to:)` encodes this
/// value into the same encoder, whose keyed container the two share. What the vocabularies
/// spell differently stays with each: `mediaType` (the CLI's `photo`, `live`, `video`…, the
/// API's `image`, `video`…), the place (the CLI's `latitude` and `longitude`, the API's
/// `location` object) and the deletion date (the CLI's `deletedDate`, the API's `trashedDate`).
/// Dates are written by the encoder: one from ``JSONOutput/encoder(prettyPrinted:)`` writes
/// ISO 8601 text. A missing date has no key.
package struct AssetJSONFields: Encodable, Sendable {
    package let localIdentifier: String
    /// ``PHAssetMediaSubtype``'s raw value.
    package let mediaSubtypes: UInt
    package let pixelWidth: Int
    package let pixelHeight: Int
    package let creationDate: Date?
    package let modificationDate: Date?
    /// Seconds; 0 for stills.
    package let duration: Double
    package let isFavorite: Bool
    package let isHidden: Bool

    package init(_ asset: PHAsset) {
        localIdentifier = asset.localIdentifier
        mediaSubtypes = asset.mediaSubtypes.rawValue
        pixelWidth = asset.pixelWidth
        pixelHeight = asset.pixelHeight
        creationDate = asset.creationDate
        modificationDate = asset.modificationDate
        duration = asset.duration
        isFavorite = asset.isFavorite
        isHidden = asset.isHidden
    }
}
