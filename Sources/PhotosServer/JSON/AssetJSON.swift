import Foundation
import Photos

/// An asset as the API shows it: what the CLI's JSON says too (``AssetJSONFields``), the API's
/// own summary beside it, and details only on `GET /api/assets/{id}`.
struct AssetJSON: Encodable, Sendable {
    let shared: AssetJSONFields
    let summary: Summary
    /// `GET /api/assets/{id}` only (``detailed(_:showingAlbums:)``).
    private(set) var details: Details?
    /// The original's file, with the details: what the CLI's `resources` entries say of it too.
    private(set) var original: ResourceJSONFields?

    /// What a page of assets, an upload's answer and a live message show of each asset beside
    /// ``shared``.
    struct Summary: Encodable, Sendable {
        /// The asset's UUID, as the API's paths name it.
        let id: String
        /// ``AssetJSON/mediaTypeName(_:)``: `image`, `video`, `audio`, `unknown`.
        let mediaType: String
        let location: Location?
        let trashedDate: Date?
        /// Whether the asset's current version is an edit, and the version of its image
        /// (``AssetJSON/version(of:)``), which changes whenever the pixels do (an edit or a
        /// revert, not a favorite): image URLs carry it as `v` to be cached for good.
        let hasAdjustments: Bool, version: String

        init(_ asset: PHAsset) {
            id = ObjectID.uuid(asset.localIdentifier)
            mediaType = AssetJSON.mediaTypeName(asset.mediaType)
            hasAdjustments = asset.hasAdjustments
            location = asset.location.map {
                Location(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude, altitude: $0.altitude)
            }
            trashedDate = asset.trashedDate
            version = AssetJSON.version(of: asset)
        }
    }

    struct Location: Encodable, Sendable {
        let latitude: Double
        let longitude: Double
        let altitude: Double?
    }

    /// What `GET /api/assets/{id}` adds: when it came, its albums, the moment's place, the camera.
    struct Details: Encodable, Sendable {
        let addedDate: Date
        /// `nil` for a limited token, which sees no albums.
        let albums: [AlbumRef]?
        let place: String?
        let camera: Camera?
        /// The words read in the photo and where they are (``PHAsset/recognizedText``), so a
        /// gallery can mark the words a search matched; absent until read.
        let text: [Word]?
    }

    struct Word: Encodable, Sendable {
        let text: String
        let x: Double
        let y: Double
        let width: Double
        let height: Double
    }

    struct AlbumRef: Encodable, Sendable {
        let id: String
        let title: String?
    }

    struct Camera: Encodable, Sendable {
        let make: String?
        let model: String?
        let lens: String?
    }

    init(_ asset: PHAsset) {
        shared = AssetJSONFields(asset)
        summary = Summary(asset)
    }

    /// Adds the details: files, albums, the moment's place, the camera. Reads the library.
    static func detailed(_ asset: PHAsset, showingAlbums: Bool) -> AssetJSON {
        var json = AssetJSON(asset)
        let resources = PHAssetResource.assetResources(for: asset)
        json.original = (resources.first(where: { $0.type == .photo || $0.type == .video }) ?? resources.first).map(ResourceJSONFields.init)
        let albums =
            showingAlbums
            ? PHAssetCollection.fetchAssetCollectionsContaining(asset, with: .album, options: nil).map {
                AlbumRef(id: ObjectID.uuid($0.localIdentifier), title: $0.localizedTitle)
            } : nil
        let moment = PHAssetCollection.fetchAssetCollectionsContaining(asset, with: .moment, options: nil).firstObject
        json.details = Details(
            addedDate: asset.addedDate, albums: albums, place: moment?.localizedTitle ?? moment?.localizedLocationNames.first,
            camera: asset.cameraInfo.map { Camera(make: $0.make, model: $0.model, lens: $0.lensModel) },
            text: asset.recognizedText?.map {
                Word(
                    text: $0.text, x: Double($0.boundingBox.minX), y: Double($0.boundingBox.minY), width: Double($0.boundingBox.width),
                    height: Double($0.boundingBox.height))
            })
        return json
    }

    func encode(to encoder: any Encoder) throws {
        try shared.encode(to: encoder)
        try summary.encode(to: encoder)
        try details?.encode(to: encoder)
        try original?.encode(to: encoder)
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
