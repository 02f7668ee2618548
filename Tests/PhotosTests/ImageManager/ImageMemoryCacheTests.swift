import Foundation
import Imaging
import Testing

@testable import Photos

/// The shared memory cache: bounded by the bytes of its pixels, least recently used out first.
@Suite("Image memory cache")
struct ImageMemoryCacheTests {
    static func image(_ side: Int) throws -> UIImage {
        UIImage(decoded: try VipsImage.solid(width: side, height: side, rgb: [10, 20, 30]).materialized())
    }

    static func key(_ asset: String, _ side: Int) -> ImageKey {
        let geometry = ImageGeometry.plan(
            sourceWidth: 1000, sourceHeight: 1000, target: CGSize(width: side, height: side), contentMode: .aspectFit,
            resizeMode: .exact, normalizedCrop: .zero)
        return ImageKey(assetUUID: asset, version: .current, geometry: geometry, library: 1, sourceID: 1)
    }

    @Test func evictsTheLeastRecentlyUsedPastItsByteLimit() throws {
        // Three 100 × 100 RGB images are 30,000 bytes each; room for two.
        let cache = ImageMemoryCache(costLimit: 70_000)
        let a = try Self.image(100), b = try Self.image(100), c = try Self.image(100)
        cache.insert(a, for: Self.key("A", 100))
        cache.insert(b, for: Self.key("B", 100))
        #expect(cache.totalCost == 60_000 && cache.count == 2)
        _ = cache.image(for: Self.key("A", 100))  // A is now the most recently used
        cache.insert(c, for: Self.key("C", 100))
        #expect(cache.image(for: Self.key("B", 100)) == nil, "B was least recently used")
        #expect(cache.image(for: Self.key("A", 100)) === a && cache.image(for: Self.key("C", 100)) === c)
        #expect(cache.totalCost <= 70_000)
        // Larger than the whole cache: not kept.
        cache.insert(try Self.image(200), for: Self.key("D", 200))
        #expect(cache.image(for: Self.key("D", 200)) == nil && cache.count == 2)
    }

    @Test func findsOtherSizesOfAnAssetAndForgetsThem() throws {
        let cache = ImageMemoryCache(costLimit: 1 << 20)
        cache.insert(try Self.image(50), for: Self.key("A", 50))
        cache.insert(try Self.image(120), for: Self.key("A", 120))
        cache.insert(try Self.image(80), for: Self.key("B", 80))
        #expect(cache.images(ofAsset: "A", version: .current).map(\.size.width) == [120, 50], "largest first")
        #expect(cache.images(ofAsset: "A", version: .original).isEmpty)
        cache.removeImages(ofAsset: "A")
        #expect(cache.images(ofAsset: "A", version: .current).isEmpty && cache.count == 1)
        #expect(cache.totalCost == 80 * 80 * 3)
    }
}
