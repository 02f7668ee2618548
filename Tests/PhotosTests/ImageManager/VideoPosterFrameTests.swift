import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// Video assets are drawn from their poster frame (the first frame, made once with ffmpeg).
@Suite("Video poster frames", .enabled(if: TestClip.isAvailable))
struct VideoPosterFrameTests {
    @Test func aVideoIsRequestedLikeAPhoto() throws {
        let temporary = try TemporaryLibrary()
        let movie = temporary.scratch.appendingPathComponent("clip.mp4")
        // A real H.264 movie: ffmpeg's test pattern, 320 × 240, 1 s.
        _ = try ExternalTool.output(
            "/usr/bin/ffmpeg",
            ["-v", "error", "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-t", "1", "-pix_fmt", "yuv420p", "-y", movie.path])
        var identifier: String?
        try temporary.library.performChangesAndWait {
            identifier = PHAssetCreationRequest.creationRequestForAssetFromVideo(atFileURL: movie)?.placeholderForCreatedAsset?.localIdentifier
        }
        let created = try #require(identifier)
        let asset = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [created], options: nil).firstObject })
        #expect(asset.mediaType == .video && asset.pixelWidth == 320 && asset.pixelHeight == 240)

        let image = try #require(PHImageManagerTests.request(asset, CGSize(width: 160, height: 160)) { $0.deliveryMode = .highQualityFormat }.first?.image)
        #expect(image.size == CGSize(width: 160, height: 120))
        let pixels = try #require(image.pixelData())
        #expect(Set(pixels).count > 50, "the test pattern, not a blank frame")
        let poster = temporary.url.appendingPathComponent(VideoPosterFrame.relativePath(assetUUID: asset.uuid, sourcePath: "", isOriginal: true))
        let made = try #require(FileManager.default.attributesOfItem(atPath: poster.path)[.modificationDate] as? Date)

        // Another size comes from the kept poster frame, not a second ffmpeg run.
        let full = PHImageManagerTests.request(asset, PHImageManagerMaximumSize) { $0.deliveryMode = .highQualityFormat }
        #expect(full.first?.image?.size == CGSize(width: 320, height: 240))
        #expect((try FileManager.default.attributesOfItem(atPath: poster.path)[.modificationDate] as? Date) == made)

        // Expunging the asset removes it.
        try temporary.library.performChangesAndWait { PHAssetChangeRequest.deleteAssetsPermanently([asset] as NSArray) }
        #expect(!FileManager.default.fileExists(atPath: poster.path))
    }
}
