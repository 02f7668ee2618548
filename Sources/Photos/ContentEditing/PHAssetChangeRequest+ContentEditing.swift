import Foundation

/// What a change request does to an asset's content.
enum ContentEditRequest {
    case apply(PHContentEditingOutput)
    case revert
}

extension PHAssetChangeRequest {
    /// The edit to commit: its rendered image becomes the asset's current version and its
    /// adjustment data is kept to resume it. The original is never modified.
    ///
    /// The block fails with `.invalidResource` when the output has no adjustment data, was made
    /// for another asset, or its rendered file is missing or not an image. On commit the asset's
    /// `hasAdjustments` becomes true, `adjustmentFormatIdentifier` the data's format, its pixel
    /// size the rendered image's; observers see `assetContentChanged`; derivatives are made
    /// again from the new version.
    public var contentEditingOutput: PHContentEditingOutput? {
        get {
            if case .apply(let output) = contentEdit { return output }
            return nil
        }
        set {
            requireOpen("PHAssetChangeRequest.contentEditingOutput")
            contentEdit = newValue.map { .apply($0) }
        }
    }

    /// Drops the asset's edit: the original becomes the current version again (a no-op for an
    /// asset without one).
    public func revertAssetContentToOriginal() {
        requireOpen("revertAssetContentToOriginal()")
        contentEdit = .revert
    }
}
