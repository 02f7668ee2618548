import Foundation
import GRDB
import PhotosLocking
import Synchronization

/// A library's SQLite database: a `DatabasePool` in WAL mode for transactions (reads run
/// concurrently and never wait for writers; writes are `IMMEDIATE` and wait up to
/// ``LibraryDatabase/busyTimeout`` for another process's), plain connections for single
/// queries (``DirectReader``), kept connections for snapshots (``SnapshotConnections``), and a
/// signal file for wake-ups between processes (``ChangeSignal``).
final class SQLiteEngine: StoreEngine {
    let pool: DatabasePool
    /// Plain read-only connections for single queries.
    let direct: DirectReader
    /// The connections snapshots hold their transaction on.
    let snapshotConnections: SnapshotConnections
    /// Wakes other processes after each commit.
    let changeSignal: ChangeSignal
    /// Shared work's locks: `database/jobs.lock`.
    let jobClaims: FileJobClaims
    /// How many matches a search found the last time for it to be read in halves
    /// (``rankedMatchesAndPosition(_:parts:)``); -1 never. A search not run yet is.
    let splitSearchesFrom = Atomic<Int>(20_000)
    /// The last number of matches of each search's statement (256 at most).
    let searchCounts = Mutex<[String: Int]>([:])
    /// How many searches were read in halves (for tests).
    let searchesInHalves = Atomic<Int>(0)
    /// For tests: when set, a search's halves are read one after the other, this called
    /// between them (a change committed there).
    let betweenSearchHalves = Mutex<(@Sendable () -> Void)?>(nil)

    /// `connectionPath` is the database file's path, or an SQLite URI for a read-only open;
    /// `memoryMap` is every connection's `mmap_size`.
    init(pool: DatabasePool, layout: LibraryLayout, connectionPath: String, memoryMap: Int) {
        self.pool = pool
        direct = DirectReader(path: connectionPath, memoryMap: memoryMap)
        snapshotConnections = SnapshotConnections(path: connectionPath, memoryMap: memoryMap)
        changeSignal = ChangeSignal(layout: layout)
        jobClaims = FileJobClaims(file: layout.databaseFolder.appendingPathComponent("jobs.lock"))
    }

    var dialect: SQLDialect { .sqlite }

    func read<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            let result = try pool.read { db in Unchecked(try body(db)) }
            return result.value
        }
    }

    func write<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try withoutActuallyEscaping(body) { body in
            let result = try pool.write { db in Unchecked(try body(db)) }
            return result.value
        }
    }

    func query<Record>(_ statement: StoreSQL, _ decode: (any ColumnReading) -> Record) throws -> [Record] {
        let (sql, binds) = statement.rendered(for: .sqlite)
        var rows: [Record] = []
        try direct.withConnection { connection throws(StoreError) in
            try connection.query(sql, bind: { DirectBind.values($0, binds) }, row: { rows.append(decode($0)) })
        }
        return rows
    }

    /// A search's matches read in two halves at once (``AssetQuery/searchInRankOrderInHalves``),
    /// each a read transaction of its own with the library's position, as PostgreSQL reads its
    /// halves (`PostgresEngine+Halves`): read again whole when a change committed between them,
    /// and whole when the search found fewer than ``splitSearchesFrom`` matches the last time.
    /// Neither half holds a reader while waiting for the other's (`concurrentPerform` runs
    /// one on this thread), so searches at once never wait for each other's readers.
    ///
    /// "every 10th" (97,999 matches of 1,000,000): FTS5's lists, the rank and the assets'
    /// lookups are per match, and halve.
    func rankedMatchesAndPosition(_ statement: StoreSQL, parts: [StoreSQL]?) throws -> (matches: [RankedMatch], position: Int64) {
        let shape = statement.key(for: .sqlite)  // Its words too: another search's count says nothing of this one's.
        let threshold = splitSearchesFrom.load(ordering: .relaxed)
        let known = searchCounts.withLock { $0[shape] }
        let answer: (matches: [RankedMatch], position: Int64)
        if let parts, parts.count == 2, threshold >= 0, known.map({ $0 >= threshold }) ?? true {
            let first: (matches: [RankedMatch], position: Int64), second: (matches: [RankedMatch], position: Int64)
            if let between = betweenSearchHalves.withLock({ $0 }) {
                first = try rankedMatchesAndPosition(parts[0])
                between()
                second = try rankedMatchesAndPosition(parts[1])
            } else {
                let halves = Mutex<[Int: Result<(matches: [RankedMatch], position: Int64), any Error>]>([:])
                DispatchQueue.concurrentPerform(iterations: 2) { index in
                    let read = Result { try self.rankedMatchesAndPosition(parts[index]) }
                    halves.withLock { $0[index] = read }
                }
                (first, second) = try halves.withLock { (try $0[0]!.get(), try $0[1]!.get()) }
            }
            if first.position == second.position {
                answer = (first.matches + second.matches, first.position)
                searchesInHalves.add(1, ordering: .relaxed)
            } else {
                answer = try rankedMatchesAndPosition(statement)  // A change committed between the two reads.
            }
        } else {
            answer = try rankedMatchesAndPosition(statement)
        }
        searchCounts.withLock { counts in
            if counts.count >= 256, counts[shape] == nil { counts.removeAll() }
            counts[shape] = answer.matches.count
        }
        return answer
    }

    func beginSnapshot() throws -> any SnapshotTransaction {
        try SQLiteSnapshot(connections: snapshotConnections)
    }

    func postChange(position: Int64) {
        changeSignal.post(position: position)
    }

    var announcesCommits: Bool { false }

    /// Every watcher wakes at every signal, whatever its topic: a read costs microseconds here.
    func watchChanges(
        queue: DispatchQueue, fallback: DispatchTimeInterval, topic: ChangeTopic, handler: @escaping @Sendable () -> Void
    ) -> any ChangeWatch {
        ChangeSignalWatcher(changeSignal, queue: queue, fallback: fallback, handler: handler)
    }

    func claimJob(_ key: JobKey, waiting: Bool) throws -> (any JobClaim)? {
        try jobClaims.claim(key, waiting: waiting)
    }
}

/// A value carried out of a GRDB closure whose result must be `Sendable`: it never leaves
/// the calling thread (GRDB runs the closure synchronously and returns its result).
private struct Unchecked<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A read transaction on one of the kept snapshot connections, ended (and the connection
/// given back) when the snapshot is released.
final class SQLiteSnapshot: SnapshotTransaction, @unchecked Sendable {
    // @unchecked Sendable: `connection` serializes its reads; the rest is immutable.
    private let connection: DatabaseQueue
    private let connections: SnapshotConnections

    init(connections: SnapshotConnections) throws {
        let connection = try connections.take()
        try connection.inDatabase { db in try db.beginTransaction(.deferred) }
        self.connection = connection
        self.connections = connections
    }

    deinit {
        let ended = (try? connection.inDatabase { db in try db.commit() }) != nil
        if ended { connections.giveBack(connection) }
    }

    func read<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try connection.inDatabase(body)
    }
}
