import Foundation
import NIOCore
import Testing

@testable import PhotosServer

/// The server's memory of encoded images: bounded by bytes, least recently used out, stored
/// thumbnails kept from their second request on (issue 19: a 600 s gallery run over 1,000,000
/// assets filled the whole 256 MiB with thumbnails each asked for once).
@Suite struct EncodedImageCacheTests {
    static func entry(_ size: Int, _ tag: String) -> EncodedImageCache.Entry {
        EncodedImageCache.Entry(bytes: ByteBuffer(repeating: 0xFF, count: size), contentType: "image/jpeg", etag: "\"\(tag)\"")
    }

    @Test func storedThumbnailsAreKeptFromTheirSecondOfferOn() {
        let cache = EncodedImageCache(limit: 1 << 20)
        cache.insert(Self.entry(1000, "a"), for: "a", admitting: .onSecondOffer)
        #expect(cache.entry(for: "a") == nil, "asked for once: not kept")
        #expect(cache.totalBytes == 0)
        cache.insert(Self.entry(1000, "a"), for: "a", admitting: .onSecondOffer)
        #expect(cache.entry(for: "a")?.etag == "\"a\"", "asked for again: kept")
        cache.insert(Self.entry(1000, "b"), for: "b")
        #expect(cache.entry(for: "b") != nil, "a rendered image is kept at once")
        #expect(cache.count == 2 && cache.totalBytes == 2000)
    }

    @Test func theMemoryOfFirstOffersIsBounded() {
        let cache = EncodedImageCache(limit: 1 << 20)
        cache.insert(Self.entry(10, "first"), for: "first", admitting: .onSecondOffer)
        for i in 0..<EncodedImageCache.offeredOnceLimit {
            cache.insert(Self.entry(10, "\(i)"), for: "key \(i)", admitting: .onSecondOffer)
        }
        #expect(cache.count == 0)
        // The memory started over when full: "first" is new again, the last key offered is not.
        cache.insert(Self.entry(10, "first"), for: "first", admitting: .onSecondOffer)
        #expect(cache.entry(for: "first") == nil)
        let last = "key \(EncodedImageCache.offeredOnceLimit - 1)"
        cache.insert(Self.entry(10, "last"), for: last, admitting: .onSecondOffer)
        #expect(cache.entry(for: last) != nil)
    }

    @Test func theLeastRecentlyUsedGoFirstPastTheLimit() {
        let cache = EncodedImageCache(limit: 4000)
        for key in ["a", "b", "c", "d"] { cache.insert(Self.entry(1000, key), for: key) }
        #expect(cache.count == 4 && cache.totalBytes == 4000, "up to the limit: all kept")
        _ = cache.entry(for: "a")
        cache.insert(Self.entry(1000, "e"), for: "e")
        #expect(cache.entry(for: "b") == nil, "the least recently used went")
        #expect(["a", "c", "d", "e"].allSatisfy { cache.entry(for: $0) != nil })
        #expect(cache.totalBytes == 4000)
        cache.insert(Self.entry(1001, "f"), for: "f")
        #expect(cache.entry(for: "f") == nil, "larger than a quarter of the limit: never kept")
    }
}
