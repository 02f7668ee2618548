import Foundation

/// The camera that took a photo, from its EXIF when it was added.
///
/// - Note: Linux addition. Apple's PhotoKit has no such property; apps read EXIF through
///   ImageIO from the content-editing input's file.
public struct PHAssetCameraInfo: Sendable, Hashable, Codable {
    public var make: String?
    public var model: String?
    public var lensModel: String?
}

extension PHAsset {
    /// The camera's make, model and lens, or `nil` when the file named none. Reads the
    /// library (the object itself holds no camera), so call it off the main thread.
    ///
    /// - Note: Linux addition.
    public var cameraInfo: PHAssetCameraInfo? {
        guard let uuid = LocalIdentifier.assetUUID(localIdentifier) else { return nil }
        let library = library ?? PHPhotoLibrary.current
        let camera = library.logger.attempt(.warning, "read the camera of \(localIdentifier)") { try library.store.camera(assetUUID: uuid) }
        guard let camera, camera.make != nil || camera.model != nil || camera.lens != nil else { return nil }
        return PHAssetCameraInfo(make: camera.make, model: camera.model, lensModel: camera.lens)
    }
}

/// The title, caption and keywords a photo's file carried when it was added (XMP `dc:title`,
/// `dc:description`, `dc:subject`, `lr:hierarchicalSubject`; IPTC Object Name, Caption,
/// Keywords), as digiKam, Lightroom, darktable and phones write them.
///
/// - Note: Linux addition. Apple's PhotoKit has no such property (the Photos app keeps its
///   captions and keywords out of the public API).
public struct PHAssetDescriptiveInfo: Sendable, Hashable, Codable {
    public var title: String?
    public var caption: String?
    public var keywords: [String]
}

extension PHAsset {
    /// The title, caption and keywords its file carried, or `nil` when it carried none. Reads
    /// the library, so call it off the main thread.
    ///
    /// - Note: Linux addition.
    public var descriptiveInfo: PHAssetDescriptiveInfo? {
        guard let uuid = LocalIdentifier.assetUUID(localIdentifier) else { return nil }
        let library = library ?? PHPhotoLibrary.current
        let found = library.logger.attempt(.warning, "read the title, caption and keywords of \(localIdentifier)") {
            try library.store.description(assetUUID: uuid)
        }
        guard let found, found.title != nil || found.caption != nil || !found.keywords.isEmpty else { return nil }
        return PHAssetDescriptiveInfo(title: found.title, caption: found.caption, keywords: found.keywords)
    }
}
