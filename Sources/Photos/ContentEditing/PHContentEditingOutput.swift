public import Foundation
import Imaging
import PhotosLocking
public import UniformTypeIdentifiers

/// An edit to commit: the editor writes the rendered image to ``renderedContentURL`` (JPEG for
/// photos, a QuickTime movie for videos; a Live Photo's through ``PHLivePhotoEditingContext``), sets ``adjustmentData``, and assigns the output to a change request's
/// `contentEditingOutput` in a change block.
///
/// An editor that writes another format asks for its URL with ``renderedContentURL(for:)``
/// (one of ``supportedRenderedContentTypes``); the commit takes the file written at the URL
/// asked for last, else at ``renderedContentURL``.
///
/// Linux: `renderedContentURL` is a fresh file name in the system's temporary folder; the file
/// is copied into the library when the block commits and may be deleted afterwards. Photos
/// can be rendered as JPEG or, where libheif has an HEVC encoder (Debian's has x265), HEIC;
/// videos as QuickTime movies.
/// `init(placeholderForCreatedAsset:)` (an edit shipped with a creation request) is not
/// supported yet: committing such an output fails with `.requestNotSupportedForAsset`.
public final class PHContentEditingOutput: NSObject, @unchecked Sendable {
    // @unchecked Sendable: configured by one editor before it is committed.
    /// The recipe; required to commit.
    public var adjustmentData: PHAdjustmentData?
    /// Where the editor writes the rendered image (a JPEG), or for a video the rendered movie
    /// (a QuickTime movie, `.mov`).
    public let renderedContentURL: URL
    /// The asset this edits (nil for a placeholder's output).
    let assetUUID: String?
    let mediaType: PHAssetMediaType
    /// A Live Photo's rendered movie, written by ``PHLivePhotoEditingContext/saveLivePhoto(to:options:completionHandler:)``.
    let renderedPairedVideoURL: URL?

    /// The URLs handed out by ``renderedContentURL(for:)``, the last asked for last.
    private let requested = Mutex<[URL]>([])

    public init(contentEditingInput: PHContentEditingInput) {
        assetUUID = contentEditingInput.assetUUID
        mediaType = contentEditingInput.mediaType
        renderedContentURL = Self.makeURL(video: mediaType == .video)
        renderedPairedVideoURL = contentEditingInput.livePhoto == nil ? nil : Self.makeURL(video: true)
        super.init()
    }

    public init(placeholderForCreatedAsset placeholder: PHObjectPlaceholder) {
        assetUUID = nil
        mediaType = .image
        renderedContentURL = Self.makeURL(video: false)
        renderedPairedVideoURL = nil
        super.init()
    }

    /// The type ``renderedContentURL`` is for: JPEG, or a QuickTime movie for a video.
    public var defaultRenderedContentType: UTType? { mediaType == .video ? .quickTimeMovie : .jpeg }

    /// The types ``renderedContentURL(for:)`` gives a URL for: JPEG and (where this machine's
    /// libheif can encode HEVC) HEIC for photos, QuickTime movies for videos.
    public var supportedRenderedContentTypes: [UTType] {
        if mediaType == .video { return [.quickTimeMovie] }
        return VipsImage.canSaveHEIF ? [.jpeg, .heic] : [.jpeg]
    }

    /// Where to write the rendered content as `type`: ``renderedContentURL`` for the default
    /// type, else the same name with the type's extension. Throws `.invalidResource` for a
    /// type not in ``supportedRenderedContentTypes``.
    public func renderedContentURL(for type: UTType) throws -> URL {
        guard supportedRenderedContentTypes.contains(type) else {
            let supported = supportedRenderedContentTypes.map(\.identifier).joined(separator: ", ")
            throw PHPhotosError(.invalidResource, "Rendered content can't be \(type.identifier) for this asset; it can be \(supported)")
        }
        let url = type == defaultRenderedContentType
            ? renderedContentURL
            : renderedContentURL.deletingPathExtension().appendingPathExtension(for: type)
        requested.withLock { urls in
            urls.removeAll { $0 == url }
            urls.append(url)
        }
        return url
    }

    /// The file the editor wrote: at the URL asked for last that exists, else
    /// ``renderedContentURL``.
    var writtenContentURL: URL {
        let urls = requested.withLock { $0 }
        return urls.reversed().first { FileManager.default.fileExists(atPath: $0.path) } ?? renderedContentURL
    }

    private static func makeURL(video: Bool) -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PhotoKitEdits", isDirectory: true)
        // try?: a folder that can't be made fails the editor's write to this URL, which tells it.
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("\(UUID().uuidString).\(video ? "mov" : "jpg")")
    }
}
