import AVFoundation
import Foundation
import PhotosTestSupport
import Testing

/// Trimming and joining: two clips cut and put end to end, a range removed, a gap, exported and
/// read back frame by frame.
@Suite("AVMutableComposition", .enabled(if: TestClip.isAvailable, "needs ffmpeg (apt install ffmpeg)"))
struct AVMutableCompositionTests {
    let folder: URL

    init() throws {
        folder = try TestImages.temporaryDirectory("composition")
    }

    /// A movie of one grey level: frames say which clip they came from.
    func clip(_ name: String, level: Int, seconds: Double, size: String = "64x48") throws -> URL {
        let url = folder.appendingPathComponent(name)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = [
            "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x\(String(format: "%02x%02x%02x", level, level, level)):s=\(size):r=25:d=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)", "-shortest",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", url.path,
        ]
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return url
    }

    static func level(_ image: CGImage) throws -> Int {
        let bytes = [UInt8](try #require(image.dataProvider?.data))
        return Int(bytes[(image.height / 2 * image.width + image.width / 2) * 3])
    }

    static func seconds(_ value: Double) -> CMTime { CMTime(seconds: value, preferredTimescale: 600) }

    @Test func twoClipsTrimmedAndJoinedExportAsOne() async throws {
        let dark = AVURLAsset(url: try clip("dark.mp4", level: 40, seconds: 3))
        let light = AVURLAsset(url: try clip("light.mp4", level: 200, seconds: 3, size: "128x96"))
        let composition = AVMutableComposition()
        let video = try #require(composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid))
        let sound = try #require(composition.addMutableTrack(withMediaType: .audio, preferredTrackID: kCMPersistentTrackID_Invalid))
        #expect(video.trackID != sound.trackID)
        // 1 s of the dark clip from 0.5 s, then 1.5 s of the light one from 1 s.
        let firstRange = CMTimeRange(start: Self.seconds(0.5), duration: Self.seconds(1))
        try video.insertTimeRange(firstRange, of: try #require(dark.tracks(withMediaType: .video).first), at: .zero)
        try sound.insertTimeRange(firstRange, of: try #require(dark.tracks(withMediaType: .audio).first), at: .zero)
        try composition.insertTimeRange(CMTimeRange(start: Self.seconds(1), duration: Self.seconds(1.5)), of: light, at: Self.seconds(1))
        #expect(video.segments.count == 2 && abs(video.timeRange.duration.seconds - 2.5) < 0.01)
        #expect(abs(composition.duration.seconds - 2.5) < 0.1)
        #expect(composition.tracks(withMediaType: .video).first?.naturalSize == CGSize(width: 64, height: 48))

        let generator = AVAssetImageGenerator(asset: composition)
        #expect(abs(try Self.level(try generator.copyCGImage(at: Self.seconds(0.5), actualTime: nil)) - 40) <= 6)
        #expect(abs(try Self.level(try generator.copyCGImage(at: Self.seconds(2), actualTime: nil)) - 200) <= 6)

        let session = try #require(AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetHighestQuality))
        let output = folder.appendingPathComponent("joined.mp4")
        try await session.export(to: output, as: .mp4)
        let exported = AVURLAsset(url: output)
        #expect(abs(exported.duration.seconds - 2.5) < 0.15)
        #expect(!exported.tracks(withMediaType: .audio).isEmpty)
        let frames = AVAssetImageGenerator(asset: exported)
        #expect(abs(try Self.level(try frames.copyCGImage(at: Self.seconds(0.2), actualTime: nil)) - 40) <= 6)
        #expect(abs(try Self.level(try frames.copyCGImage(at: Self.seconds(2.3), actualTime: nil)) - 200) <= 6)
    }

    @Test func rangesComeOutAndGapsGoIn() throws {
        let dark = AVURLAsset(url: try clip("dark2.mp4", level: 40, seconds: 2))
        let light = AVURLAsset(url: try clip("light2.mp4", level: 200, seconds: 2))
        let composition = AVMutableComposition()
        try composition.insertTimeRange(CMTimeRange(start: .zero, duration: Self.seconds(2)), of: dark, at: .zero)
        try composition.insertTimeRange(CMTimeRange(start: .zero, duration: Self.seconds(2)), of: light, at: Self.seconds(2))
        // Cut 1.5 ... 2.5: dark until 1.5 s, then light.
        composition.removeTimeRange(CMTimeRange(start: Self.seconds(1.5), duration: Self.seconds(1)))
        #expect(abs(composition.duration.seconds - 3) < 0.1)
        let generator = AVAssetImageGenerator(asset: composition)
        #expect(abs(try Self.level(try generator.copyCGImage(at: Self.seconds(1.2), actualTime: nil)) - 40) <= 6)
        #expect(abs(try Self.level(try generator.copyCGImage(at: Self.seconds(1.8), actualTime: nil)) - 200) <= 6)
        // A second of black at the start.
        composition.insertEmptyTimeRange(CMTimeRange(start: .zero, duration: Self.seconds(1)))
        #expect(abs(composition.duration.seconds - 4) < 0.1)
        #expect(try Self.level(try generator.copyCGImage(at: Self.seconds(0.5), actualTime: nil)) <= 20)
        #expect(abs(try Self.level(try generator.copyCGImage(at: Self.seconds(1.5), actualTime: nil)) - 40) <= 6)
        // A range past the source's end is refused.
        #expect(throws: AVError.self) {
            try composition.insertTimeRange(CMTimeRange(start: Self.seconds(1), duration: Self.seconds(5)), of: dark, at: .zero)
        }
    }
}
