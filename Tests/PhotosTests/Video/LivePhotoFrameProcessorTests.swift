import AVFoundation
import Foundation
import PhotosLocking
import PhotosTestSupport
import Testing

@testable import Photos

/// Apple's Live Photo editing: a frame processor that edits the still and every frame of the
/// movie as Core Image images, saved into the output and committed.
@Suite("Live Photo frame processor", .enabled(if: TestClip.isAvailable, "needs ffmpeg (apt install ffmpeg)"))
struct LivePhotoFrameProcessorTests {
    /// Whether every pixel of a bitmap is grey (channels within `tolerance`).
    static func isGrey(_ image: CGImage, tolerance: Int = 4) throws -> Bool {
        let bytes = [UInt8](try #require(image.dataProvider?.data))
        let step = image.bitsPerPixel / 8
        var coloured = 0
        for index in stride(from: 0, to: bytes.count, by: step) {
            let (r, g, b) = (Int(bytes[index]), Int(bytes[index + 1]), Int(bytes[index + 2]))
            if abs(r - g) > tolerance || abs(g - b) > tolerance { coloured += 1 }
        }
        return coloured == 0
    }

    @Test func theStillAndEveryFrameGoThroughTheProcessor() async throws {
        let temporary = try TemporaryLibrary()
        let asset = try VideoRequestTests.addLivePhoto(temporary)
        let input = try await VideoEditingTests.input(asset)
        let context = try #require(PHLivePhotoEditingContext(livePhotoEditingInput: input))
        #expect(context.fullSizeImage.extent.size == CGSize(width: asset.pixelWidth, height: asset.pixelHeight))
        let seen = Mutex<[PHLivePhotoFrameType: Int]>([:])
        context.frameProcessor = { frame, _ in
            seen.withLock { $0[frame.type, default: 0] += 1 }
            #expect(frame.renderScale == 1)
            return frame.image.applyingFilter("CIPhotoEffectMono")
        }
        let output = PHContentEditingOutput(contentEditingInput: input)
        let saved = await withCheckedContinuation { continuation in
            context.saveLivePhoto(to: output) { ok, error in continuation.resume(returning: ok ? nil : "\(String(describing: error))") }
        }
        #expect(saved == nil)
        let counts = seen.withLock { $0 }
        #expect(counts[.photo] == 1)
        #expect((counts[.video] ?? 0) >= 40, "\(counts)")  // 1.5 s at 30 frames a second
        output.adjustmentData = PHAdjustmentData(formatIdentifier: "com.example.mono", formatVersion: "1", data: Data())
        try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }

        let edited = try VideoEditingTests.refetch(asset, in: temporary)
        #expect(edited.hasAdjustments)
        let live = try await PHImageManager.default().livePhoto(for: edited)
        let still = try #require(CIImage(contentsOf: live.photoURL))
        #expect(try Self.isGrey(try #require(CIContext().createCGImage(still, from: still.extent))))
        let generator = AVAssetImageGenerator(asset: AVURLAsset(url: live.videoURL))
        for seconds in [0.1, 0.7, 1.4] {
            let frame = try generator.copyCGImage(at: CMTime(seconds: seconds, preferredTimescale: 600), actualTime: nil)
            #expect(try Self.isGrey(frame), "the movie's frame at \(seconds) s is not grey")
        }
        // The sound went through.
        #expect(!AVURLAsset(url: live.videoURL).tracks(withMediaType: .audio).isEmpty)
    }

    @Test func aProcessorThatFailsStopsTheSave() async throws {
        let temporary = try TemporaryLibrary()
        let asset = try VideoRequestTests.addLivePhoto(temporary)
        let input = try await VideoEditingTests.input(asset)
        let context = try #require(PHLivePhotoEditingContext(livePhotoEditingInput: input))
        context.frameProcessor = { frame, error in
            guard frame.type == .photo else {
                error?.pointee = NSError(domain: "com.example", code: 7, userInfo: [NSLocalizedDescriptionKey: "no movies"])
                return nil
            }
            return frame.image
        }
        let output = PHContentEditingOutput(contentEditingInput: input)
        let failure = await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            context.saveLivePhoto(to: output) { ok, error in continuation.resume(returning: ok ? nil : "\(String(describing: error))") }
        }
        #expect(failure?.contains("no movies") == true, "\(String(describing: failure))")
        let movie = try #require(output.renderedPairedVideoURL)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: movie.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(".\(movie.lastPathComponent).") || $0 == movie.lastPathComponent }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }
}
