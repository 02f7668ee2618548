import Foundation
import PhotosTestSupport
import PhotosLocking
import Testing

@testable import Photos

@Suite("PHCachingImageManager")
struct PHCachingImageManagerTests {
    static func key(_ asset: PHAsset, _ size: CGSize, _ mode: PHImageContentMode) throws -> ImageKey {
        try ImageRequestPlan(asset: asset, targetSize: size, contentMode: mode, options: PHImageRequestOptions()).key
    }

    /// A window of assets preheated as a gallery would: later requests with the same arguments
    /// come from memory, the very image objects the preheat made.
    @Test func preheatedImagesAreServedWithoutDecoding() throws {
        let log = ImageLoaderEventLog()
        let temporary = try TemporaryLibrary(configuration: log.configuration())
        let assets = try (0..<6).map { try PHImageManagerTests.asset(temporary, width: 640 + $0 * 8, height: 480, name: "p\($0).jpg") }
        let manager = PHCachingImageManager()
        let size = CGSize(width: 150, height: 150)
        manager.startCachingImages(for: assets, targetSize: size, contentMode: .aspectFill, options: nil)
        let keys = try assets.map { try Self.key($0, size, .aspectFill) }
        #expect(log.wait { $0.filter(\.isFinish).count == 6 })
        let cache = temporary.library.imageLoader.cache
        let preheated = keys.map { cache.image(for: $0) }
        #expect(preheated.allSatisfy { $0 != nil })

        for (asset, image) in zip(assets, preheated) {
            let options = PHImageRequestOptions()
            options.isSynchronous = true
            let got = Mutex<UIImage?>(nil)
            manager.requestImage(for: asset, targetSize: size, contentMode: .aspectFill, options: options) { image, _ in
                got.withLock { $0 = image }
            }
            #expect(got.withLock { $0 } === image, "a cache hit, not a new decode")
        }
        // Other arguments are another image (Apple's caching manager keys exactly).
        let other = PHImageManagerTests.request(assets[0], size, .aspectFit) { $0.deliveryMode = .highQualityFormat }
        #expect(other.first?.image !== preheated[0])
        manager.stopCachingImages(for: assets, targetSize: size, contentMode: .aspectFill, options: nil)
        manager.stopCachingImagesForAllAssets()
    }

    /// Stopping drops preheats that have not started: with one decode worker, of 16 large
    /// preheats only the one already running is decoded.
    @Test func stoppingDropsQueuedPreheats() throws {
        let log = ImageLoaderEventLog()
        let temporary = try TemporaryLibrary(configuration: log.configuration(maximumConcurrentDecodes: 1))
        let assets = try (0..<16).map { try PHImageManagerTests.asset(temporary, width: 2000, height: 1500 + $0, name: "b\($0).jpg") }
        let manager = PHCachingImageManager()
        manager.startCachingImages(for: assets, targetSize: PHImageManagerMaximumSize, contentMode: .aspectFit, options: nil)
        manager.stopCachingImagesForAllAssets()
        #expect(log.count(where: \.isDrop) == 15, "all but the running preheat dropped at once")
        #expect(log.wait { $0.contains(where: \.isFinish) })
        let keys = try assets.map { try Self.key($0, PHImageManagerMaximumSize, .aspectFit) }
        let decoded = keys.filter { temporary.library.imageLoader.cache.image(for: $0) != nil }.count
        #expect(decoded == 1, "\(decoded) of 16 decoded after stopping")
        #expect(temporary.library.imageLoader.queuedCount == 0)
    }
}
