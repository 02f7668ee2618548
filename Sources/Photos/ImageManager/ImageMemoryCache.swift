import Foundation
import PhotosLocking

/// Decoded images shared by every request, bounded by the bytes their pixels take, least
/// recently used evicted first. Keys are exact: an image is reused only for a request with the
/// same asset, version, target size, content mode, resize mode and crop (as Apple's caching
/// manager does); ``images(ofAsset:version:)`` lets an opportunistic request show another size
/// of the same asset as its degraded image.
final class ImageMemoryCache: Sendable {
    private struct Entry {
        var image: UIImage
        var cost: Int
        var previous: ImageKey?
        var next: ImageKey?
    }

    private struct State {
        var entries: [ImageKey: Entry] = [:]
        var byAsset: [String: Set<ImageKey>] = [:]
        /// Most recently used.
        var head: ImageKey?
        /// Least recently used.
        var tail: ImageKey?
        var cost = 0
        /// The most ``cost`` has been after an insertion (and its evictions).
        var peakCost = 0

        mutating func unlink(_ key: ImageKey) {
            guard let entry = entries[key] else { return }
            if let previous = entry.previous { entries[previous]?.next = entry.next } else { head = entry.next }
            if let next = entry.next { entries[next]?.previous = entry.previous } else { tail = entry.previous }
            entries[key]?.previous = nil
            entries[key]?.next = nil
        }

        mutating func pushFront(_ key: ImageKey) {
            entries[key]?.next = head
            entries[key]?.previous = nil
            if let head { entries[head]?.previous = key }
            head = key
            if tail == nil { tail = key }
        }

        mutating func remove(_ key: ImageKey) {
            unlink(key)
            guard let entry = entries.removeValue(forKey: key) else { return }
            cost -= entry.cost
            byAsset[key.assetUUID]?.remove(key)
            if byAsset[key.assetUUID]?.isEmpty == true { byAsset[key.assetUUID] = nil }
        }
    }

    private let state = Mutex(State())
    /// The most bytes of pixels kept.
    let costLimit: Int

    init(costLimit: Int) {
        self.costLimit = costLimit
    }

    func image(for key: ImageKey) -> UIImage? {
        state.withLock { state in
            guard let image = state.entries[key]?.image else { return nil }
            if state.head != key {
                state.unlink(key)
                state.pushFront(key)
            }
            return image
        }
    }

    func insert(_ image: UIImage, for key: ImageKey) {
        let cost = image.memoryCost
        guard cost <= costLimit else { return }
        state.withLock { state in
            state.remove(key)
            state.entries[key] = Entry(image: image, cost: cost)
            state.pushFront(key)
            state.byAsset[key.assetUUID, default: []].insert(key)
            state.cost += cost
            while state.cost > costLimit, let last = state.tail { state.remove(last) }
            state.peakCost = max(state.peakCost, state.cost)
        }
    }

    /// The cached images of one asset and version, largest first.
    func images(ofAsset uuid: String, version: PHImageRequestOptionsVersion) -> [UIImage] {
        state.withLock { state in
            (state.byAsset[uuid] ?? []).filter { $0.version == version }.compactMap { state.entries[$0]?.image }
        }.sorted { $0.size.width * $0.size.height > $1.size.width * $1.size.height }
    }

    /// Forgets every image of an asset (its content changed).
    func removeImages(ofAsset uuid: String) {
        state.withLock { state in
            for key in state.byAsset[uuid] ?? [] { state.remove(key) }
        }
    }

    var totalCost: Int { state.withLock(\.cost) }
    /// The most ``totalCost`` has been after an insertion.
    var peakCost: Int { state.withLock(\.peakCost) }
    var count: Int { state.withLock(\.entries.count) }
}

/// A request's identity for caching and coalescing.
struct ImageKey: Hashable, Sendable {
    var assetUUID: String
    var version: PHImageRequestOptionsVersion
    var geometry: ImageGeometry
    /// ``PHPhotoLibrary/instanceNumber`` and the file rendered from (its identity,
    /// ``ImageSourceCache/identity(of:)``): every edit renders to a new file, so images of the
    /// old version are never served again (and age out of the cache).
    var library: Int
    var sourceID: Int64
}
