import Foundation

public let AVAssetExportPresetLowQuality = "AVAssetExportPresetLowQuality"
public let AVAssetExportPresetMediumQuality = "AVAssetExportPresetMediumQuality"
public let AVAssetExportPresetHighestQuality = "AVAssetExportPresetHighestQuality"
public let AVAssetExportPresetHEVCHighestQuality = "AVAssetExportPresetHEVCHighestQuality"
public let AVAssetExportPreset640x480 = "AVAssetExportPreset640x480"
public let AVAssetExportPreset960x540 = "AVAssetExportPreset960x540"
public let AVAssetExportPreset1280x720 = "AVAssetExportPreset1280x720"
public let AVAssetExportPreset1920x1080 = "AVAssetExportPreset1920x1080"
public let AVAssetExportPreset3840x2160 = "AVAssetExportPreset3840x2160"
public let AVAssetExportPresetHEVC1920x1080 = "AVAssetExportPresetHEVC1920x1080"
public let AVAssetExportPresetHEVC3840x2160 = "AVAssetExportPresetHEVC3840x2160"
public let AVAssetExportPresetAppleM4A = "AVAssetExportPresetAppleM4A"
public let AVAssetExportPresetPassthrough = "AVAssetExportPresetPassthrough"

/// What a preset makes, as FFmpeg arguments.
///
/// Linux: H.264 presets encode with libx264 (`-preset medium`), HEVC ones with libx265 (tagged
/// `hvc1`, as Apple's players want), audio as AAC 160 kb/s; the size presets fit the upright
/// picture inside the box in either orientation (a portrait video in 1920×1080 comes out
/// 1080×1920) and never enlarge it. The rotation is applied to the pixels (the output has no
/// display matrix), except with Passthrough, which copies the streams and keeps it. Low and
/// Medium quality fit 480×360 and 960×540; Apple documents no sizes for them.
package struct ExportPreset: Sendable {
    package enum Video: Sendable, Equatable {
        case copy
        case h264(crf: Int)
        case hevc(crf: Int)
        case none
    }

    package let name: String
    package let video: Video
    /// The box the upright picture fits in: (long side, short side); nil keeps the size.
    package let box: (long: Int, short: Int)?
    package var x264Preset = "medium"

    package static func named(_ name: String) -> ExportPreset? {
        switch name {
        case AVAssetExportPresetLowQuality: ExportPreset(name: name, video: .h264(crf: 28), box: (480, 360))
        case AVAssetExportPresetMediumQuality: ExportPreset(name: name, video: .h264(crf: 24), box: (960, 540))
        case AVAssetExportPresetHighestQuality: ExportPreset(name: name, video: .h264(crf: 18), box: nil)
        case AVAssetExportPresetHEVCHighestQuality: ExportPreset(name: name, video: .hevc(crf: 20), box: nil)
        case AVAssetExportPreset640x480: ExportPreset(name: name, video: .h264(crf: 21), box: (640, 480))
        case AVAssetExportPreset960x540: ExportPreset(name: name, video: .h264(crf: 21), box: (960, 540))
        case AVAssetExportPreset1280x720: ExportPreset(name: name, video: .h264(crf: 21), box: (1280, 720))
        case AVAssetExportPreset1920x1080: ExportPreset(name: name, video: .h264(crf: 21), box: (1920, 1080))
        case AVAssetExportPreset3840x2160: ExportPreset(name: name, video: .h264(crf: 21), box: (3840, 2160))
        case AVAssetExportPresetHEVC1920x1080: ExportPreset(name: name, video: .hevc(crf: 24), box: (1920, 1080))
        case AVAssetExportPresetHEVC3840x2160: ExportPreset(name: name, video: .hevc(crf: 24), box: (3840, 2160))
        case AVAssetExportPresetAppleM4A: ExportPreset(name: name, video: .none, box: nil)
        case AVAssetExportPresetPassthrough: ExportPreset(name: name, video: .copy, box: nil)
        default: nil
        }
    }

    /// A library's browser rendition: H.264 (libx264 `veryfast`, CRF 23) and AAC, fitted in
    /// 1920×1080 either way up. Linux only.
    package static let browserRendition: ExportPreset = {
        var preset = ExportPreset(name: "PhotoKitBrowserRendition", video: .h264(crf: 23), box: (1920, 1080))
        preset.x264Preset = "veryfast"
        return preset
    }()

    /// Copies the streams into a new container (a browser-playable MOV made MP4). Linux only.
    package static let remux = ExportPreset(name: AVAssetExportPresetPassthrough, video: .copy, box: nil)

    package static let all = [
        AVAssetExportPresetLowQuality, AVAssetExportPresetMediumQuality, AVAssetExportPresetHighestQuality,
        AVAssetExportPresetHEVCHighestQuality, AVAssetExportPreset640x480, AVAssetExportPreset960x540,
        AVAssetExportPreset1280x720, AVAssetExportPreset1920x1080, AVAssetExportPreset3840x2160,
        AVAssetExportPresetHEVC1920x1080, AVAssetExportPresetHEVC3840x2160, AVAssetExportPresetAppleM4A,
        AVAssetExportPresetPassthrough,
    ]

    /// The container types the preset writes.
    package var fileTypes: [AVFileType] {
        switch video {
        case .none: [.m4a]
        case .copy: [.mov, .mp4, .m4v]
        default: [.mov, .mp4, .m4v]
        }
    }

    /// The output picture size for an upright `width`×`height` picture: fitted in the box,
    /// never enlarged, even (4:2:0 needs it).
    package func outputSize(width: Int, height: Int) -> (width: Int, height: Int) {
        guard width > 0, height > 0 else { return (width, height) }
        var scale = 1.0
        if let box {
            let (long, short) = (Double(max(width, height)), Double(min(width, height)))
            scale = min(1, Double(box.long) / long, Double(box.short) / short)
        }
        func even(_ value: Double) -> Int { max(2, Int((value / 2).rounded()) * 2) }
        return (even(Double(width) * scale), even(Double(height) * scale))
    }

    /// FFmpeg's arguments after `-i` and before the output: stream choice and codecs.
    package func codecArguments(for movie: MovieDescription) -> [String] {
        var arguments = ["-dn", "-sn"]
        switch video {
        case .none:
            return arguments + ["-vn", "-c:a", "aac", "-b:a", "160k"]
        case .copy:
            return arguments + ["-c", "copy"]
        case .h264(let crf):
            arguments += ["-c:v", "libx264", "-preset", x264Preset, "-crf", String(crf), "-pix_fmt", "yuv420p"]
        case .hevc(let crf):
            arguments += [
                "-c:v", "libx265", "-preset", x264Preset, "-crf", String(crf), "-pix_fmt", "yuv420p", "-tag:v", "hvc1",
                "-x265-params", "log-level=error",
            ]
        }
        let upright = movie.displaySize
        if movie.video != nil, upright.width > 0 {
            let size = outputSize(width: upright.width, height: upright.height)
            arguments += ["-vf", "scale=\(size.width):\(size.height)"]
        }
        if movie.audio != nil { arguments += ["-c:a", "aac", "-b:a", "160k"] }
        return arguments
    }
}
