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

    /// A video's subtypes: high frame rate from its frame rate (100 fps and more, as slow-motion
    /// recordings are); time-lapse, slow motion, cinematic and screen recording where Apple's
    /// camera says so in `com.apple.photos.captureMode`.
    static func videoSubtypes(_ metadata: MediaMetadata) -> PHAssetMediaSubtype {
        var subtypes = PHAssetMediaSubtype()
        if let rate = metadata.frameRate, rate >= 100 { subtypes.insert(.videoHighFrameRate) }
        let mode = metadata.captureMode?.lowercased().filter { $0.isLetter } ?? ""
        switch mode {
        case "timelapse": subtypes.insert(.videoTimelapse)
        case "slomo", "slowmotion": subtypes.insert(.videoHighFrameRate)
        case "cinematic": subtypes.insert(.videoCinematic)
        case "screenrecording": subtypes.insert(.videoScreenRecording)
        default: break
        }
        return subtypes
    }

    /// iOS writes "Screenshot" as the UserComment; other systems' screenshots are PNGs with no
    /// camera in their EXIF (and no capture place).
    static func isScreenshot(_ metadata: MediaMetadata, hasCamera: Bool) -> Bool {
        if metadata.userComment?.trimmingCharacters(in: .whitespacesAndNewlines) == "Screenshot" { return true }
        return metadata.format == .png && !hasCamera && metadata.location == nil && !metadata.isAnimated
    }
}
