import AVFoundation
import CoreImage
import Foundation
import PhotosLocking
import PhotosTestSupport
import Testing

/// Frames of a counting movie: every extracted frame says which one it is.
@Suite("AVAssetImageGenerator", .enabled(if: TestClip.isAvailable, "needs ffmpeg (apt install ffmpeg)"))
struct AVAssetImageGeneratorTests {
    let folder: URL

    init() throws {
        folder = try TestImages.temporaryDirectory("image-generator")
    }

    /// A counting movie, 10 frames a second for 2 s; `rotation` clockwise degrees in the track matrix.
    func countingMovie(rotation: Int = 0) throws -> URL {
        let url = try CountingMovie.make(folder.appendingPathComponent("counting-\(rotation).mp4"))
        if rotation != 0 { try TestClip.setRotation(rotation, width: 64, height: 48, of: url) }
        return url
    }

    @Test func aFrameIsTheOneShownAtTheTimeAsked() throws {
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: try countingMovie()))
        for (seconds, frame) in [(0.0, 0), (0.55, 5), (1.25, 12), (1.95, 19), (7.0, 19)] {
            var actual = CMTime.invalid
            let image = try generator.copyCGImage(at: CMTime(seconds: seconds, preferredTimescale: 600), actualTime: &actual)
            #expect(image.width == 64 && image.height == 48)
            #expect(try CountingMovie.frame(image) == frame, "at \(seconds) s")
            #expect(abs(actual.seconds - Double(frame) / 10) < 0.002, "at \(seconds) s: \(actual)")
        }
        #expect(throws: AVError.self) { try generator.copyCGImage(at: CMTime(seconds: -1, preferredTimescale: 600), actualTime: nil) }
    }

    @Test func theTrackTransformAndMaximumSizeShapeTheFrame() async throws {
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: try countingMovie(rotation: 90)))
        let stored = try generator.copyCGImage(at: .zero, actualTime: nil)
        #expect(stored.width == 64 && stored.height == 48)
        generator.appliesPreferredTrackTransform = true
        let upright = try await generator.image(at: CMTime(seconds: 1, preferredTimescale: 600))
        #expect(upright.image.width == 48 && upright.image.height == 64)
        #expect(try CountingMovie.frame(upright.image) == 10)
        generator.maximumSize = CGSize(width: 24, height: 0)
        let small = try generator.copyCGImage(at: .zero, actualTime: nil)
        #expect(small.width == 24 && small.height == 32)
    }

    @Test func aStripIsDeliveredInOrderAndCancellingStopsIt() throws {
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: try countingMovie()))
        generator.maximumSize = CGSize(width: 32, height: 32)
        let times = (0..<10).map { NSValue(time: CMTime(value: CMTimeValue($0 * 2), timescale: 10)) }
        #expect(times[3].timeValue == CMTime(value: 6, timescale: 10))
        let results = Mutex<[(CMTime, Int?, AVAssetImageGenerator.Result)]>([])
        let done = DispatchSemaphore(value: 0)
        generator.generateCGImagesAsynchronously(forTimes: times) { requested, image, _, result, error in
            let frame = image.flatMap { try? CountingMovie.frame($0) }
            results.withLock { $0.append((requested, frame, result)) }
            if error != nil { Issue.record("\(error!)") }
            if results.withLock({ $0.count }) == times.count { done.signal() }
        }
        #expect(done.wait(timeout: .now() + 60) == .success)
        let got = results.withLock { $0 }
        #expect(got.map(\.0) == times.map(\.timeValue))
        #expect(got.map(\.1) == (0..<10).map { $0 * 2 })
        #expect(got.allSatisfy { $0.2 == .succeeded })

        let many = (0..<40).map { NSValue(time: CMTime(value: CMTimeValue($0 % 20), timescale: 10)) }
        let outcomes = Mutex<[AVAssetImageGenerator.Result]>([])
        let finished = DispatchSemaphore(value: 0)
        generator.generateCGImagesAsynchronously(forTimes: many) { _, image, _, result, _ in
            #expect((image != nil) == (result == .succeeded))
            outcomes.withLock { $0.append(result) }
            if outcomes.withLock({ $0.count }) == many.count { finished.signal() }
        }
        generator.cancelAllCGImageGeneration()
        #expect(finished.wait(timeout: .now() + 60) == .success)
        let ended = outcomes.withLock { $0 }
        #expect(ended.count == 40 && ended.filter { $0 == .cancelled }.count >= 30, "\(ended)")
    }

    @Test func theAsyncSequenceGivesEachFrameOrItsError() async throws {
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: try countingMovie()))
        var frames: [Int] = []
        var failures = 0
        for await element in generator.images(for: [0.3, -2, 1.5].map { CMTime(seconds: $0, preferredTimescale: 600) }) {
            do {
                frames.append(try CountingMovie.frame(try element.image))
                #expect(abs(try element.actualTime.seconds - element.requestedTime.seconds) < 0.1)
            } catch {
                failures += 1
            }
        }
        #expect(frames == [3, 15] && failures == 1)
    }

    /// A Core Image composition draws each frame: the handler gets it upright at full size and
    /// its frame's time, and what it finishes with is the frame, scaled to the maximum size.
    @Test func aVideoCompositionDrawsEachFrame() throws {
        let asset = AVURLAsset(url: try countingMovie(rotation: 90))
        let seen = Mutex<[(CGRect, Double)]>([])
        let generator = AVAssetImageGenerator(asset: asset)
        generator.videoComposition = AVVideoComposition(asset: asset) { request in
            seen.withLock { $0.append((request.sourceImage.extent, request.compositionTime.seconds)) }
            // The left half red over the frame: the right half still says which frame it is.
            let extent = request.sourceImage.extent
            let red = CIImage(color: CIColor(red: 1, green: 0, blue: 0)).cropped(to: CGRect(x: 0, y: 0, width: extent.width / 2, height: extent.height))
            request.finish(with: red.composited(over: request.sourceImage), context: nil)
        }
        generator.maximumSize = CGSize(width: 24, height: 0)
        var actual = CMTime.invalid
        let image = try generator.copyCGImage(at: CMTime(seconds: 0.75, preferredTimescale: 600), actualTime: &actual)
        #expect(image.width == 24 && image.height == 32, "upright (the track turns it a quarter), then scaled")
        #expect(abs(actual.seconds - 0.7) < 0.002)
        #expect(seen.withLock { $0.map(\.0) } == [CGRect(x: 0, y: 0, width: 48, height: 64)])
        #expect(abs(seen.withLock { $0[0].1 } - 0.7) < 0.002)
        let bytes = [UInt8](try #require(image.dataProvider?.data))
        let pixel = { (x: Int, y: Int) in Array(bytes[(y * image.width + x) * 3 ..< (y * image.width + x) * 3 + 3]) }
        #expect(pixel(4, 16) == [255, 0, 0], "\(pixel(4, 16))")
        let right = pixel(20, 16)
        #expect(right[0] == right[1] && right[1] == right[2] && abs(Int(right[0]) - Int((7 * 10 * 255.0 / 219).rounded())) <= 3, "\(right)")

        // A handler's error is the frame's.
        struct Refused: Error {}
        generator.videoComposition = AVVideoComposition(asset: asset) { $0.finish(with: Refused()) }
        #expect(throws: (any Error).self) { try generator.copyCGImage(at: .zero, actualTime: nil) }
    }

    @Test func onlyMovieFilesHaveFrames() throws {
        let still = folder.appendingPathComponent("still.jpg")
        try TestImages.jpeg(width: 32, height: 24).write(to: still)
        #expect(throws: AVError.self) { try AVAssetImageGenerator(asset: AVURLAsset(url: still)).copyCGImage(at: .zero, actualTime: nil) }
        #expect(throws: AVError.self) {
            try AVAssetImageGenerator(asset: AVURLAsset(url: URL(string: "https://example.com/a.mp4")!)).copyCGImage(at: .zero, actualTime: nil)
        }
    }
}
