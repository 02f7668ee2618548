public import Foundation

/// An edit to commit: the editor writes the rendered image to ``renderedContentURL`` (JPEG for
/// photos, a QuickTime movie for videos; a Live Photo's through ``PHLivePhotoEditingContext``), sets ``adjustmentData``, and assigns the output to a change request's
/// `contentEditingOutput` in a change block.
///
/// Linux: `renderedContentURL` is a fresh file name in the system's temporary folder; the file
/// is copied into the library when the block commits and may be deleted afterwards.
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

    /// The type the rendered file should have: JPEG, or a QuickTime movie for a video.
    public var defaultRenderedContentType: String { mediaType == .video ? "com.apple.quicktime-movie" : "public.jpeg" }

    private static func makeURL(video: Bool) -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PhotoKitEdits", isDirectory: true)
        // try?: a folder that can't be made fails the editor's write to this URL, which tells it.
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("\(UUID().uuidString).\(video ? "mov" : "jpg")")
    }
}
