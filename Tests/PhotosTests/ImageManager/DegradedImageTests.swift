import Foundation
import Imaging
import PhotosTestSupport
import PhotosLocking
import Testing

@testable import Photos

/// Degraded images from the thumbnail a photo carries (issue 19, aim 3): `.opportunistic`
/// delivers it first, `.fastFormat` delivers only it, `.highQualityFormat` never.
@Suite("PHImageManager degraded images")
struct DegradedImageTests {
    typealias Deliveries = PHImageManagerTests.Deliveries

    /// Imports an 800 × 600 gradient JPEG carrying a 160 × 120 EXIF thumbnail (written by
    /// exiftool; all white, so it can't be mistaken for the gradient) and the orientation.
    static func asset(_ temporary: TemporaryLibrary, orientation: Int = 1, thumbnail: Bool = true) throws -> PHAsset {
        let file = temporary.scratch.appendingPathComponent("thumbed-\(orientation)-\(thumbnail).jpg")
        try TestImages.writeJPEG(to: file, width: 800, height: 600)
        var arguments = ["-q", "-overwrite_original", "-Orientation#=\(orientation)"]
        if thumbnail {
            let white = try VipsImage(pixels: Data(repeating: 255, count: 160 * 120 * 3), width: 160, height: 120, bands: 3)
            let thumb = temporary.scratch.appendingPathComponent("thumb.jpg")
            try white.jpegData(quality: 90, keepMetadata: false).write(to: thumb)
            arguments.append("-ThumbnailImage<=\(thumb.path)")
        }
        _ = try ExternalTool.exiftool(arguments + [file.path])
        var identifier: String?
        try temporary.library.performChangesAndWait {
            identifier = PHAssetCreationRequest.creationRequestForAssetFromImage(atFileURL: file)?.placeholderForCreatedAsset?.localIdentifier
        }
        let created = try #require(identifier)
        return try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [created], options: nil).firstObject })
    }

    static func isWhite(_ image: UIImage?) -> Bool {
        guard let image, let pixel = image.pixel(x: Int(image.size.width) / 2, y: Int(image.size.height) / 2) else { return false }
        return pixel.prefix(3).allSatisfy { $0 > 240 }
    }

    @Test("opportunistic: the embedded thumbnail first, upright and marked degraded, then the final image")
    func opportunistic() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.asset(temporary, orientation: 6)
        #expect(asset.pixelWidth == 600 && asset.pixelHeight == 800)
        let deliveries = PHImageManagerTests.request(asset, CGSize(width: 400, height: 400))
        #expect(deliveries.map(\.degraded) == [true, false])
        // The 160 × 120 thumbnail turned by the photo's orientation 6; smaller than asked.
        #expect(deliveries.first?.image?.size == CGSize(width: 120, height: 160))
        #expect(Self.isWhite(deliveries.first?.image))
        #expect(deliveries.last?.image?.size == CGSize(width: 300, height: 400))
        #expect(!Self.isWhite(deliveries.last?.image))
        let ids = deliveries.map { ($0.info[PHImageResultRequestIDKey] as? NSNumber)?.int32Value }
        #expect(ids.count == 2 && ids[0] == ids[1] && ids[0] != nil)
        #expect(deliveries.allSatisfy { $0.error == nil && ($0.info[PHImageResultIsInCloudKey] as? NSNumber)?.boolValue == false })
        // Cached now: exactly one, final.
        #expect(PHImageManagerTests.request(asset, CGSize(width: 400, height: 400)).map(\.degraded) == [false])
    }

    @Test("aspectFill: the degraded image is centre-cropped to the target's shape, never larger than it")
    func aspectFill() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.asset(temporary)
        let big = PHImageManagerTests.request(asset, CGSize(width: 300, height: 300), .aspectFill) { $0.resizeMode = .exact }
        #expect(big.map(\.degraded) == [true, false])
        #expect(big.first?.image?.size == CGSize(width: 120, height: 120), "the thumbnail's largest square, not scaled up")
        #expect(big.last?.image?.size == CGSize(width: 300, height: 300))
        // (The 300 px one in memory is larger than asked, so no stand-in for a smaller request.)
        let square = PHImageManagerTests.request(asset, CGSize(width: 100, height: 100), .aspectFill) { $0.resizeMode = .exact }
        #expect(square.map(\.degraded) == [true, false])
        #expect(square.first?.image?.size == CGSize(width: 100, height: 100))
    }

    @Test("fastFormat: exactly one image, the embedded thumbnail, and no render")
    func fastFormat() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.asset(temporary)
        let loader = try #require(asset.library?.imageLoader)
        let before = loader.renderCount
        let fast = PHImageManagerTests.request(asset, CGSize(width: 500, height: 500)) { $0.deliveryMode = .fastFormat }
        #expect(fast.count == 1 && fast.first?.degraded == true && Self.isWhite(fast.first?.image))
        #expect(fast.first?.image?.size == CGSize(width: 160, height: 120))
        #expect(loader.renderCount == before)
        // Synchronous: the same, on the calling thread before returning.
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        options.deliveryMode = .fastFormat
        let calls = Mutex<[(Bool, CGSize?)]>([])
        PHImageManager.default().requestImage(for: asset, targetSize: CGSize(width: 500, height: 500), contentMode: .aspectFit, options: options) {
            image, info in
            calls.withLock { $0.append((((info?[PHImageResultIsDegradedKey] as? NSNumber)?.boolValue ?? false), image?.size)) }
        }
        let made = calls.withLock { $0 }
        #expect(made.count == 1 && made.first?.0 == true && made.first?.1 == CGSize(width: 160, height: 120))
        #expect(loader.renderCount == before)
    }

    @Test("fastFormat without an embedded thumbnail renders the final image, once")
    func fastFormatWithoutThumbnail() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.asset(temporary, thumbnail: false)
        let opportunistic = PHImageManagerTests.request(asset, CGSize(width: 300, height: 300))
        #expect(opportunistic.map(\.degraded) == [false], "nothing cheaper at hand: only the final image")
        let fast = PHImageManagerTests.request(asset, CGSize(width: 200, height: 200)) { $0.deliveryMode = .fastFormat }
        PHImageManager.default().deliveryQueue.sync {}
        #expect(fast.map(\.degraded) == [false] && fast.first?.image?.size == CGSize(width: 200, height: 150))
    }

    @Test("highQualityFormat never delivers a degraded image")
    func highQuality() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.asset(temporary)
        let high = PHImageManagerTests.request(asset, CGSize(width: 400, height: 400)) { $0.deliveryMode = .highQualityFormat }
        PHImageManager.default().deliveryQueue.sync {}
        #expect(high.map(\.degraded) == [false] && !Self.isWhite(high.first?.image))
    }

    @Test("a cancelled fastFormat request gets the cancellation and nothing after it")
    func cancelled() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.asset(temporary)
        let options = PHImageRequestOptions()
        options.deliveryMode = .opportunistic
        let deliveries = Deliveries()
        let manager = PHImageManager.default()
        let id = manager.requestImage(
            for: asset, targetSize: CGSize(width: 700, height: 700), contentMode: .aspectFit, options: options, resultHandler: deliveries.handler)
        manager.cancelImageRequest(id)
        let got = deliveries.wait()
        // Possibly the degraded image (read before the cancel), then the cancellation, last.
        #expect(got.last?.cancelled == true)
        #expect(got.filter { !$0.degraded }.count == 1)
    }
}
