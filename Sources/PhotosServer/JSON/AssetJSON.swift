import Foundation
import Photos

/// An asset as the API shows it; details only on `GET /api/assets/{id}`.
struct AssetJSON: Encodable, Sendable {
    struct Location: Encodable, Sendable {
        let latitude: Double
        let longitude: Double
        let altitude: Double?
    }

    struct AlbumRef: Encodable, Sendable {
        let id: String
        let title: String?
    }

    let id: String
    let localIdentifier: String
    let mediaType: String
    let mediaSubtypes: UInt
    let pixelWidth: Int
    let pixelHeight: Int
    let creationDate: Date?
    let modificationDate: Date?
    let isFavorite: Bool
    let isHidden: Bool
    let duration: Double
    let hasAdjustments: Bool
    let location: Location?
    let trashedDate: Date?
    /// Changes whenever the asset's pixels do (an edit or a revert, not a favorite); image URLs
    /// carry it as `v` to be cached for good.
    let version: String

    // Details.
    var addedDate: Date?
    var originalFilename: String?
    var fileSize: Int64?
    var uniformTypeIdentifier: String?
    var albums: [AlbumRef]?
    var place: String?
    var camera: Camera?

    struct Camera: Encodable, Sendable {
        let make: String?
        let model: String?
        let lens: String?
    }

    init(_ asset: PHAsset) {
        id = ObjectID.uuid(asset.localIdentifier)
        localIdentifier = asset.localIdentifier
        mediaType = Self.mediaTypeName(asset.mediaType)
        mediaSubtypes = asset.mediaSubtypes.rawValue
        pixelWidth = asset.pixelWidth
        pixelHeight = asset.pixelHeight
        creationDate = asset.creationDate
        modificationDate = asset.modificationDate
        isFavorite = asset.isFavorite
        isHidden = asset.isHidden
        duration = asset.duration
        hasAdjustments = asset.hasAdjustments
        location = asset.location.map {
            Location(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude, altitude: $0.altitude)
        }
        trashedDate = asset.trashedDate
        version = Self.version(of: asset)
    }

    /// Adds the details: files, albums, the moment's place, the camera. Reads the library.
    static func detailed(_ asset: PHAsset, showingAlbums: Bool) -> AssetJSON {
        var json = AssetJSON(asset)
        json.addedDate = asset.addedDate
        let resources = PHAssetResource.assetResources(for: asset)
        if let original = resources.first(where: { $0.type == .photo || $0.type == .video }) ?? resources.first {
            json.originalFilename = original.originalFilename
            json.fileSize = original.fileSize
            json.uniformTypeIdentifier = original.uniformTypeIdentifier
        }
        if showingAlbums {
            json.albums = PHAssetCollection.fetchAssetCollectionsContaining(asset, with: .album, options: nil).map {
                AlbumRef(id: ObjectID.uuid($0.localIdentifier), title: $0.localizedTitle)
            }
        }
        let moment = PHAssetCollection.fetchAssetCollectionsContaining(asset, with: .moment, options: nil).firstObject
        json.place = moment?.localizedTitle ?? moment?.localizedLocationNames.first
        json.camera = asset.cameraInfo.map { Camera(make: $0.make, model: $0.model, lens: $0.lensModel) }
        return json
    }

    /// The version of the asset's image: originals never change, so an unedited asset is
    /// `o`; an edited one is `e` and the modification date (each edit sets it). A favorite or
    /// a hide leaves cached images valid.
    static func version(of asset: PHAsset) -> String {
        guard asset.hasAdjustments else { return "o" }
        let date = asset.modificationDate ?? asset.addedDate
        return "e" + String(Int64((date.timeIntervalSince1970 * 1000).rounded()))
    }

    static func mediaTypeName(_ type: PHAssetMediaType) -> String {
        switch type {
        case .image: "image"
        case .video: "video"
        case .audio: "audio"
        default: "unknown"
        }
    }
}

/// A page of a fetch.
struct AssetPage: Encodable, Sendable {
    let count: Int
    let offset: Int
    let assets: [AssetJSON]
}
