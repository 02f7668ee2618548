package import Foundation
import PhotosLocking
package import PhotosStore
import PostgresNIO
package import struct Synchronization.Atomic

/// A library's rows in a PostgreSQL database, shared by every process and instance that opens
/// it: the ``StoreEngine`` ``LibraryDatabase`` runs the store's logic on.
///
/// - Reads run in `REPEATABLE READ READ ONLY` transactions: every statement of one sees the
///   same committed state, as SQLite's read transactions do.
/// - Writes run in `READ COMMITTED` transactions that first take one advisory lock
///   (``writeLock``), so writes of every instance are ordered as SQLite orders a file's: a
///   change block reads and writes as if alone, and change positions commit in order.
/// - Single queries run on an idle session outside a transaction.
/// - Wake-ups go through `NOTIFY` (``PostgresChangeListener``).
///
/// Connections come from postgres-nio's `PostgresClient` (``PostgresSessionPool``), its `LISTEN`
/// one apart.
package final class PostgresEngine: StoreEngine {
    /// The database's `postgres://` URL.
    package let url: URL
    /// The pool, or why the URL's settings are wrong (each use then throws it).
    private let pool: Result<PostgresSessionPool, StoreError>
    private let listener: PostgresChangeListener
    /// Counts every statement this engine's sessions send (each a round trip).
    let counter = StatementCounter()

    /// How many statements this engine's sessions sent: what tests count a change's cost in.
    package var statementsSent: Int { counter.count.load(ordering: .relaxed) }
    /// How many times a caller blocked for an answer: statements sent less those sent ahead
    /// without waiting (``PostgresSession/send(_:)``, a transaction's `BEGIN`).
    package var answersWaitedFor: Int { counter.waits.load(ordering: .relaxed) }
    /// How many connections were leased from postgres-nio's client (not from the pool's shelf).
    package var clientLeases: Int { counter.leases.load(ordering: .relaxed) }

    /// For tests: the server waits this many milliseconds (`pg_sleep`, sent ahead) before each
    /// snapshot's `BEGIN`, as a backend slow to be scheduled would; 0, none.
    package let snapshotLagMilliseconds = Atomic<Int>(0)

    /// A fetch ordered by a date is read in two halves at once (``idsAndPosition(halves:)``)
    /// when its statement returned at least this many ids the last time; negative, never.
    /// Tests set 0 (every such fetch split).
    package let splitReadsFrom = Atomic<Int>(20_000)
    /// How many fetches were read in two halves on two connections.
    package let readsInHalves = Atomic<Int>(0)
    /// For tests: the server waits this many milliseconds (`pg_sleep`) before it reads a
    /// fetch's second half; 0, none.
    package let secondHalfLagMilliseconds = Atomic<Int>(0)
    /// How many ids each fetch's statement (by its text) returned the last time.
    let lastCounts = Mutex<[String: Int]>([:])
    /// ``middleKey(of:in:)``'s answers by `table.column`, and when they were read.
    let middleKeys = Mutex<[String: (key: StoreValue?, read: ContinuousClock.Instant)]>([:])
    /// The pool's `pool_max` (0 when the URL's settings are wrong).
    let poolMaximum: Int

    /// The advisory lock every write transaction holds: "PHKW".
    static let writeLock: Int64 = ChangeJournal.postgresWriteLock
    /// The `NOTIFY` channel commits are announced on.
    static let channel = ChangeJournal.postgresChannel

    init(url: URL) {
        self.url = url
        let counter = self.counter
        let settings = Result { () throws(StoreError) in try PostgresConnectionSettings(url: url) }
        poolMaximum = (try? settings.get())?.poolMaximum ?? 0
        pool = settings.map { PostgresSessionPool(settings: $0, counter: counter) }
        listener = PostgresChangeListener(url: url, channel: Self.channel)
    }

    deinit {
        shutDown()
    }

    /// Closes the pool's connections and the `LISTEN` one; every later use fails as
    /// unavailable. `photos serve` calls it once its requests are done.
    package func shutDown() {
        if case .success(let pool) = pool { pool.close() }
        listener.stop()
    }

    package var dialect: SQLDialect { .postgres }

    /// Runs `body` on a session no other thread is using; a session that failed is closed.
    ///
    /// A connection the server ended while it waited in the pool fails `body`'s first statement
    /// before it is written, or, in a race, after: when nothing was written, or `body` only
    /// reads (`readOnly`) and its connection closed (not a stalled answer), `body` runs once
    /// more on another connection instead of reporting the database unavailable, up to
    /// ``sessionTries`` times in all (postgres-nio's client may hand out again a connection
    /// whose closing it hasn't seen yet). While the database is away, each try fails as fast as
    /// the first.
    func withSession<T>(readOnly: Bool = false, _ body: (PostgresSession) throws -> T) throws -> T {
        var tries = 0
        while true {
            tries += 1
            let session = try takeSession()
            do {
                defer { session.giveBack() }
                return try body(session)
            } catch let error as StoreError
                where tries < Self.sessionTries && error.code == .unavailable
                && (session.wroteNothing || (readOnly && session.lostItsConnection))
            {
                continue
            }
        }
    }

    /// How many sessions ``withSession(readOnly:_:)`` tries before reporting the database unavailable.
    static let sessionTries = 3

    /// A connection of the pool's (``PostgresSessionPool/take(within:)``).
    func takeSession(within limit: TimeInterval? = nil) throws -> PostgresSession {
        try pool.get().take(within: limit)
    }

    package func read<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try withSession(readOnly: true) { session in
            try session.transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") { try body(session) }
        }
    }

    package func write<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try withSession { session in
            try session.transaction(begin: "BEGIN") {
                try session.execute("SELECT pg_advisory_xact_lock(\(Self.writeLock))")
                return try body(session)
            }
        }
    }

    /// A change block's transaction: its first statement (``ChangeJournal/open(_:date:)``)
    /// takes the write lock with the change's id, one round trip for both.
    package func writeChange<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try withSession { session in
            try session.transaction(begin: "BEGIN") { try body(session) }
        }
    }

    package func idsAndPosition(_ statement: StoreSQL) throws -> (ids: [Int64], position: Int64) {
        try withSession(readOnly: true) { session in try session.idsAndPosition(statement) }
    }

    package func query<Record>(_ statement: StoreSQL, _ decode: (any ColumnReading) -> Record) throws -> [Record] {
        try withSession { session in try session.rows(statement, decode) }
    }

    package func beginSnapshot() throws -> any SnapshotTransaction {
        let session = try takeSession()
        let lag = snapshotLagMilliseconds.load(ordering: .relaxed)
        if lag > 0 { session.send("SELECT pg_sleep(\(Double(lag) / 1000))" as StoreSQL) }
        // Answered with the snapshot's first read (a failure is thrown there).
        session.send("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" as StoreSQL)
        return PostgresSnapshot(session: session)
    }

    /// Commits announce themselves: the journal's close sends `NOTIFY` in the transaction, and
    /// so does an access change (``AccessTokenStore``'s version bump, with the payload
    /// `ChangeJournal.postgresAccessPayload`).
    package var announcesCommits: Bool { true }

    package func postChange(position: Int64) {
        _ = try? withSession { session in try session.execute("SELECT pg_notify(\(Self.channel), \(String(position)))") }
    }

    package func watchChanges(
        queue: DispatchQueue, fallback: DispatchTimeInterval, topic: ChangeTopic, handler: @escaping @Sendable () -> Void
    ) -> any ChangeWatch {
        listener.watch(queue: queue, fallback: fallback, topic: topic, handler: handler)
    }

    /// A session-level advisory lock on `(kind, id)` (the two-key space, apart from
    /// ``writeLock``'s), held on a session of the claim's own: the server drops it when the
    /// session ends, so an instance killed mid-job frees its work at once.
    package func claimJob(_ key: JobKey, waiting: Bool) throws -> (any JobClaim)? {
        let session = try takeSession()
        let objectID = Int32(truncatingIfNeeded: key.id ^ (key.id >> 32))
        do {
            if waiting {
                try session.execute("SELECT pg_advisory_lock(\(key.kind)::int4, \(objectID)::int4)")
            } else if try session.bool("SELECT pg_try_advisory_lock(\(key.kind)::int4, \(objectID)::int4)") != true {
                session.giveBack()
                return nil
            }
        } catch {
            session.close()
            throw error
        }
        return PostgresJobClaim(session: session, kind: key.kind, objectID: objectID) { session in session.giveBack() }
    }
}

/// A held ``PostgresEngine/claimJob(_:waiting:)`` lock: unlocked (and its session given back)
/// once, by ``release()`` or when released.
final class PostgresJobClaim: JobClaim {
    private let session: Mutex<PostgresSession?>
    private let kind: Int32
    private let objectID: Int32
    private let end: @Sendable (PostgresSession) -> Void

    init(session: PostgresSession, kind: Int32, objectID: Int32, end: @escaping @Sendable (PostgresSession) -> Void) {
        self.session = Mutex(session)
        self.kind = kind
        self.objectID = objectID
        self.end = end
    }

    deinit { release() }

    func release() {
        guard let session = session.withLock({ held in defer { held = nil }; return held }) else { return }
        if (try? session.bool("SELECT pg_advisory_unlock(\(kind)::int4, \(objectID)::int4)")) == true {
            end(session)
        } else {
            session.close()
        }
    }
}

extension PostgresSession {
    /// Runs `body` between `begin` and `COMMIT`; `ROLLBACK` when it throws (a session whose
    /// rollback fails is closed, never reused).
    /// `begin` is sent without waiting for its answer: the body's first statement waits for
    /// both (one blocking wait fewer per transaction; its failure is thrown there).
    func transaction<T>(begin: StoreSQL, _ body: () throws -> T) throws -> T {
        send(begin)
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if (try? execute("ROLLBACK")) == nil { close() }
            throw error
        }
    }
}

/// A `REPEATABLE READ` transaction held open on its own session, committed (and the session
/// given back) when released.
final class PostgresSnapshot: SnapshotTransaction {
    private let session: PostgresSession

    init(session: PostgresSession) {
        self.session = session
    }

    /// Commits without waiting for the answer (the snapshot only read): the session goes back
    /// to the pool once it is answered, and the observers' queue goes on at once.
    deinit {
        session.finishThenGiveBack("COMMIT")
    }

    func read<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try body(session)
    }
}

/// A count of statements sent, shared by an engine's sessions.
package final class StatementCounter: Sendable {
    let count = Atomic<Int>(0)
    /// Statements whose answer the caller waited for.
    let waits = Atomic<Int>(0)
    /// Connections leased from the pool's client.
    let leases = Atomic<Int>(0)
}
