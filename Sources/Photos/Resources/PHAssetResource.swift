public import Foundation
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
