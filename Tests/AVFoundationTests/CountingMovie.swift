import AVFoundation
import Foundation
import PhotosTestSupport
import Testing

/// A movie whose frame n is grey level 16 + `step`·n (limited-range luma, lossless H.264), so
/// every extracted frame says which one it is: RGB ≈ `step` · 255 / 219 · n.
enum CountingMovie {
    /// Written to `url`: 64 × 48, `rate` frames a second for `seconds`; with `audio`, a 440 Hz
    /// tone as long; `more` are further `ffmpeg` output options (key frames, layout).
    @discardableResult
    static func make(
        _ url: URL, rate: Int = 10, seconds: Double = 2, step: Int = 10, audio: Bool = false, _ more: [String] = []
    ) throws -> URL {
        var arguments = ["-v", "error", "-y", "-f", "lavfi", "-i", "nullsrc=s=64x48:r=\(rate):d=\(seconds),format=yuv444p,geq=lum='16+\(step)*N':cb=128:cr=128"]
        if audio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)", "-shortest"] }
        arguments += ["-c:v", "libx264", "-qp", "0", "-pix_fmt", "yuv444p"]
        if audio { arguments += ["-c:a", "aac"] }
        try ExternalTool.run("/usr/bin/ffmpeg", arguments + more + [url.path])
        return url
    }

    /// The frame number a frame of such a movie shows (read at its middle pixel).
    static func frame(_ image: CGImage, step: Int = 10) throws -> Int {
        let bytes = [UInt8](try #require(image.dataProvider?.data))
        let middle = (image.height / 2 * image.width + image.width / 2) * (image.bitsPerPixel / 8)
        return Int((Double(bytes[middle]) / (Double(step) * 255.0 / 219)).rounded())
    }
}
