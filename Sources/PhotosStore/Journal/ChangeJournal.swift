package import Foundation

/// Reads and writes of the change journal, on any connection (the pool, a snapshot).
enum ChangeJournal {
    /// The id of the newest change ever committed (0 for none): the library's position.
    static func position(_ db: any StoreConnection) throws -> Int64 {
        try db.int64(db.dialect.positionQuery) ?? 0
    }

    /// The newest change removed from the history: positions before it can't be replayed.
    static func floor(_ db: any StoreConnection) throws -> Int64 {
        Int64(try db.text("SELECT value FROM libraryInfo WHERE key = 'historyFloor'") ?? "0") ?? 0
    }

    /// The objects changed after `position` up to `end`, folded per object.
    static func objectChanges(
        _ db: any StoreConnection, after position: Int64, upTo end: Int64, entities: [Int]? = nil
    ) throws -> [ObjectChange] {
        var sql = """
            SELECT entity, objectID, uuid, wasVisible, isVisible, flags FROM changedObject
            WHERE changeID > ? AND changeID <= ?
            """
        let arguments: SQLArguments = [position, end]
        if let entities {
            sql += " AND entity IN (\(entities.map(String.init).joined(separator: ",")))"
        }
        sql += " ORDER BY changeID"
        let rows = try db.rows(sql, arguments) { row in
            ObjectChange(
                entity: row.int(0), objectID: row.int64(1), uuid: row.text(2), wasVisible: row.bool(3),
                isVisible: row.bool(4), flags: row.int(5))
        }
        var folder = ObjectChangeFolder()
        for row in rows { folder.add(row) }
        return folder.changes
    }

    /// Opens a change: the triggers record into it until ``close(_:)``.
    static func open(_ db: any StoreConnection, date: Date) throws -> Int64 {
        if let sql = db.dialect.openChangeAndJournalCursor {
            guard let id = try db.int64(sql, [date.timeIntervalSince1970, ProcessInfo.processInfo.processIdentifier]) else {
                throw StoreError(.database, "The change journal gave no id for a new change")
            }
            return id
        }
        let id = try db.insert(
            db.dialect.openChange,
            [date.timeIntervalSince1970, ProcessInfo.processInfo.processIdentifier])
        try db.execute(db.dialect.openJournalCursor, [id])
        return id
    }

    /// Closes a change; drops its row when it touched nothing (the position still advances).
    /// On PostgreSQL this also announces the commit (``StoreEngine/announcesJournalCommits``).
    static func close(_ db: any StoreConnection, id: Int64) throws {
        if let sql = db.dialect.closeJournalCursorAndEmptyChange {
            _ = try db.rows(sql, [id, id, id]) { _ in () }
            return
        }
        try db.execute(db.dialect.closeJournalCursor)
        try db.execute(
            "DELETE FROM change WHERE id = ? AND NOT EXISTS (SELECT 1 FROM changedObject WHERE changeID = ?)", [id, id])
    }

    /// Keeps the newest `limit` changes, raising the floor over the ones removed. Removes in
    /// steps of at least 64 changes, so most commits only read the floor. `position` is the
    /// change just closed (the library's position inside its transaction), else read.
    static func prune(_ db: any StoreConnection, keeping limit: Int, position known: Int64? = nil) throws {
        let cutoff = try (known ?? position(db)) - Int64(max(0, limit))
        let floor = try floor(db)
        guard cutoff > floor, cutoff - floor >= min(64, Int64(max(1, limit))) else { return }
        try db.execute("DELETE FROM changedObject WHERE changeID <= ?", [cutoff])
        try db.execute("DELETE FROM change WHERE id <= ?", [cutoff])
        try db.execute("UPDATE libraryInfo SET value = ? WHERE key = 'historyFloor'", [String(cutoff)])
    }
}

/// One committed change, for persistent history.
package struct ChangeRecord: Sendable, Hashable {
    package var id: Int64
    package var date: Date
}

extension LibraryDatabase {
    /// The library's position: the id of the newest committed change.
    package func currentPosition() throws(StoreError) -> Int64 {
        try read { db in try ChangeJournal.position(db) }
    }

    /// Calls `handler` on `queue` after a commit by any process or instance (a hint: the
    /// history says what changed), and every `fallback` besides (`.never`: only on wake-ups).
    package func watchChanges(
        queue: DispatchQueue, fallback: DispatchTimeInterval = ChangeSignalWatcher.fallbackInterval,
        handler: @escaping @Sendable () -> Void
    ) -> any ChangeWatch {
        engine.watchChanges(queue: queue, fallback: fallback, handler: handler)
    }

    /// A consistent, unchanging view of the library as it is now, for change details.
    package func makeSnapshot() throws(StoreError) -> StoreSnapshot {
        try StoreError.mapping("Can't take a snapshot of the library") { try StoreSnapshot(transaction: engine.beginSnapshot()) }
    }

    /// The changes after `position`, oldest first, and the history floor (changes at or
    /// before it are gone).
    package func changes(after position: Int64) throws(StoreError) -> (floor: Int64, changes: [ChangeRecord]) {
        try read { db in
            let floor = try ChangeJournal.floor(db)
            let changes = try db.rows("SELECT id, date FROM change WHERE id > ? ORDER BY id", [position]) {
                ChangeRecord(id: $0.int64(0), date: Date(timeIntervalSince1970: $0.double(1)))
            }
            return (floor, changes)
        }
    }

    /// The objects one change touched, or `nil` when the change is no longer in the history.
    package func objectChanges(inChange id: Int64) throws(StoreError) -> [ObjectChange]? {
        try read { db in
            guard try ChangeJournal.floor(db) < id else { return nil }
            return try ChangeJournal.objectChanges(db, after: id - 1, upTo: id)
        }
    }
}
