import AVFoundation
import CoreImage
import Foundation
import PhotosLocking
import PhotosTestSupport
import Testing

/// Apple's Core Image video composition: an export whose every frame goes through a `CIFilter`.
@Suite("AVVideoComposition with Core Image", .enabled(if: TestClip.isAvailable, "needs ffmpeg (apt install ffmpeg)"))
struct AVVideoCompositionTests {
    let folder: URL

    init() throws {
        folder = try TestImages.temporaryDirectory("video-composition")
    }

    static func export(_ session: AVAssetExportSession, to url: URL) async {
        session.outputURL = url
        session.outputFileType = .mp4
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            session.exportAsynchronously { continuation.resume() }
        }
    }

    @Test func everyFrameOfTheExportGoesThroughTheFilter() async throws {
        let clip = try TestClip().write(to: folder.appendingPathComponent("clip.mp4"))
        let asset = AVURLAsset(url: clip)
        let frames = Mutex(0)
        let composition = AVVideoComposition(asset: asset) { request in
            frames.withLock { $0 += 1 }
            let mono = request.sourceImage.applyingFilter("CIPhotoEffectMono")
            // Finished from another thread, as handlers that render asynchronously do.
            DispatchQueue.global().async { request.finish(with: mono, context: nil) }
        }
        #expect(composition.renderSize == CGSize(width: 320, height: 240))
        #expect(composition.frameDuration == CMTime(value: 1, timescale: 30))
        let session = try #require(AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetHighestQuality))
        session.videoComposition = composition
        let output = folder.appendingPathComponent("mono.mp4")
        await Self.export(session, to: output)
        #expect(session.status == .completed, "\(String(describing: session.error))")
        #expect(frames.withLock { $0 } >= 59)

        let exported = AVURLAsset(url: output)
        #expect(abs(exported.duration.seconds - 2) < 0.15)
        #expect(!exported.tracks(withMediaType: .audio).isEmpty)
        let generator = AVAssetImageGenerator(asset: exported)
        for seconds in [0.2, 1.0, 1.8] {
            let frame = try generator.copyCGImage(at: CMTime(seconds: seconds, preferredTimescale: 600), actualTime: nil)
            let bytes = [UInt8](try #require(frame.dataProvider?.data))
            var coloured = 0
            for index in stride(from: 0, to: bytes.count, by: 3) where abs(Int(bytes[index]) - Int(bytes[index + 2])) > 6 { coloured += 1 }
            #expect(coloured == 0, "frame at \(seconds) s has \(coloured) coloured pixels")
        }
        // The source had colour.
        let source = try AVAssetImageGenerator(asset: asset).copyCGImage(at: CMTime(seconds: 1, preferredTimescale: 600), actualTime: nil)
        let sourceBytes = [UInt8](try #require(source.dataProvider?.data))
        #expect(stride(from: 0, to: sourceBytes.count, by: 3).contains { abs(Int(sourceBytes[$0]) - Int(sourceBytes[$0 + 2])) > 40 })
    }

    @Test func aHandlerThatFailsFailsTheExportAndLeavesNothing() async throws {
        let clip = try TestClip().write(to: folder.appendingPathComponent("clip2.mp4"))
        let asset = AVURLAsset(url: clip)
        let session = try #require(AVAssetExportSession(asset: asset, presetName: AVAssetExportPresetPassthrough))
        session.videoComposition = AVVideoComposition(asset: asset) { request in
            if request.compositionTime.seconds > 0.5 {
                request.finish(with: NSError(domain: "com.example", code: 3, userInfo: [NSLocalizedDescriptionKey: "enough"]))
            } else {
                request.finish(with: request.sourceImage, context: nil)
            }
        }
        let output = folder.appendingPathComponent("failed.mp4")
        await Self.export(session, to: output)
        #expect(session.status == .failed)
        #expect("\(String(describing: session.error))".contains("enough"))
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("failed.mp4") }
        #expect(left.isEmpty, "\(left)")
    }
}
