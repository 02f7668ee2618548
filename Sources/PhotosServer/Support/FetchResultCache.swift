import Foundation
import Photos
import PhotosLocking

/// The fetch results pages are read from, kept between requests: a page of a 100,000-asset
/// fetch reads 200 objects instead of running the fetch again. Each library change (from any
/// process, this one's included) moves every kept result forward with its
/// `PHFetchResultChangeDetails`, as an app does with its own: 2.5 ms for a favorite toggle in a
/// 1,000,000-asset result, where fetching it again takes 0.1–0.6 s. A client reads its own
/// writes because the server answers a change once it has been delivered
/// (``LibraryService/libraryChanged(editing:)``).
///
/// ``LibraryService/keptResult(of:for:)`` runs the fetches on ``WorkPool/reads``, off the event
/// loops: at 1,000,000 assets one reads the whole index, and the connections of the loop it ran
/// on (WebSocket updates among them) would wait for it.
final class FetchResultCache: PHPhotoLibraryChangeObserver, Sendable {
    struct Key: Hashable, Sendable {
        let fetch: AssetFetch
        /// Whose selection narrows the fetch (``ClientAccess/narrowing``; nil for everyone else).
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
    /// client is refused first: a result kept for someone else must not answer it. Before a
    /// kept result answers, `catchUp` moves it forward by what other instances committed
    /// (a result made now needs none).
    func result(
        for fetch: AssetFetch, client: ClientAccess, catchUp: () async -> Void, make: () async throws -> PHFetchResult<PHAsset>
    ) async throws -> PHFetchResult<PHAsset> {
        try client.requireRead()
        let key = Key(fetch: fetch, limitedToken: client.narrowing)
        if state.withLock({ $0.results[key] != nil }) { await catchUp() }
        let (kept, generation) = state.withLock { ($0.results[key], $0.generation) }
        if let kept { return kept }
        let made = try await make()
        state.withLock { state in
            guard state.generation == generation else { return }
            if state.results.count >= Self.limit { state.results.removeAll(keepingCapacity: true) }
            state.results[key] = made
        }
        return made
    }

    /// Drops the results kept for limited tokens (their allow-lists changed); the others don't
    /// depend on tokens.
    func removeLimited() {
        state.withLock { state in
            state.generation += 1
            state.results = state.results.filter { $0.key.limitedToken == nil }
        }
    }

    /// Drops every kept result.
    func removeAll() {
        state.withLock { state in
            state.generation += 1
            state.results.removeAll()
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
