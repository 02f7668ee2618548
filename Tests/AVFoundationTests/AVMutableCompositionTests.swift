import AVFoundation
import Foundation
import PhotosTestSupport
import Testing

@testable import AVFoundation

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
        try ExternalTool.run("/usr/bin/ffmpeg", [
            "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=0x\(String(format: "%02x%02x%02x", level, level, level)):s=\(size):r=25:d=\(seconds)",
            "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(seconds)", "-shortest",
            "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a", "aac", url.path,
        ])
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

    /// Slow motion: a second of a counting clip played in two. The segments inside the range
    /// last twice as long from the same source, what follows moves, and the rendered movie shows
    /// the source frame of each time, its sound as long as its pictures.
    @Test func aRangeScaledPlaysSlower() throws {
        let url = try CountingMovie.make(folder.appendingPathComponent("counting.mp4"), audio: true)
        let composition = AVMutableComposition()
        try composition.insertTimeRange(CMTimeRange(start: .zero, duration: Self.seconds(2)), of: AVURLAsset(url: url), at: .zero)
        composition.scaleTimeRange(CMTimeRange(start: Self.seconds(0.5), duration: Self.seconds(1)), toDuration: Self.seconds(2))

        let video = try #require(composition.mutableTracks.first { $0.mediaType == .video })
        let ranges = video.segments.map { [$0.targetRange.start.seconds, $0.targetRange.duration.seconds, $0.sourceRange.start.seconds, $0.sourceRange.duration.seconds] }
        let expected: [[Double]] = [[0, 0.5, 0, 0.5], [0.5, 2, 0.5, 1], [2.5, 0.5, 1.5, 0.5]]
        #expect(ranges.count == 3 && zip(ranges, expected).allSatisfy { zip($0, $1).allSatisfy { abs($0 - $1) < 0.002 } }, "\(ranges)")
        #expect(abs(composition.duration.seconds - 3) < 0.1, "\(composition.duration.seconds)")
        let audio = try #require(composition.tracks(withMediaType: .audio).first)
        #expect(abs(audio.timeRange.duration.seconds - 3) < 0.1, "\(audio.timeRange.duration.seconds)")

        let generator = AVAssetImageGenerator(asset: composition)
        let frame = { (seconds: Double) throws -> Int in
            try CountingMovie.frame(try generator.copyCGImage(at: Self.seconds(seconds), actualTime: nil))
        }
        // Composition time → source time: 0.3 → 0.3, 1.5 → 0.5 + 1.0 / 2, 2.75 → 1.5 + 0.25.
        for (seconds, source) in [(0.3, 3), (1.5, 10), (2.75, 17)] {
            #expect(abs(try frame(seconds) - source) <= 1, "at \(seconds) s")
        }
        #expect(AVMutableCompositionTrack.self == type(of: video))
    }

    /// The sound's tempo as `atempo` filters, each within the 0.5 to 100 it takes.
    @Test func tempoChangesAreChainedWithinAtempoRange() {
        #expect(CompositionRenderer.tempoFilters(1) == "")
        #expect(CompositionRenderer.tempoFilters(0.5) == "atempo=0.500000,")
        #expect(CompositionRenderer.tempoFilters(0.1) == "atempo=0.5,atempo=0.5,atempo=0.5,atempo=0.800000,")
        #expect(CompositionRenderer.tempoFilters(250) == "atempo=100,atempo=2.500000,")
    }
}
