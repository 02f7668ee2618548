import Foundation
import Imaging

/// Which `PHAssetMediaSubtype`s a photo has, from evidence in its file rather than guesses
/// from its name.
enum MediaSubtypeEvidence {
    /// Wider than this (long side ÷ short side) and taken by a camera: a panorama, as the
    /// Camera app's sweeps are (3:1 and wider) and no sensor's native frame is (at most 2:1).
    static let panoramaAspectRatio = 2.5

    static func photoSubtypes(_ metadata: MediaMetadata) -> PHAssetMediaSubtype {
        var subtypes = PHAssetMediaSubtype()
        if metadata.isHDR { subtypes.insert(.photoHDR) }
        if metadata.isPortrait { subtypes.insert(.photoDepthEffect) }
        let hasCamera = metadata.make != nil || metadata.model != nil
        let long = Double(max(metadata.pixelWidth, metadata.pixelHeight))
        let short = Double(max(1, min(metadata.pixelWidth, metadata.pixelHeight)))
        if metadata.isPanorama || (hasCamera && long / short >= panoramaAspectRatio) { subtypes.insert(.photoPanorama) }
        if isScreenshot(metadata, hasCamera: hasCamera) { subtypes.insert(.photoScreenshot) }
        return subtypes
    }

    /// iOS writes "Screenshot" as the UserComment; other systems' screenshots are PNGs with no
    /// camera in their EXIF (and no capture place).
    static func isScreenshot(_ metadata: MediaMetadata, hasCamera: Bool) -> Bool {
        if metadata.userComment?.trimmingCharacters(in: .whitespacesAndNewlines) == "Screenshot" { return true }
        return metadata.format == .png && !hasCamera && metadata.location == nil && !metadata.isAnimated
    }
}
