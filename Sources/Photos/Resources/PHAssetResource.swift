public import Foundation
import Imaging
import PhotosStore

/// One file of an asset: its original photo or video, a paired video, an alternate RAW, ...
///
/// Linux addition: ``fileSize`` is public. Apple clients read it through the private key-value
/// key `"fileSize"`, which works here too (see ``value(forKey:)``).
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
    /// Where its bytes are on this machine: the file, or for an original in a remote store the
    /// local copy (which may not exist yet).
    let localURL: URL

    /// The file holding the resource's bytes on this machine, for a server that reads byte
    /// ranges itself: the file in the library, or for an original in a remote store its local
    /// copy once fetched (`nil` before).
    package var localFileURL: URL? {
        localURL == fileURL || FileManager.default.fileExists(atPath: localURL.path) ? localURL : nil
    }

    /// The object holding the resource in the library's object store (`s3://BUCKET/KEY`),
    /// for a server that streams it from there; `nil` for a file in the library's folder or
    /// an `http(s)` original referenced in place.
    package var objectURL: URL? {
        guard let scheme = fileURL.scheme?.lowercased(), !["file", "http", "https"].contains(scheme) else { return nil }
        return fileURL
    }

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
        localURL = fileURL
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
        let layout = library.store.layout
        fileURL = layout.url(forRelativePath: record.path)
        if LibraryLayout.isRemote(path: record.path) {
            localURL = layout.remoteCopy(of: fileURL, assetUUID: record.assetUUID, resourceType: record.type)
        } else {
            localURL = fileURL
        }
        super.init()
    }

    /// The files of an asset, ordered by type (the original `.photo` or `.video` first).
    public class func assetResources(for asset: PHAsset) -> [PHAssetResource] {
        guard let library = asset.library else { return [] }
        let records = library.logger.attempt(.warning, "read the files of \(asset.localIdentifier)") {
            try library.store.resources(assetID: asset.rowID)
        }
        guard let records else { return [] }
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
            // try?: a file that can't be read is no resource of the Live Photo (it can't be
            // written out either); the Live Photo was made from the caller's own files.
            guard let metadata = try? MediaProbe.probe(fileAt: url) else { return nil }
            // try?: the file was just read; a size that can't be had reads as 0, unknown.
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value ?? 0
            return PHAssetResource(
                type: type, assetLocalIdentifier: livePhoto.assetLocalIdentifier ?? "", uniformTypeIdentifier: metadata.format.uniformTypeIdentifier,
                originalFilename: url.lastPathComponent, pixelWidth: metadata.orientedPixelWidth,
                pixelHeight: metadata.orientedPixelHeight, fileSize: size, fileURL: url)
        }
    }
}

extension PHAssetResource {
    /// The value of the property named `key`, for code that reads resources by key.
    ///
    /// Linux: Foundation's `NSObject` has no key-value coding here; resources answer their
    /// documented properties by name (`type`, `assetLocalIdentifier`, `uniformTypeIdentifier`,
    /// `originalFilename`, `pixelWidth`, `pixelHeight`) and the private keys apps read:
    /// `fileSize` (bytes, an `NSNumber`) and `locallyAvailable` (whether the bytes are on this
    /// machine: always for files in the library, for an original in a remote store once its
    /// local copy was fetched). Numbers and Booleans are `NSNumber`s, as key-value coding gives
    /// them. An unknown key stops the process with `NSUnknownKeyException`'s message.
    public func value(forKey key: String) -> Any? {
        switch key {
        case "type": NSNumber(value: type.rawValue)
        case "assetLocalIdentifier": assetLocalIdentifier
        case "uniformTypeIdentifier": uniformTypeIdentifier
        case "originalFilename": originalFilename
        case "pixelWidth": NSNumber(value: pixelWidth)
        case "pixelHeight": NSNumber(value: pixelHeight)
        case "fileSize": NSNumber(value: fileSize)
        case "locallyAvailable": NSNumber(value: FileManager.default.fileExists(atPath: localURL.path))
        default: value(forUndefinedKey: key)
        }
    }

    /// Called for a key the resource doesn't have: stops the process, as Apple's default
    /// raises `NSUnknownKeyException`.
    public func value(forUndefinedKey key: String) -> Any? {
        undefinedKey(key, of: self)
    }
}
