public import Foundation
import Imaging
import PhotosStore

/// One file of an asset: its original photo or video, a paired video, an alternate RAW, ...
///
/// Linux addition: ``fileSize`` is public (Apple clients read it through the private KVC key
/// `"fileSize"`, which doesn't exist on Linux).
public final class PHAssetResource: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable after init.
    public let type: PHAssetResourceType
    public let assetLocalIdentifier: String
    public let uniformTypeIdentifier: String
    /// The file's name when it was imported.
    public let originalFilename: String
    public let pixelWidth: Int
    public let pixelHeight: Int
    /// Size of the file in bytes.
    public let fileSize: Int64
    /// Where the file is in the library.
    let fileURL: URL

    init(
        type: PHAssetResourceType, assetLocalIdentifier: String, uniformTypeIdentifier: String, originalFilename: String,
        pixelWidth: Int, pixelHeight: Int, fileSize: Int64, fileURL: URL
    ) {
        self.type = type
        self.assetLocalIdentifier = assetLocalIdentifier
        self.uniformTypeIdentifier = uniformTypeIdentifier
        self.originalFilename = originalFilename
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.fileSize = fileSize
        self.fileURL = fileURL
        super.init()
    }

    init(record: ResourceRecord, library: PHPhotoLibrary) {
        type = PHAssetResourceType(rawValue: record.type) ?? .photo
        assetLocalIdentifier = LocalIdentifier.asset(record.assetUUID)
        uniformTypeIdentifier = record.uniformTypeIdentifier
        originalFilename = record.originalFilename
        pixelWidth = record.pixelWidth
        pixelHeight = record.pixelHeight
        fileSize = record.fileSize
        fileURL = library.store.layout.url(forRelativePath: record.path)
        super.init()
    }

    /// The files of an asset, ordered by type (the original `.photo` or `.video` first).
    public class func assetResources(for asset: PHAsset) -> [PHAssetResource] {
        guard let library = asset.library, let records = try? library.store.resources(assetID: asset.rowID) else {
            return []
        }
        return records.map { PHAssetResource(record: $0, library: library) }
    }

    public override var description: String {
        "<PHAssetResource: type=\(type.rawValue) uti=\(uniformTypeIdentifier) filename=\(originalFilename) asset=\(assetLocalIdentifier)>"
    }
}

extension PHAssetResource {
    /// The files of a Live Photo made with `PHLivePhoto.request(withResourceFileURLs:...)`:
    /// its `.photo` and `.pairedVideo`, with no asset identifier.
    public class func assetResources(for livePhoto: PHLivePhoto) -> [PHAssetResource] {
        [(PHAssetResourceType.photo, livePhoto.photoURL), (.pairedVideo, livePhoto.videoURL)].compactMap { type, url in
            guard let metadata = try? MediaProbe.probe(fileAt: url) else { return nil }
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
            return PHAssetResource(
                type: type, assetLocalIdentifier: "", uniformTypeIdentifier: metadata.format.uniformTypeIdentifier,
                originalFilename: url.lastPathComponent, pixelWidth: metadata.orientedPixelWidth,
                pixelHeight: metadata.orientedPixelHeight, fileSize: size, fileURL: url)
        }
    }
}
