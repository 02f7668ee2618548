import Foundation
import Photos
import PhotosLocking

/// The fetch results pages are read from, kept between requests: a page of a 100,000-asset
/// fetch reads 200 objects instead of running the fetch again. Each library change (from any
/// process) moves every kept result forward with its `PHFetchResultChangeDetails`, as an app
/// does with its own; this server's changes also drop them at once, so a client reads its own
/// writes.
final class FetchResultCache: PHPhotoLibraryChangeObserver, Sendable {
    struct Key: Hashable, Sendable {
        let fetch: AssetFetch
        /// The limited token whose allow-list narrows the fetch (nil for everyone else).
        let limitedToken: String?
    }

    private struct State {
        var results: [Key: PHFetchResult<PHAsset>] = [:]
        /// Bumped by every change, so a result made while one was applied isn't kept stale.
        var generation = 0
    }

    private let state = Mutex(State())
    /// At most this many fetches are kept (all dropped past it).
    static let limit = 64

    init(library: PHPhotoLibrary) {
        library.register(self)
    }

    /// The kept result for `fetch` as `client` sees it, else `make()`'s, kept. An add-only
    /// client is refused first: a result kept for someone else must not answer it.
    func result(for fetch: AssetFetch, client: ClientAccess, make: () throws -> PHFetchResult<PHAsset>) throws -> PHFetchResult<PHAsset> {
        try client.requireRead()
        let key = Key(fetch: fetch, limitedToken: client.allowList == nil ? nil : client.token?.identifier)
        let (kept, generation) = state.withLock { ($0.results[key], $0.generation) }
        if let kept { return kept }
        let made = try make()
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.results.count >= Self.limit { state.results.removeAll(keepingCapacity: true) }
            state.results[key] = made
        }
        return made
    }

    func removeAll() {
        state.withLock { state in
            state.generation += 1
            state.results.removeAll(keepingCapacity: true)
        }
    }

    /// The details are read outside the lock, so page requests never wait for the library; a
    /// result kept or dropped meanwhile is left as it is (the generation keeps a result made
    /// before the change from being kept).
    func photoLibraryDidChange(_ changeInstance: PHChange) {
        let kept = state.withLock { state in
            state.generation += 1
            return state.results
        }
        var moved: [Key: PHFetchResult<PHAsset>] = [:]
        for (key, result) in kept {
            guard let details = changeInstance.changeDetails(for: result) else { continue }
            moved[key] = details.fetchResultAfterChanges
        }
        guard !moved.isEmpty else { return }
        state.withLock { state in
            for (key, result) in moved where state.results[key] === kept[key] {
                state.results[key] = result
            }
        }
    }
}
