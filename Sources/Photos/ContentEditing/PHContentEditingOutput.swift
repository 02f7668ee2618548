public import Foundation

/// An edit to commit: the editor writes the rendered image to ``renderedContentURL`` (JPEG for
/// photos), sets ``adjustmentData``, and assigns the output to a change request's
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
    /// Where the editor writes the rendered image.
    public let renderedContentURL: URL
    /// The asset this edits (nil for a placeholder's output).
    let assetUUID: String?

    public init(contentEditingInput: PHContentEditingInput) {
        assetUUID = contentEditingInput.assetUUID
        renderedContentURL = Self.makeURL()
        super.init()
    }

    public init(placeholderForCreatedAsset placeholder: PHObjectPlaceholder) {
        assetUUID = nil
        renderedContentURL = Self.makeURL()
        super.init()
    }

    /// The type the rendered file should have: JPEG.
    public var defaultRenderedContentType: String { "public.jpeg" }

    private static func makeURL() -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PhotoKitEdits", isDirectory: true)
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("\(UUID().uuidString).jpg")
    }
}
