import Foundation
import HTTPTypes
import Hummingbird
import NIOHTTP1
import PhotosLocking

/// Encoded images (JPEG, WebP) by request key, least recently used first out, bounded by
/// bytes: a repeated thumbnail request is answered without decoding or encoding. Stored
/// thumbnails are kept from their second request on (``Admission/onSecondOffer``).
final class EncodedImageCache: Sendable {
    struct Entry: Sendable {
        let bytes: ByteBuffer
        let contentType: String
        let etag: String
        /// The response's headers, made once: for a URL naming the image's version (cached for
        /// a year) and for one that doesn't (revalidated).
        let immutableFields: HTTPFields
        let revalidatedFields: HTTPFields
        /// The same as swift-nio's HTTP/1 headers, for ``CachedImageHandler``.
        let immutableHeaders: HTTPHeaders
        let revalidatedHeaders: HTTPHeaders

        init(bytes: ByteBuffer, contentType: String, etag: String) {
            self.bytes = bytes
            self.contentType = contentType
            self.etag = etag
            var fields: HTTPFields = [
                .eTag: etag, .contentType: contentType, .contentLength: String(bytes.readableBytes), .xContentTypeOptions: "nosniff",
            ]
            fields[.cacheControl] = ImageRoutes.immutableCacheControl
            immutableFields = fields
            fields[.cacheControl] = ImageRoutes.revalidatedCacheControl
            revalidatedFields = fields
            immutableHeaders = HTTPHeaders(immutableFields.map { ($0.name.rawName, $0.value) })
            revalidatedHeaders = HTTPHeaders(revalidatedFields.map { ($0.name.rawName, $0.value) })
        }
    }

    private struct Node {
        var key: String
        var entry: Entry
        var older: Int
        var newer: Int
    }

    /// A doubly linked list in an array (indexes, -1 for none) with a free list, so a hit
    /// moves one node without allocating.
    private struct State {
        var index: [String: Int] = [:]
        var nodes: [Node] = []
        var free: [Int] = []
        var newest = -1
        var oldest = -1
        var bytes = 0
        /// Hashes of the keys offered once with `admitting: .onSecondOffer` and not kept.
        var offeredOnce = Set<Int>()

        mutating func unlink(_ i: Int) {
            let node = nodes[i]
            if node.older >= 0 { nodes[node.older].newer = node.newer } else { oldest = node.newer }
            if node.newer >= 0 { nodes[node.newer].older = node.older } else { newest = node.older }
        }

        mutating func pushNewest(_ i: Int) {
            nodes[i].older = newest
            nodes[i].newer = -1
            if newest >= 0 { nodes[newest].newer = i }
            newest = i
            if oldest < 0 { oldest = i }
        }
    }

    let limit: Int
    private let state = Mutex(State())

    init(limit: Int) {
        self.limit = limit
    }

    func entry(for key: String) -> Entry? {
        state.withLock { state in
            guard let i = state.index[key] else { return nil }
            if state.newest != i {
                state.unlink(i)
                state.pushNewest(i)
            }
            return state.nodes[i].entry
        }
    }

    /// Which offered entries are kept.
    enum Admission: Sendable {
        /// Every one (a rendered image: making it again costs a decode).
        case always
        /// One whose key was offered before (a stored thumbnail: a file read away, and in a
        /// gallery scrolling through a large library each is asked for once, the browser
        /// keeping it for a year; kept, they would push out everything else and grow the
        /// process by the cache's whole limit). What is asked for again (by another client,
        /// or a load test) is kept from its second answer on.
        case onSecondOffer
    }

    /// The most keys remembered as offered once; past it the memory starts over (a key
    /// forgotten costs one more file read).
    static let offeredOnceLimit = 65_536

    func insert(_ entry: Entry, for key: String, admitting admission: Admission = .always) {
        let size = entry.bytes.readableBytes
        guard size <= limit / 4 else { return }
        state.withLock { state in
            if admission == .onSecondOffer, state.index[key] == nil {
                let hash = key.hashValue
                guard state.offeredOnce.remove(hash) != nil else {
                    if state.offeredOnce.count >= Self.offeredOnceLimit { state.offeredOnce.removeAll(keepingCapacity: true) }
                    state.offeredOnce.insert(hash)
                    return
                }
            }
            if let i = state.index[key] {
                state.bytes -= state.nodes[i].entry.bytes.readableBytes
                state.nodes[i].entry = entry
                state.bytes += size
                state.unlink(i)
                state.pushNewest(i)
            } else {
                let node = Node(key: key, entry: entry, older: -1, newer: -1)
                let i: Int
                if let reused = state.free.popLast() {
                    state.nodes[reused] = node
                    i = reused
                } else {
                    state.nodes.append(node)
                    i = state.nodes.count - 1
                }
                state.index[key] = i
                state.bytes += size
                state.pushNewest(i)
            }
            while state.bytes > limit, state.oldest >= 0 {
                let victim = state.oldest
                state.unlink(victim)
                state.bytes -= state.nodes[victim].entry.bytes.readableBytes
                state.index[state.nodes[victim].key] = nil
                state.nodes[victim].entry = Entry(bytes: ByteBuffer(), contentType: "", etag: "")
                state.free.append(victim)
            }
        }
    }

    var totalBytes: Int { state.withLock { $0.bytes } }
    var count: Int { state.withLock { $0.index.count } }
}
