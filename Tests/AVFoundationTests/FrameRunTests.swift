import Foundation
import Imaging
import PhotosLocking
import PhotosTestSupport
import Testing

@testable import AVFoundation

/// Frames asked for together are decoded in runs: one `ffmpeg` process from a seek to the run's
/// first frame, keeping the frames asked for, planned from the key frames the movie's sample
/// tables list. Every frame a run gives must be the one a lone request gives.
@Suite("AVAssetImageGenerator: runs of frames", .enabled(if: TestClip.isAvailable, "needs ffmpeg (apt install ffmpeg)"))
struct FrameRunTests {
    let folder: URL

    init() throws {
        folder = try TestImages.temporaryDirectory("frame-runs")
    }

    /// A counting movie (step 7), 10 frames a second for 3 s, a key frame every
    /// `keyframeInterval` frames and nowhere else; more `ffmpeg` arguments for the file's layout.
    func countingMovie(keyframeInterval: Int, _ more: [String] = [], name: String = "counting") throws -> URL {
        try CountingMovie.make(
            folder.appendingPathComponent("\(name)-\(keyframeInterval).mp4"), seconds: 3, step: 7,
            ["-g", "\(keyframeInterval)", "-sc_threshold", "0", "-bf", "2"] + more)
    }

    static func frameNumber(_ image: CGImage) throws -> Int {
        try CountingMovie.frame(image, step: 7)
    }

    @Test func keyFramesAreReadFromTheSampleTables() throws {
        #expect(MovieKeyframes.read(from: try countingMovie(keyframeInterval: 8)) == .listed([0, 8, 16, 24]))
        // All intra: the muxer writes no `stss`, every sample is a sync sample.
        #expect(MovieKeyframes.read(from: try countingMovie(keyframeInterval: 1)) == .every)
        // Fragments keep their samples outside the sample tables; a still is not a movie.
        #expect(MovieKeyframes.read(from: try countingMovie(keyframeInterval: 8, ["-movflags", "frag_keyframe+empty_moov"], name: "fragmented")) == nil)
        let still = folder.appendingPathComponent("still.jpg")
        try TestImages.jpeg(width: 16, height: 16).write(to: still)
        #expect(MovieKeyframes.read(from: still) == nil)
        #expect(MovieKeyframes.read(from: folder.appendingPathComponent("missing.mp4")) == nil)

        let listed = MovieKeyframes.listed([0, 8, 16, 24])
        #expect([0, 7, 8, 15, 16, 29].map(listed.keyframe(atOrBefore:)) == [0, 0, 8, 8, 16, 24])
        #expect(MovieKeyframes.listed([5]).keyframe(atOrBefore: 2) == 0)
        #expect(MovieKeyframes.every.keyframe(atOrBefore: 13) == 13)
    }

    @Test func framesJoinARunWhenDecodingOnCostsNoMoreThanASeek() {
        let keyframes = MovieKeyframes.listed([0, 10, 20])
        // 12's key frame (10) is past 7: a seek; 19's (10) is not past 12: decoded on.
        #expect(FramePlan.runs(of: [12, 3, 7, 3, 30, 19], keyframes: keyframes) == [[3, 7], [12, 19], [30]])
        #expect(FramePlan.runs(of: [12, 3, 7], keyframes: nil) == [[3], [7], [12]])
        #expect(FramePlan.runs(of: [2, 1], keyframes: .every) == [[1], [2]])
        let long = FramePlan.runs(of: Array(0 ..< 100), keyframes: .listed([0]))
        #expect(long.map(\.count) == [FramePlan.maximumRun, 100 - FramePlan.maximumRun])
    }

    /// Every frame, in an order that jumps back and forth and asks for some twice, from movies
    /// with key frames every 1, 4 and 30 frames: the batch's frames and times are a lone
    /// request's.
    @Test(arguments: [1, 4, 30])
    func aBatchGivesTheFramesLoneRequestsGive(keyframeInterval: Int) async throws {
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: try countingMovie(keyframeInterval: keyframeInterval)))
        let seconds = [2.95, 0.0, 1.04, 1.05, 0.31, 2.2, 0.31, 9.0, 1.66, 0.05, 2.51, 0.99]
        let times = seconds.map { CMTime(seconds: $0, preferredTimescale: 600) }
        let results = Mutex<[(CMTime, Int?, CMTime)]>([])
        let done = DispatchSemaphore(value: 0)
        generator.generateCGImagesAsynchronously(forTimes: times.map { NSValue(time: $0) }) { requested, image, actual, _, error in
            if let error { Issue.record("\(requested.seconds) s: \(error)") }
            let frame = image.flatMap { try? Self.frameNumber($0) }
            if results.withLock({ $0.append((requested, frame, actual)); return $0.count }) == times.count { done.signal() }
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        let batch = results.withLock { $0 }
        #expect(batch.map(\.0) == times, "in the order asked")
        for (time, frame, actual) in batch {
            var alone = CMTime.invalid
            let image = try generator.copyCGImage(at: time, actualTime: &alone)
            #expect(frame == (try Self.frameNumber(image)), "at \(time.seconds) s")
            #expect(actual == alone, "at \(time.seconds) s")
        }
        #expect(batch.compactMap(\.1) == [29, 0, 10, 10, 3, 22, 3, 29, 16, 0, 25, 9])

        var sequence: [Int] = []
        for await element in generator.images(for: times) { sequence.append(try Self.frameNumber(try element.image)) }
        #expect(sequence == batch.compactMap(\.1))
    }

    @Test func aRunStopsWhenItsIterationEnds() async throws {
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: try countingMovie(keyframeInterval: 30)))
        var first: Int?
        for await element in generator.images(for: (0 ..< 30).map { CMTime(value: CMTimeValue($0), timescale: 10) }) {
            first = try Self.frameNumber(try element.image)
            break
        }
        #expect(first == 0)
    }
}
