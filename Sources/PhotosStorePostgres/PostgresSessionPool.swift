import Dispatch
import Foundation
import Logging
import PhotosLocking
import PhotosStore
import PostgresNIO

/// The engine's connections: postgres-nio's `PostgresClient` (at most `pool_max` connections,
/// `pool_idle` kept open however idle, the others closed after `pool_idle_timeout`; a
/// keep-alive query every 30 s on idle ones; `connect_timeout`; TLS as the SSL mode says), run
/// by a task of the pool's own from its first use, with the store's synchronous facade on top:
/// ``take()`` leases a connection for a thread until it is given back, and a connection
/// given back waits a quarter of a second on the pool's ``Shelf`` for the next take before it
/// goes back to the client.
///
/// A database that is away is reported at once, not after a wait: the client retries its
/// connections in the background (backing off from 0.1 s by 1.25x a try); a lease waiting
/// when a try fails fails with its reason. While the last try failed, a lease the client
/// can't give within ``awayWait`` makes a connection of its own instead, as libpq would
/// (refused at once while the server is down; the caller served as soon as it is back, while
/// the client may still be backing off). A lease while the database is there waits up to
/// `connect_timeout` for a connection (all `pool_max` in use).
///
/// Linux note: libpq has no pool; this is the server's, as PhotoKit's own database is the
/// process's.
final class PostgresSessionPool: Sendable {
    private let settings: PostgresConnectionSettings
    private let counter: StatementCounter
    private let logger: Logger

    /// A client, once the first lease has made it (`allow` needs a first connection to say
    /// whether it is plain), and the task running it.
    private struct Running {
        var client: PostgresClient?
        var task: Task<Void, Never>?
        var closed = false
    }

    private let running = Mutex(Running())
    /// Leases given back in the last ``shelfLinger``, most recent last: the next ``take()``
    /// reuses one without asking the client (``Shelf``).
    private let shelf = Shelf()
    /// What the client's last connection attempts said: set by its log (``PoolEvents``).
    let health: PoolHealth
    /// How long a lease waits while the database is away before it fails.
    static let awayWait: TimeInterval = 0.01
    /// How many given-back leases the shelf keeps, and for how long (``Shelf``).
    static let shelfSize = 4
    static let shelfLinger: TimeInterval = 0.25

    init(settings: PostgresConnectionSettings, counter: StatementCounter) {
        self.settings = settings
        self.counter = counter
        let health = PoolHealth()
        self.health = health
        var logger = Logger(label: "photokit.postgres.pool") { label in PoolEvents(health: health, label: label) }
        logger.logLevel = .info
        self.logger = logger
    }

    deinit { close() }

    /// Stops the client: its connections close, and leases fail from then on.
    func close() {
        let task = running.withLock { running -> Task<Void, Never>? in
            running.closed = true
            defer { running.task = nil }
            return running.task
        }
        shelf.close()
        task?.cancel()
    }

    /// The client, made and run on first use.
    private func client() throws(StoreError) -> PostgresClient {
        try running.withLock { running throws(StoreError) -> PostgresClient in
            if let client = running.client { return client }
            guard !running.closed else { throw StoreError(.unavailable, "the library's database connections are closed") }
            var plainWorked = true
            if settings.sslMode == .allow {
                // libpq's allow: without TLS, then with it. The first connection says which.
                let probe = try PostgresSession.connect(settings)
                plainWorked = !probe.isEncrypted
                probe.close()
            }
            let client = PostgresClient(
                configuration: try settings.clientConfiguration(plainWorked: plainWorked), eventLoopGroup: PostgresSession.eventLoops,
                backgroundLogger: logger)
            // Detached: a pool outlives whatever task first used it, and isn't cancelled by it.
            running.task = Task.detached(executorPreference: PoolExecutor.shared) { await client.run() }
            running.client = client
            return client
        }
    }

    /// A connection of the pool's for the calling thread, as a session, until it is given back.
    /// `within` bounds the wait for one when every connection is in use (a spare connection
    /// for a fetch's second half, which the caller reads itself when none comes).
    /// - Throws: `StoreError.unavailable` when the database is away or every connection stays
    ///   in use for `connect_timeout` (or `within`).
    func take(within limit: TimeInterval? = nil) throws(StoreError) -> PostgresSession {
        if let (lease, connection) = shelf.take() {
            return PostgresSession(leased: connection, lease: lease, settings: settings, counter: counter)
        }
        let client = try client()
        let lease = Lease(shelf: shelf)
        counter.leases.add(1, ordering: .relaxed)
        let wasAway = health.isAway
        let task = Task.detached(executorPreference: PoolExecutor.shared) {
            do {
                try await client.withConnection { connection in
                    guard lease.hand(connection) else { return }
                    await lease.released()
                }
            } catch {
                lease.fail(error)
            }
        }
        let connection: PostgresConnection
        do {
            connection = try lease.wait(timeout: wasAway ? Self.awayWait : min(settings.connectTimeout, limit ?? .infinity), health: health)
        } catch {
            task.cancel()
            guard wasAway || health.isAway else { throw error }
            // The client may be backing off (up to a minute after a long outage), or its failed
            // try may have begun before the database came back: a connection of the session's
            // own, as libpq would make, tells whether the database is there now and serves
            // this caller meanwhile (closed when given back).
            return try PostgresSession.connect(settings, counting: counter)
        }
        return PostgresSession(leased: connection, lease: lease, settings: settings, counter: counter)
    }

    /// One connection leased from the client by a task that holds it until ``release()``.
    final class Lease: Sendable {
        private enum State {
            case waiting
            case handed(PostgresConnection)
            case failed(any Error)
            /// Given up by its thread (a timeout) or released: a connection that comes is given back at once.
            case over
        }

        private let state = Mutex<State>(.waiting)
        private let handedOver = DispatchSemaphore(value: 0)
        private let end = Mutex<(done: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))
        /// Where a connection given back waits a moment for its next session.
        private let shelf: Shelf

        init(shelf: Shelf) {
            self.shelf = shelf
        }

        /// A session is done with the connection: it goes on the pool's shelf, open and still
        /// leased, for the next ``PostgresSessionPool/take()``; back to the client when the
        /// shelf is full or closed, or the connection is.
        func giveBack() {
            let connection = state.withLock { state -> PostgresConnection? in
                guard case .handed(let connection) = state else { return nil }
                return connection
            }
            if let connection, !connection.isClosed, shelf.keep(self, connection) { return }
            release()
        }

        /// The client's task hands its connection over; false when nobody waits for it any more.
        func hand(_ connection: PostgresConnection) -> Bool {
            let taken = state.withLock { state -> Bool in
                guard case .waiting = state else { return false }
                state = .handed(connection)
                return true
            }
            if taken { handedOver.signal() }
            return taken
        }

        func fail(_ error: any Error) {
            let failed = state.withLock { state -> Bool in
                guard case .waiting = state else { return false }
                state = .failed(error)
                return true
            }
            if failed { handedOver.signal() }
        }

        /// Waits for the connection: up to `timeout`, and no longer than the database is known
        /// to be away once it is (a failed connection attempt of the client's fails every
        /// waiting lease, ``PoolHealth/connectFailed(_:)``).
        func wait(timeout: TimeInterval, health: PoolHealth) throws(StoreError) -> PostgresConnection {
            health.waiting(self)
            defer { health.done(self) }
            _ = handedOver.wait(timeout: .now() + timeout)
            let outcome = state.withLock { state -> Result<PostgresConnection, StoreError> in
                switch state {
                case .handed(let connection): return .success(connection)
                case .failed(let error):
                    state = .over
                    if let away = error as? DatabaseAway { return .failure(StoreError(.unavailable, "can't connect to the database: \(away.reason)")) }
                    return .failure(StoreError(PostgresSession.isUnavailability(error) ? .unavailable : .database, PostgresSession.reason(error)))
                case .over: return .failure(StoreError(.unavailable, "the connection was given up"))
                case .waiting:
                    state = .over
                    if health.isAway { return .failure(StoreError(.unavailable, "can't connect to the database: \(health.lastFailure ?? "no answer")")) }
                    return .failure(StoreError(.unavailable, "no connection to the database came free within \(Int(timeout)) s (pool_max, connect_timeout)"))
                }
            }
            if case .success = outcome { health.connected() }
            return try outcome.get()
        }

        /// The client's task waits here, holding the connection, until it is given back.
        func released() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = end.withLock { end -> Bool in
                    if end.done { return true }
                    end.waiter = continuation
                    return false
                }
                if done { continuation.resume() }
            }
        }

        /// Gives the connection back (once; later calls do nothing).
        func release() {
            state.withLock { $0 = .over }
            let waiter = end.withLock { end -> CheckedContinuation<Void, Never>? in
                guard !end.done else { return nil }
                end.done = true
                defer { end.waiter = nil }
                return end.waiter
            }
            waiter?.resume()
        }
    }
}

/// Leases given back, kept open for ``PostgresSessionPool/shelfLinger`` (at most
/// ``PostgresSessionPool/shelfSize``) so that the next take is a lock instead of a lease from
/// the client: a lease is a task on the pool's executor, the client's state machine, an idle
/// timer started when the connection comes back and cancelled when it goes out, and two
/// thread wake-ups; a favorite toggle through `photos serve` took ~1.3 of them. One not taken
/// again within the linger goes back to the client, whose idle timeout and keep-alive then
/// apply; a closed one is never handed out (the server restarted: the client connects anew).
final class Shelf: Sendable {
    private struct Kept {
        let lease: PostgresSessionPool.Lease
        let connection: PostgresConnection
        let since: DispatchTime
    }

    private struct State {
        var kept: [Kept] = []
        var sweeping = false
        var closed = false
    }

    private let state = Mutex(State())

    /// A kept lease and its connection, the most recently given back first; nil when none.
    func take() -> (PostgresSessionPool.Lease, PostgresConnection)? {
        while let kept = state.withLock({ $0.kept.popLast() }) {
            if !kept.connection.isClosed { return (kept.lease, kept.connection) }
            kept.lease.release()
        }
        return nil
    }

    /// Keeps a lease; false when the shelf is full or closed (the caller releases it).
    func keep(_ lease: PostgresSessionPool.Lease, _ connection: PostgresConnection) -> Bool {
        let (kept, sweep) = state.withLock { state -> (Bool, Bool) in
            guard !state.closed, state.kept.count < PostgresSessionPool.shelfSize else { return (false, false) }
            state.kept.append(Kept(lease: lease, connection: connection, since: .now()))
            let startsSweeping = !state.sweeping
            state.sweeping = true
            return (true, startsSweeping)
        }
        if sweep { scheduleSweep() }
        return kept
    }

    /// Gives back every kept lease; nothing is kept from then on.
    func close() {
        let kept = state.withLock { state -> [Kept] in
            state.closed = true
            defer { state.kept = [] }
            return state.kept
        }
        for kept in kept { kept.lease.release() }
    }

    private func scheduleSweep() {
        DispatchQueue.global().asyncAfter(deadline: .now() + PostgresSessionPool.shelfLinger) { [weak self] in self?.sweep() }
    }

    /// Releases what waited past the linger; runs again while anything is kept.
    private func sweep() {
        let cutoff = DispatchTime.now() - PostgresSessionPool.shelfLinger
        let (stale, again) = state.withLock { state -> ([Kept], Bool) in
            let stale = state.kept.filter { $0.since <= cutoff }
            state.kept.removeAll { $0.since <= cutoff }
            state.sweeping = !state.kept.isEmpty
            return (stale, state.sweeping)
        }
        for kept in stale { kept.lease.release() }
        if again { scheduleSweep() }
    }
}

/// Where the pool's tasks run: a queue of its own, never Swift's cooperative threads, which
/// the store's synchronous callers may all be blocking (each waiting for a lease the pool's
/// tasks must hand over).
final class PoolExecutor: TaskExecutor {
    static let shared = PoolExecutor()
    private let queue = DispatchQueue(label: "photokit.postgres.pool")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

/// Whether the pool's client could connect, from what it logs (postgres-nio reports a failed
/// connection attempt as "Connection creation failed"; a leased connection says it can).
final class PoolHealth: Sendable {
    private struct State {
        var lastFailure: String?
        var away = false
        var waiting: [ObjectIdentifier: PostgresSessionPool.Lease] = [:]
    }

    private let state = Mutex(State())

    var lastFailure: String? { state.withLock { $0.lastFailure } }
    /// Whether the client's last connection attempt failed and no lease succeeded since.
    var isAway: Bool { state.withLock { $0.away } }

    /// A connection attempt failed: every lease waiting fails with its reason.
    func connectFailed(_ reason: String) {
        let waiting = state.withLock { state -> [PostgresSessionPool.Lease] in
            state.lastFailure = reason
            state.away = true
            return Array(state.waiting.values)
        }
        for lease in waiting { lease.fail(DatabaseAway(reason: reason)) }
    }

    func connected() {
        state.withLock { $0.away = false }
    }

    func waiting(_ lease: PostgresSessionPool.Lease) {
        state.withLock { $0.waiting[ObjectIdentifier(lease)] = lease }
    }

    func done(_ lease: PostgresSessionPool.Lease) {
        _ = state.withLock { $0.waiting.removeValue(forKey: ObjectIdentifier(lease)) }
    }
}

/// The client could not connect (its log's reason).
struct DatabaseAway: Error {
    let reason: String
}

/// The pool client's log handler: connection failures go to ``PoolHealth``; warnings and
/// errors to standard error, as the store's other messages (never a password: postgres-nio
/// doesn't log one).
struct PoolEvents: LogHandler {
    let health: PoolHealth
    let label: String
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        if event.message.description == "Connection creation failed" {
            let error = event.metadata?["psql_error"] ?? event.metadata?["error"]
            health.connectFailed(error.map { "\($0)" } ?? "connection failed")
            return
        }
        guard event.level >= .warning else { return }
        FileHandle.standardError.write(Data("PhotoKit: PostgreSQL pool: \(event.message)\n".utf8))
    }
}
