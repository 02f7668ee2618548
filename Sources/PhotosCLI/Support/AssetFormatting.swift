import Foundation
import Photos

/// How assets print: one line each, or JSON.
enum AssetFormatting {
    static func date(_ date: Date?) -> String {
        date.map { $0.ISO8601Format() } ?? "-"
    }

    static func typeName(_ asset: PHAsset) -> String {
        switch asset.mediaType {
        case .image: asset.mediaSubtypes.contains(.photoLive) ? "live" : "photo"
        case .video: "video"
        case .audio: "audio"
        case .unknown: "unknown"
        }
    }

    static func line(_ asset: PHAsset) -> String {
        var flags = ""
        flags += asset.isFavorite ? "F" : "-"
        flags += asset.isHidden ? "H" : "-"
        flags += asset.burstIdentifier != nil ? "B" : "-"
        return [
            asset.localIdentifier, date(asset.creationDate), typeName(asset).padding(toLength: 5, withPad: " ", startingAt: 0),
            "\(asset.pixelWidth)x\(asset.pixelHeight)".padding(toLength: 11, withPad: " ", startingAt: 0), flags,
        ].joined(separator: "  ")
    }

    /// The JSON object for an asset: what the API's JSON says too (``AssetJSONFields``) and
    /// the CLI's own keys beside it.
    struct AssetJSON: Encodable {
        var shared: AssetJSONFields
        var own: Own

        init(_ asset: PHAsset, resources: [PHAssetResource]? = nil) {
            shared = AssetJSONFields(asset)
            own = Own(
                mediaType: AssetFormatting.typeName(asset), latitude: asset.location?.coordinate.latitude,
                longitude: asset.location?.coordinate.longitude, burstIdentifier: asset.burstIdentifier,
                deletedDate: asset.trashedDate, resources: resources?.map(ResourceJSON.init))
        }

        func encode(to encoder: any Encoder) throws {
            try shared.encode(to: encoder)
            try own.encode(to: encoder)
        }

        /// What only the CLI says, or says its own way.
        struct Own: Encodable {
            /// ``AssetFormatting/typeName(_:)``: `photo`, `live`, `video`, `audio`, `unknown`.
            var mediaType: String
            var latitude: Double?
            var longitude: Double?
            var burstIdentifier: String?
            var deletedDate: Date?
            /// `photos info --json` only.
            var resources: [ResourceJSON]?
        }
    }

    /// The JSON object for one of an asset's files: what the API's asset details say of the
    /// original too (``ResourceJSONFields``), its type and its size in pixels.
    struct ResourceJSON: Encodable {
        var file: ResourceJSONFields
        var own: Own

        init(_ resource: PHAssetResource) {
            file = ResourceJSONFields(resource)
            own = Own(type: resource.type.rawValue, pixelWidth: resource.pixelWidth, pixelHeight: resource.pixelHeight)
        }

        func encode(to encoder: any Encoder) throws {
            try file.encode(to: encoder)
            try own.encode(to: encoder)
        }

        /// What only the CLI says of a file.
        struct Own: Encodable {
            /// ``PHAssetResourceType``'s raw value.
            var type: Int
            var pixelWidth: Int
            var pixelHeight: Int
        }
    }

    /// Pretty-printed JSON as the CLI prints it (``JSONOutput/encoder(prettyPrinted:)``).
    static func json(_ value: some Encodable) throws -> String {
        String(decoding: try JSONOutput.encoder(prettyPrinted: true).encode(value), as: UTF8.self)
    }
}
