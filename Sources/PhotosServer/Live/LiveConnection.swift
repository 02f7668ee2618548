import Foundation
import Photos
import PhotosLocking

/// One WebSocket client: its subscriptions (named fetches), their preheat windows, and the
/// queue of messages to send.
final class LiveConnection: Sendable {
    private struct Subscription {
        var fetch: AssetFetch
        var result: PHFetchResult<PHAsset>
        /// The assets being cached for the preheat window, and at what size.
        var preheated: [PHAsset] = []
        var preheatSize = CGSize.zero
    }

    private struct State {
        var client: ClientAccess
        var subscriptions: [String: Subscription] = [:]
        /// Watched collection lists (the sidebar's), by subscription name.
        var collectionWatches: [String: any CollectionWatching] = [:]
        var ending: Ending?

        var subscriptionCount: Int { subscriptions.count + collectionWatches.count }
    }

    /// Why the server ends a connection: its WebSocket close code and reason.
    struct Ending: Sendable, Equatable {
        let code: UInt16
        let reason: String

        /// The token was revoked (policy violation).
        static let revoked = Ending(code: 1008, reason: "The access token was revoked")
        /// The person's session ended: signed out, a new password, the person removed.
        static let sessionEnded = Ending(code: 1008, reason: "The session ended")
        /// The client read too slowly and messages would have been lost ("try again later": a
        /// reconnected client subscribes afresh).
        static let tooSlow = Ending(code: 1013, reason: "Too many unread messages; connect again")
    }

    /// The most messages waiting to be sent; past it the connection ends (``Ending/tooSlow``)
    /// rather than drop change details the client needs to stay in step.
    static let outboxLimit = 4096

    /// The most subscriptions one connection may hold, and the widest preheat window.
    static let subscriptionLimit = 16
    static let preheatLimit = 2000

    private let service: LibraryService
    private let state: Mutex<State>
    let outbox: AsyncStream<String>
    private let continuation: AsyncStream<String>.Continuation

    init(service: LibraryService, client: ClientAccess) {
        self.service = service
        state = Mutex(State(client: client))
        (outbox, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingOldest(Self.outboxLimit))
    }

    func send(_ message: LiveMessage) {
        if case .dropped = continuation.yield(String(decoding: JSONResponse.data(message), as: UTF8.self)) {
            end(.tooSlow)
        }
    }

    /// Stops preheating and ends the outbox (the connection's writer then stops).
    func close() {
        stopAllPreheating()
        continuation.finish()
    }

    /// Ends the connection from the server's side: the writer closes the WebSocket with
    /// `ending`'s code once the messages before it are sent.
    func end(_ ending: Ending) {
        state.withLock { $0.ending = $0.ending ?? ending }
        close()
    }

    /// Why the server ended the connection, if it did.
    var ending: Ending? { state.withLock(\.ending) }

    /// Handles one text message from the client; problems go back as `error` messages.
    func receive(_ text: String) async {
        let request: LiveRequest
        do {
            request = try JSONDecoder().decode(LiveRequest.self, from: Data(text.utf8))
        } catch {
            send(.error(nil, "Not a live request: \(error)"))
            return
        }
        do {
            switch request.type {
            case .subscribe: try await subscribe(request)
            case .unsubscribe: unsubscribe(request.subscription)
            case .preheat: try preheat(request)
            }
        } catch let error as APIError {
            send(.error(request.subscription, error.reason))
        } catch {
            send(.error(request.subscription, "\(error)"))
        }
    }

    private func subscribe(_ request: LiveRequest) async throws {
        if let kind = request.collections {
            return try watchCollections(request, kind: kind)
        }
        let fetch = AssetFetch(
            predicate: request.predicate, sort: request.sort, collection: request.collection, includeHidden: request.hidden ?? false,
            deleted: request.deleted ?? false, partner: request.partner, search: request.search)
        let client = state.withLock { $0.client }
        // The result the page requests read (kept by `FetchResultCache`), not a fetch of its
        // own: a gallery opening a view asks for both, and at 1,000,000 assets each fetch reads
        // the whole index. The details of later changes take any result to their state.
        let result = try await service.keptResult(of: fetch, for: client)
        try store(request.subscription, fetch: Subscription(fetch: fetch, result: result))
        send(.subscribed(request.subscription, count: result.count))
    }

    /// Puts a fetch or a collection watch under `name` in place of whatever was there (within
    /// ``subscriptionLimit``), or with neither removes it; a replaced fetch stops preheating.
    private func store(_ name: String, fetch: Subscription? = nil, watch: (any CollectionWatching)? = nil) throws {
        let replaced = try state.withLock { state -> Subscription? in
            let known = state.subscriptions[name] != nil || state.collectionWatches[name] != nil
            guard known || (fetch == nil && watch == nil) || state.subscriptionCount < Self.subscriptionLimit else {
                throw APIError(.badRequest, "At most \(Self.subscriptionLimit) subscriptions per connection")
            }
            state.collectionWatches[name] = watch
            defer { state.subscriptions[name] = fetch }
            return state.subscriptions[name]
        }
        if let replaced { stopPreheating(replaced) }
    }

    private func unsubscribe(_ name: String) {
        try? store(name)
    }

    /// Watches a collection list as `GET /api/collections?type=` lists it (top level).
    private func watchCollections(_ request: LiveRequest, kind text: String) throws {
        guard let kind = CollectionRoutes.Kind(rawValue: text) else {
            throw APIError(
                .badRequest, "'collections' must be one of \(CollectionRoutes.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        let client = state.withLock { $0.client }
        try client.requireRead()
        guard client.allowList == nil else { throw APIError(.forbidden, "A limited token sees no collections") }
        let watch: any CollectionWatching = service.withLibrary {
            switch kind {
            case .album: CollectionWatch(result: PHCollection.fetchTopLevelUserCollections(with: nil))
            case .folder: CollectionWatch(result: PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: nil))
            case .smartAlbum: CollectionWatch(result: PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: nil))
            case .moment: CollectionWatch(result: PHAssetCollection.fetchAssetCollections(with: .moment, subtype: .any, options: nil))
            }
        }
        try store(request.subscription, watch: watch)
        send(.subscribed(request.subscription, count: watch.count))
    }

    /// Starts caching the window's thumbnails and stops caching those that left it, as
    /// StarGallery does with `PHCachingImageManager` while the grid scrolls.
    private func preheat(_ request: LiveRequest) throws {
        guard let start = request.start, let end = request.end, start >= 0, end >= start, end - start <= Self.preheatLimit else {
            throw APIError(.badRequest, "preheat needs start <= end, at most \(Self.preheatLimit) apart")
        }
        guard let width = request.width, let height = request.height, (1...2048).contains(width), (1...2048).contains(height) else {
            throw APIError(.badRequest, "preheat needs width and height in 1...2048")
        }
        let size = CGSize(width: width, height: height)
        let (added, removed, oldSize) = try state.withLock { state -> ([PHAsset], [PHAsset], CGSize) in
            guard var subscription = state.subscriptions[request.subscription] else {
                throw APIError(.badRequest, "No subscription '\(request.subscription)'")
            }
            let clamped = min(start, subscription.result.count)..<min(end, subscription.result.count)
            let window = clamped.isEmpty ? [] : subscription.result.objects(at: IndexSet(integersIn: clamped))
            let oldSize = subscription.preheatSize
            let before = oldSize == size ? Set(subscription.preheated.map(\.localIdentifier)) : []
            let now = Set(window.map(\.localIdentifier))
            let added = window.filter { !before.contains($0.localIdentifier) }
            let removed = oldSize == size ? subscription.preheated.filter { !now.contains($0.localIdentifier) } : subscription.preheated
            subscription.preheated = window
            subscription.preheatSize = size
            state.subscriptions[request.subscription] = subscription
            return (added, removed, oldSize)
        }
        let manager = service.imageManager
        let options = Self.gridOptions
        if !removed.isEmpty { manager.stopCachingImages(for: removed, targetSize: oldSize, contentMode: .aspectFill, options: options) }
        // A grid cell of the stored thumbnail's size is answered with its bytes as stored:
        // preheat only those not made yet (rendering one makes it).
        let side = CGFloat(PHImageManager.gridThumbnailPixelSize)
        let wanted = size == CGSize(width: side, height: side) ? added.filter { !manager.hasStoredGridThumbnail(for: $0) } : added
        if !wanted.isEmpty { manager.startCachingImages(for: wanted, targetSize: size, contentMode: .aspectFill, options: options) }
    }

    /// What the grid's image requests ask for (`mode=fill`, current version): preheating with
    /// other options would cache images no request reads.
    static var gridOptions: PHImageRequestOptions { ImageRoutes.requestOptions(mode: .fill, crop: nil, version: .current) }

    private func stopPreheating(_ subscription: Subscription) {
        guard !subscription.preheated.isEmpty else { return }
        service.imageManager.stopCachingImages(
            for: subscription.preheated, targetSize: subscription.preheatSize, contentMode: .aspectFill, options: Self.gridOptions)
    }

    private func stopAllPreheating() {
        let all = state.withLock { state in
            defer { state.subscriptions.removeAll() }
            return Array(state.subscriptions.values)
        }
        all.forEach(stopPreheating)
    }

    /// Sends each subscription its change details for a library change, and each collection
    /// watch whether its list changed.
    ///
    /// The details are computed outside the connection's lock (on PostgreSQL each diff step may
    /// be a round trip, and the lock is taken on the event loop by the client's messages): the
    /// fetch results are read under it, diffed without it, and stored back only where the
    /// subscription still holds the result diffed (a client's new subscription in between
    /// wins, and was fetched after the change).
    func apply(_ change: PHChange) {
        let (watches, subscriptions) = state.withLock { state in
            (state.collectionWatches, state.subscriptions.mapValues(\.result))
        }
        var advancedWatches: [(name: String, watch: any CollectionWatching, count: Int?)] = []
        for (name, watch) in watches {
            var advanced = watch
            let count = advanced.advance(change)
            advancedWatches.append((name, advanced, count))
        }
        var updates: [(String, PHFetchResult<PHAsset>, PHFetchResultChangeDetails<PHAsset>)] = []
        for (name, result) in subscriptions {
            guard let details = change.changeDetails(for: result) else { continue }
            updates.append((name, result, details))
        }
        // Stored, and told, where the watch or subscription is still the one read above.
        let (lists, stored) = state.withLock { state -> ([(String, Int)], Set<String>) in
            var lists: [(String, Int)] = []
            for (name, advanced, count) in advancedWatches where state.collectionWatches[name]?.identity == watches[name]?.identity {
                state.collectionWatches[name] = advanced
                if let count { lists.append((name, count)) }
            }
            var stored: Set<String> = []
            for (name, before, details) in updates where state.subscriptions[name]?.result === before {
                state.subscriptions[name]?.result = details.fetchResultAfterChanges
                stored.insert(name)
            }
            return (lists, stored)
        }
        for (name, count) in lists { send(.collectionsChanged(name, count: count)) }
        for (name, _, details) in updates where stored.contains(name) && !Self.isEmpty(details) { send(Self.message(name, details)) }
    }

    /// Nothing to tell: a change the subscription's fetch already saw (it was made after).
    static func isEmpty(_ details: PHFetchResultChangeDetails<PHAsset>) -> Bool {
        details.hasIncrementalChanges && details.removedIndexes?.isEmpty == true && details.insertedIndexes?.isEmpty == true
            && details.changedIndexes?.isEmpty == true && !details.hasMoves
    }

    /// A limited client's allow-list may have changed: re-run its fetches and send the
    /// difference as a change (or a revoked token, a removed person or an ended session closes
    /// the connection).
    func refreshAccess(gate: AccessGate) {
        let client = state.withLock { $0.client }
        guard client.token != nil || client.person != nil else {
            // An open server's client: shut out once the library has people.
            // try?: unread, the next access change asks again.
            if (try? gate.hasPeople()) == true {
                send(.error(nil, Ending.sessionEnded.reason))
                end(.sessionEnded)
            }
            return
        }
        guard let updated = gate.revalidate(client) else {
            let ending = client.token != nil ? Ending.revoked : .sessionEnded
            send(.error(nil, ending.reason))
            end(ending)
            return
        }
        guard updated.level == .limited || client.level == .limited else {
            state.withLock { $0.client = updated }
            return
        }
        let fetches = state.withLock { state -> [(String, AssetFetch, PHFetchResult<PHAsset>)] in
            state.client = updated
            return state.subscriptions.map { ($0.key, $0.value.fetch, $0.value.result) }
        }
        for (name, fetch, before) in fetches {
            guard let after = try? service.withLibrary({ try fetch.run(for: updated) }) else { continue }
            let details = PHFetchResultChangeDetails(from: before, to: after, changedObjects: [])
            let stored = state.withLock { state -> Bool in
                guard state.subscriptions[name]?.result === before else { return false }
                state.subscriptions[name]?.result = after
                return true
            }
            if stored, !Self.isEmpty(details) {
                send(Self.message(name, details))
            }
        }
    }

    static func message(_ name: String, _ details: PHFetchResultChangeDetails<PHAsset>) -> LiveMessage {
        let after = details.fetchResultAfterChanges
        guard details.hasIncrementalChanges, let removed = details.removedIndexes, let inserted = details.insertedIndexes,
            let changed = details.changedIndexes
        else {
            return .reset(name, count: after.count)
        }
        var moves: [[Int]] = []
        details.enumerateMoves { from, to in moves.append([from, to]) }
        return LiveMessage(
            type: "changes", subscription: name, count: after.count, removed: Array(removed),
            inserted: inserted.map { LiveMessage.Item(index: $0, asset: AssetJSON(after.object(at: $0))) },
            changed: changed.map { LiveMessage.Item(index: $0, asset: AssetJSON(after.object(at: $0))) }, moves: moves)
    }
}

/// A collection list a client watches (the gallery's sidebar): it follows the library's
/// changes and says when the list changed.
protocol CollectionWatching: Sendable {
    var count: Int { get }
    /// The fetch result it holds now: a watch replaced since it was read has another.
    var identity: ObjectIdentifier { get }
    /// The list's new count when `change` changed it (collections in or out, moved, or
    /// changed), else `nil`.
    mutating func advance(_ change: PHChange) -> Int?
}

struct CollectionWatch<T: PHCollection>: CollectionWatching, @unchecked Sendable {
    // @unchecked Sendable: held under the connection's lock; fetch results are immutable.
    var result: PHFetchResult<T>

    var count: Int { result.count }
    var identity: ObjectIdentifier { ObjectIdentifier(result) }

    mutating func advance(_ change: PHChange) -> Int? {
        guard let details = change.changeDetails(for: result) else { return nil }
        result = details.fetchResultAfterChanges
        let unchanged =
            details.hasIncrementalChanges && details.removedIndexes?.isEmpty == true && details.insertedIndexes?.isEmpty == true
            && details.changedIndexes?.isEmpty == true && !details.hasMoves
        return unchanged ? nil : result.count
    }
}
