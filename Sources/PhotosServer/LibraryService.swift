import Foundation
import Photos
import PhotosLocking

/// What every route shares: the library, who may use it, the image pipeline and its caches,
/// and the live-update hub.
///
/// In a library with people each person is served their own library
/// (``PHPhotoLibrary/library(forPerson:)``): ``serving(_:)`` gives a route the service of the
/// library its client sees, made once per person and kept, with its own fetch results, image
/// versions and live hub, and this one's gate, image manager, encoded images and connections.
final class LibraryService: Sendable {
    let library: PHPhotoLibrary
    let configuration: ServerConfiguration
    let gate: AccessGate
    let imageManager: PHCachingImageManager
    let encodedImages: EncodedImageCache
    let imageVersions: ImageVersions
    let fetchResults: FetchResultCache
    let live: LiveHub
    /// Commits concurrent requests' changes together.
    let committer = ChangeCommitter()
    /// Finds the assets concurrent requests' changes name together.
    let lookups = AssetLookups()
    /// Cancels renders whose client went away.
    let connections: ConnectionWatch
    /// The people's services, by person identifier (the served library's only).
    private let people = Mutex<[String: LibraryService]>([:])

    init(library: PHPhotoLibrary, configuration: ServerConfiguration) {
        self.library = library
        self.configuration = configuration
        gate = AccessGate(library: library, configuration: configuration)
        imageManager = PHCachingImageManager()
        encodedImages = EncodedImageCache(limit: configuration.encodedImageCacheLimit)
        imageVersions = ImageVersions(library: library)
        fetchResults = FetchResultCache(library: library)
        live = LiveHub(library: library)
        connections = ConnectionWatch()
    }

    /// A person's service, sharing what `served` holds for every client.
    private init(library: PHPhotoLibrary, sharing served: LibraryService) {
        self.library = library
        configuration = served.configuration
        gate = served.gate
        imageManager = served.imageManager
        encodedImages = served.encodedImages
        connections = served.connections
        imageVersions = ImageVersions(library: library)
        fetchResults = FetchResultCache(library: library)
        live = LiveHub(library: library)
    }

    /// The service of the library `client` sees: this one, or, for a person other than the one
    /// it serves, that person's own (made on first need, kept). This is where a person's
    /// requests are scoped to what is theirs: every route that reads or changes the library
    /// asks for it with the client the access middleware set.
    func serving(_ client: ClientAccess) throws -> LibraryService {
        guard let person = client.person, person.identifier != library.person?.identifier else { return self }
        if let kept = people.withLock({ $0[person.identifier] }) { return kept }
        let own: PHPhotoLibrary
        do {
            own = try library.library(forPerson: person.identifier)
        } catch {
            throw APIError(error)
        }
        let made = LibraryService(library: own, sharing: self)
        return people.withLock { people in
            if let kept = people[person.identifier] { return kept }
            people[person.identifier] = made
            return made
        }
    }

    /// Every person's service made so far.
    var peopleServices: [LibraryService] { people.withLock { Array($0.values) } }

    /// Runs `body` with the service's library as the current one (PhotoKit's class methods
    /// such as `PHAsset.fetchAssets` read it).
    func withLibrary<T>(_ body: () throws -> T) rethrows -> T {
        try library.withCurrent(body)
    }

    /// The asset with this identifier that `client` may see, else 404; Recently Deleted too
    /// when `includeDeleted`.
    func asset(_ text: String, for client: ClientAccess, includeDeleted: Bool = false) throws -> PHAsset {
        let identifier = try assetReference(text, for: client).identifier
        return try withLibrary {
            if let found = try PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: Self.everyAsset()).firstObjectOrFailure() {
                return found
            }
            if includeDeleted {
                let deleted = PHFetchOptions()
                deleted.predicate = NSPredicate(format: "localIdentifier == %@", identifier)
                if let found = try PHAsset.fetchRecentlyDeletedAssets(with: deleted).firstObjectOrFailure() { return found }
            }
            throw APIError.notFound("asset '\(text)'")
        }
    }

    /// An asset `client` names, checked without reading the library: the identifier's form
    /// (else 400) and what the client may see (else 404, as for an unknown asset). A change's
    /// assets are then found together with those other requests name at the same time
    /// (``AssetLookups``, ``assets(identifiers:)``).
    func assetReference(_ text: String, for client: ClientAccess) throws -> AssetReference {
        try client.requireRead()
        let identifier = try ObjectID.asset(text)
        guard client.sees(identifier) else { throw APIError.notFound("asset '\(text)'") }
        return AssetReference(text: text, identifier: identifier)
    }

    /// The assets with these local identifiers, hidden and burst ones included, by identifier,
    /// in one fetch; unknown ones are absent. A fetch that failed throws (503 for a database
    /// that is away, never a missing asset).
    func assets(identifiers: [String]) throws -> [String: PHAsset] {
        try withLibrary {
            let fetched = PHAsset.fetchAssets(withLocalIdentifiers: identifiers, options: Self.everyAsset())
            try fetched.requireFetched()
            // By index: the objects read with the ids (enumerating would read them again).
            var found: [String: PHAsset] = [:]
            for index in 0..<fetched.count {
                let asset = fetched.object(at: index)
                found[asset.localIdentifier] = asset
            }
            return found
        }
    }
}

extension LibraryService {
    /// Fetch options that leave no asset out by being hidden or a burst's unpicked frame.
    fileprivate static func everyAsset() -> PHFetchOptions {
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        options.includeAllBurstAssets = true
        return options
    }
}

/// An asset a request names (``LibraryService/assetReference(_:for:)``): the text it gave, for
/// its 404, and the local identifier.
struct AssetReference: Sendable, Hashable {
    let text: String
    let identifier: String
}

extension LibraryService {
    /// Runs CPU-heavy or blocking work (decoding, rendering, encoding, file reads) on
    /// ``WorkPool/cpu``, off the event loops; a job whose task is cancelled before it starts
    /// doesn't run.
    func offLoop<T: Sendable>(_ job: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await run(job, on: .cpu, body)
    }

    /// Runs short blocking work a person waits for (a fetch of a whole view, a stored
    /// thumbnail's file read, a photo's embedded thumbnail for a degraded answer) on
    /// ``WorkPool/reads``: off the event loops, at normal priority, and not queued behind the
    /// renders' encodes on ``WorkPool/cpu``, which a cold scroll fills (issue 19: quick answers
    /// waited there up to 118 ms at p95).
    func quickly<T: Sendable>(_ job: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await run(job, on: .reads, body)
    }

    /// Runs a library write (a change block and its commit, token and session rows) on
    /// ``WorkPool/writes``, one at a time in the order asked, off the event loops. Writes run
    /// even when the asking task is cancelled: a client that went away doesn't undo a change.
    func writing<T: Sendable>(_ job: String, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await run(job, on: .writes, cancellable: false, body)
    }

    /// `body` on `pool`, told first to the library's delegate as `job`
    /// (``PHPhotoLibrary/Delegate/workWillRun(_:)``).
    private func run<T: Sendable>(
        _ job: String, on pool: WorkPool, cancellable: Bool = true, _ body: @escaping @Sendable () throws -> T
    ) async throws -> T {
        let delegate = library.configuration.delegate
        return try await pool.run(cancellable: cancellable) {
            delegate.workWillRun(job)
            return try body()
        }
    }

    /// The kept result of `fetch` as `client` sees it (``FetchResultCache``), else the fetch,
    /// run on ``WorkPool/reads`` ("fetch") and kept.
    func keptResult(of fetch: AssetFetch, for client: ClientAccess) async throws -> PHFetchResult<PHAsset> {
        try await fetchResults.result(
            for: fetch, client: client,
            catchUp: {
                // What another instance committed and answered may not have been delivered
                // here yet (its NOTIFY is on its way). Unread (the database away), the kept
                // result answers as it is and the page's reads say so.
                _ = try? await self.quickly("catch up") { try self.library.deliverChangesCommittedElsewhere() }
            },
            make: { try await self.quickly("fetch") { try self.withLibrary { try fetch.run(for: client) } } })
    }
}

extension LibraryService {
    /// After this server changed tokens or allow-lists: drop cached access at once and tell
    /// live subscriptions of limited tokens.
    func accessChanged() {
        gate.refresh()
        for service in [self] + peopleServices {
            service.fetchResults.removeLimited()
            service.live.accessChanged(gate: gate)
        }
    }
}

extension LibraryService {
    /// After a partner share changed: every kept fetch result is dropped (the partner's
    /// timeline and their view of the shared photos read the shares when they are fetched).
    func partnersChanged() {
        gate.refresh()
        for service in [self] + peopleServices { service.fetchResults.removeAll() }
    }
}

extension LibraryService {
    /// After this server changed the library, before it answers: the edited assets' image
    /// versions are forgotten, and the change's delivery awaited, which moves the kept fetch
    /// results forward (``FetchResultCache``), so the client that changed the library reads its
    /// own write in its next request.
    func libraryChanged(editing edited: [String] = []) async {
        imageVersions.forget(edited)
        await library.changesDelivered()
    }
}
