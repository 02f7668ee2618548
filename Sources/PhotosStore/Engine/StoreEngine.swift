package import Foundation

/// The database engine under a library: what SQLite (``SQLiteEngine``) and PostgreSQL (the
/// `PhotosStorePostgres` target) each do their own way. ``LibraryDatabase`` runs the store's
/// logic, written once against ``StoreConnection``, on whichever engine it was opened with.
///
/// Every method may be called from any thread; an engine orders what needs ordering itself.
package protocol StoreEngine: Sendable {
    /// The engine's SQL spelling.
    var dialect: SQLDialect { get }

    /// Runs `body` in a read transaction: one consistent state of the library.
    func read<T>(_ body: (any StoreConnection) throws -> T) throws -> T

    /// Runs `body` in one write transaction: all of it commits, or none of it. Write
    /// transactions are ordered (every process and instance): a change's position is taken
    /// inside one, so positions commit in order.
    func write<T>(_ body: (any StoreConnection) throws -> T) throws -> T

    /// ``write(_:)`` for a change block, whose first statement is ``ChangeJournal/open(_:date:)``:
    /// an engine that orders writers with a lock statement of its own may leave the lock to
    /// that statement (PostgreSQL: one round trip less).
    func writeChange<T>(_ body: (any StoreConnection) throws -> T) throws -> T

    /// The ids `statement` selects, in order, and the library's position they reflect: one
    /// state of the library, as a fetch result keeps it. A read transaction of two
    /// statements by default; PostgreSQL reads both in one statement outside a transaction
    /// (one round trip instead of four).
    func idsAndPosition(_ statement: StoreSQL) throws -> (ids: [Int64], position: Int64)

    /// ``idsAndPosition(_:)`` of a fetch the engine may read in parts: `splittable` says by
    /// which key and how. PostgreSQL reads a fetch that returned many ids the last time as two
    /// key ranges at once, on two connections, each half with the library's position (read
    /// again whole when they differ); other engines read `statement` (SQLite: one connection
    /// walks its covering index as fast as two would).
    func idsAndPosition(_ statement: StoreSQL, splittable: SplittableRead?) throws -> (ids: [Int64], position: Int64)

    /// The matches `statement` selects (an id, a rank and a creation date, ``RankedMatch``),
    /// in no order, and the library's position they reflect: a search the store sorts itself.
    /// A read transaction of two statements by default; PostgreSQL reads the matches as three
    /// arrays with the position, in one statement.
    func rankedMatchesAndPosition(_ statement: StoreSQL) throws -> (matches: [RankedMatch], position: Int64)

    /// ``rankedMatchesAndPosition(_:)`` of a search the engine may read in parts: `parts`
    /// select the same matches between them. PostgreSQL reads the halves of its documents at
    /// once, on two connections, each with the library's position (read again whole when they
    /// differ); other engines read `statement`.
    func rankedMatchesAndPosition(_ statement: StoreSQL, parts: [StoreSQL]?) throws -> (matches: [RankedMatch], position: Int64)

    /// Runs one query outside any transaction: a single statement is consistent on its own.
    /// The reads a fetch result makes per object and per batch come here, so the engine can
    /// make them cheaper than a transaction (SQLite: plain connections and prepared
    /// statements, no dispatch).
    func query<Record>(_ statement: StoreSQL, _ decode: (any ColumnReading) -> Record) throws -> [Record]

    /// Begins a read transaction that stays open until the returned value is released: the
    /// library frozen at one position, for change details.
    func beginSnapshot() throws -> any SnapshotTransaction

    /// Tells every process and instance watching the library that changes up to `position`
    /// committed.
    func postChange(position: Int64)

    /// Whether a change closed in the journal, and an access change, announce their commit
    /// themselves, inside their transaction (PostgreSQL's `NOTIFY`, sent at commit), so
    /// ``postChange(position:)`` is not needed after them.
    var announcesCommits: Bool { get }

    /// Calls `handler` on `queue` after another process or instance (or this one) commits a
    /// change of `topic`, and every `fallback` besides (`.never`: only on wake-ups). A wake-up
    /// is only a hint: the handler reads the history (or the access version) to learn what
    /// changed. An engine may wake a watcher for the other topic too (SQLite's signal file
    /// wakes every watcher); PostgreSQL's notifications name their topic, so a change block
    /// doesn't cost every access watcher a read.
    func watchChanges(
        queue: DispatchQueue, fallback: DispatchTimeInterval, topic: ChangeTopic, handler: @escaping @Sendable () -> Void
    ) -> any ChangeWatch

    /// Claims shared work for this process until the claim is released or the process is
    /// gone (see ``JobClaim``). Nil when another process or instance holds it and `waiting`
    /// is false; with `waiting`, blocks until the holder lets go.
    func claimJob(_ key: JobKey, waiting: Bool) throws -> (any JobClaim)?

    /// Closes the engine's connections to a database server once its owner is done with the
    /// library (`photos serve` at its end, after the last request); later uses fail as
    /// unavailable. SQLite's connections close with the library: nothing to do.
    func shutDown()
}

extension StoreEngine {
    package func shutDown() {}

    package func idsAndPosition(_ statement: StoreSQL) throws -> (ids: [Int64], position: Int64) {
        try read { db in (try db.int64Column(statement), try ChangeJournal.position(db)) }
    }

    package func idsAndPosition(_ statement: StoreSQL, splittable: SplittableRead?) throws -> (ids: [Int64], position: Int64) {
        try idsAndPosition(statement)
    }

    package func rankedMatchesAndPosition(_ statement: StoreSQL) throws -> (matches: [RankedMatch], position: Int64) {
        try read { db in (try db.rows(statement, RankedMatch.init), try ChangeJournal.position(db)) }
    }

    package func rankedMatchesAndPosition(_ statement: StoreSQL, parts: [StoreSQL]?) throws -> (matches: [RankedMatch], position: Int64) {
        try rankedMatchesAndPosition(statement)
    }

    /// SQLite's write lock is the transaction's own: nothing to fold.
    package func writeChange<T>(_ body: (any StoreConnection) throws -> T) throws -> T {
        try write(body)
    }

    /// After a change closed in the journal (``ChangeJournal/close(_:id:)``) or an access
    /// change has committed: tells the other processes and instances, unless the commit told
    /// them itself (``announcesCommits``; `position` is then not read).
    func postCommit(position: @autoclosure () -> Int64) {
        if !announcesCommits { postChange(position: position()) }
    }
}

/// How a fetch may be read in two parts (``StoreEngine/idsAndPosition(_:splittable:)``): by
/// the values of `column` of `table`, its first sort key; `halves` gives the two halves split
/// at a value of it (``AssetQuery/halves(splitAt:)``).
package struct SplittableRead: Sendable {
    package let table: String
    package let column: String
    package let halves: @Sendable (StoreValue) -> [[StoreSQL]]

    package init(table: String, column: String, halves: @escaping @Sendable (StoreValue) -> [[StoreSQL]]) {
        self.table = table
        self.column = column
        self.halves = halves
    }
}

/// What a wake-up of ``StoreEngine/watchChanges(queue:fallback:topic:handler:)`` is about.
package enum ChangeTopic: Sendable {
    /// A change block committed: the journal moved.
    case journal
    /// Tokens, allow-lists, people, shares or links changed (`libraryInfo.accessVersion`).
    case access
}

/// A read transaction held open: every read sees the same state of the library. The
/// transaction ends when the value is released.
package protocol SnapshotTransaction: AnyObject, Sendable {
    func read<T>(_ body: (any StoreConnection) throws -> T) throws -> T
}

/// A watch on a library's commits; it stops when cancelled or released.
package protocol ChangeWatch: AnyObject, Sendable {
    func cancel()
}
