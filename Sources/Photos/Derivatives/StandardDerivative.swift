import Foundation
import Imaging
import Logging
import PhotosStore

/// The derivatives the library keeps for each photo, like Photos' thumbnail tables: made at
/// import when asked (and, with the image manager, on demand), under `derivatives/`.
///
/// | kind | size | format |
/// | --- | --- | --- |
/// | `thumbnail` | 256 × 256, centre-cropped square (grid cells) | JPEG, quality 80 |
/// | `preview` | fits 1440 × 1440 (screen-size detail view) | JPEG, quality 80 |
///
/// Both are upright (EXIF orientation applied), sRGB, without metadata. Files are written
/// to a temporary name and renamed into place, so a reader never sees a torn file.
enum StandardDerivative: String, CaseIterable, Sendable {
    case thumbnail, preview

    var pixelSize: Int {
        switch self {
        case .thumbnail: 256
        case .preview: 1440
        }
    }

    var isSquare: Bool { self == .thumbnail }
    static let quality = 80

    /// `derivatives/<first UUID character>/<UUID>_<kind>.jpg`, relative to the library.
    func relativePath(assetUUID: String) -> String {
        "derivatives/\(assetUUID.prefix(1))/\(assetUUID)_\(rawValue).jpg"
    }

    /// The shared work of making this kind for an asset: one process or instance makes it,
    /// the others wait and read the file (``LibraryDatabase/claimJob(_:waiting:)``).
    func jobKey(assetUUID: String) -> JobKey {
        switch self {
        case .thumbnail: .thumbnail(assetUUID: assetUUID)
        case .preview: .preview(assetUUID: assetUUID)
        }
    }

    /// The kinds an import makes when asked: the grid thumbnail only, which shrink-on-load
    /// decodes at 1/8 scale; previews cost a 1/2-scale decode and are made when first shown.
    static let madeAtImport: Set<StandardDerivative> = [.thumbnail]

    /// JPEG bytes of `kinds` for a photo file, decoding it once: the thumbnail comes from the
    /// preview when both are asked for, else straight from the file.
    static func render(_ kinds: Set<StandardDerivative>, photoAt url: URL) throws(ImagingError) -> [StandardDerivative: Data] {
        var rendered: [StandardDerivative: Data] = [:]
        var preview: VipsImage?
        if kinds.contains(.preview) {
            let image = try VipsImage.thumbnail(fileAt: url, width: Self.preview.pixelSize, height: Self.preview.pixelSize, upscale: false)
            rendered[.preview] = try image.jpegData(quality: quality, keepMetadata: false)
            preview = image
        }
        if kinds.contains(.thumbnail) {
            let size = Self.thumbnail.pixelSize
            let image: VipsImage
            if let preview {
                image = try preview.resized(toFit: size, height: size, crop: true, upscale: false)
            } else {
                image = try VipsImage.thumbnail(fileAt: url, width: size, height: size, crop: true, upscale: false)
            }
            rendered[.thumbnail] = try image.jpegData(quality: quality, keepMetadata: false)
        }
        return rendered
    }
}

/// Derivatives rendered into the staging folder before their asset exists, moved into place
/// once it does.
struct StagedDerivatives: Sendable {
    var files: [StandardDerivative: URL] = [:]

    static func render(_ kinds: Set<StandardDerivative>, photoAt url: URL, store: LibraryDatabase) throws -> StagedDerivatives {
        var staged = StagedDerivatives()
        do {
            for (kind, data) in try StandardDerivative.render(kinds, photoAt: url) {
                let file = try store.makeStagingURL(fileExtension: "jpg")
                staged.files[kind] = file
                try data.write(to: file)
            }
        } catch {
            staged.discard()
            throw error
        }
        return staged
    }

    /// Renames the staged files to their places for `assetUUID` (a missing one is made again
    /// on demand later, so failures are only dropped files, logged as notices).
    func install(assetUUID: String, layout: LibraryLayout, logger: Logger) {
        for (kind, file) in files {
            let destination = layout.url(forRelativePath: kind.relativePath(assetUUID: assetUUID))
            // try?: a folder that can't be made fails the rename below, which is logged.
            try? FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            if rename(file.path, destination.path) != 0 {
                let reason = String(cString: strerror(errno))
                logger.notice("Could not keep the \(kind) of \(assetUUID) at \(destination.path): \(reason)")
                // try?: the staged file is in this process's staging folder, which the next
                // open of the library removes.
                try? FileManager.default.removeItem(at: file)
            }
        }
    }

    /// Removes the staged files (their asset was not made).
    func discard() {
        // try?: they are in this process's staging folder, which the next open of the library
        // removes.
        for file in files.values { try? FileManager.default.removeItem(at: file) }
    }
}
