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

    /// The JSON object for an asset.
    struct AssetJSON: Encodable {
        var localIdentifier: String
        var mediaType: String
        var mediaSubtypes: UInt
        var pixelWidth: Int
        var pixelHeight: Int
        var creationDate: String?
        var modificationDate: String?
        var latitude: Double?
        var longitude: Double?
        var duration: Double
        var isFavorite: Bool
        var isHidden: Bool
        var burstIdentifier: String?
        var deletedDate: String?
        var resources: [ResourceJSON]?

        init(_ asset: PHAsset, resources: [PHAssetResource]? = nil) {
            localIdentifier = asset.localIdentifier
            mediaType = AssetFormatting.typeName(asset)
            mediaSubtypes = asset.mediaSubtypes.rawValue
            pixelWidth = asset.pixelWidth
            pixelHeight = asset.pixelHeight
            creationDate = asset.creationDate.map { $0.ISO8601Format() }
            modificationDate = asset.modificationDate.map { $0.ISO8601Format() }
            latitude = asset.location?.coordinate.latitude
            longitude = asset.location?.coordinate.longitude
            duration = asset.duration
            isFavorite = asset.isFavorite
            isHidden = asset.isHidden
            burstIdentifier = asset.burstIdentifier
            deletedDate = asset.trashedDate.map { $0.ISO8601Format() }
            self.resources = resources?.map(ResourceJSON.init)
        }
    }

    struct ResourceJSON: Encodable {
        var type: Int
        var originalFilename: String
        var uniformTypeIdentifier: String
        var fileSize: Int64
        var pixelWidth: Int
        var pixelHeight: Int

        init(_ resource: PHAssetResource) {
            type = resource.type.rawValue
            originalFilename = resource.originalFilename
            uniformTypeIdentifier = resource.uniformTypeIdentifier
            fileSize = resource.fileSize
            pixelWidth = resource.pixelWidth
            pixelHeight = resource.pixelHeight
        }
    }

    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
