package import Foundation

/// Reads and writes of the change journal, on any connection (the pool, a snapshot).
package enum ChangeJournal {
    /// The `NOTIFY` channel PostgreSQL announces commits on (``close(_:id:)``).
    package static let postgresChannel = "photokit_changes"
    /// The payload of an access change's notification on ``postgresChannel`` (a change
    /// block's is its position, a number): PostgreSQL wakes only the watchers of its topic.
    package static let postgresAccessPayload = "access"

    /// The PostgreSQL advisory lock every write transaction holds ("PHKW"): writes of every
    /// instance are ordered by it. A change block's takes it in ``open(_:date:)``.
    package static let postgresWriteLock: Int64 = 0x5048_4B57

    /// A change opened: its id, the library owner's row id (read with it), which what the
    /// change creates belongs to when no person acts, and on PostgreSQL the history's floor
    /// (read with it for ``prune(_:keeping:position:floor:)``; the write lock keeps it until
    /// the commit).
    struct Opened {
        let id: Int64
        let libraryOwner: Int64?
        var floor: Int64?
    }

    /// A change being opened (``open(_:date:)``), answered when first asked: on PostgreSQL its
    /// statement is sent ahead, and its answer comes in with the change block's first read,
    /// one round trip for both.
    struct Opening {
        fileprivate let answer: RowAhead<Opened>

        /// The change opened; waits for it if nothing since has been answered.
        func opened() throws -> Opened {
            guard let opened = try answer.get() else { throw StoreError(.database, "The change journal gave no id for a new change") }
            return opened
        }
    }

    /// The id of the newest change ever committed (0 for none): the library's position, as
    /// the transaction sees it. SQLite reads `change`'s `AUTOINCREMENT` counter; PostgreSQL's
    /// sequences ignore transactions, so it keeps the position in a row that commits with the
    /// change.
    static func position(_ db: any StoreConnection) throws -> Int64 {
        try db.int64(positionQuery) ?? 0
    }

    /// The statement that reads the position.
    static let positionQuery: StoreSQL = .either(
        sqlite: "SELECT seq FROM sqlite_sequence WHERE name = 'change'", postgres: "SELECT position FROM libraryPosition")

    /// The position and the history's floor, in one statement (a snapshot reads both first),
    /// sent ahead (``StoreConnection/rowAhead(_:_:)``): on PostgreSQL its answer is waited for
    /// when read.
    static func positionAndFloorAhead(_ db: any StoreConnection) throws -> RowAhead<(position: Int64, floor: Int64)> {
        try db.rowAhead("SELECT \(positionExpression), (SELECT value FROM libraryInfo WHERE key = 'historyFloor')") { row in
            (row.optionalInt64(0) ?? 0, Int64(row.optionalText(1) ?? "0") ?? 0)
        }
    }

    /// The library's position as a subquery.
    private static let positionExpression: StoreSQL = .either(
        sqlite: "(SELECT seq FROM sqlite_sequence WHERE name = 'change')", postgres: "(SELECT position FROM libraryPosition)")

    /// The newest change removed from the history: positions before it can't be replayed.
    static func floor(_ db: any StoreConnection) throws -> Int64 {
        Int64(try db.text("SELECT value FROM libraryInfo WHERE key = 'historyFloor'") ?? "0") ?? 0
    }

    /// The objects changed after `position` up to `end`, folded per object.
    static func objectChanges(
        _ db: any StoreConnection, after position: Int64, upTo end: Int64, entities: [Int]? = nil
    ) throws -> [ObjectChange] {
        folded(try db.rows(changedObjects(after: position, upTo: end, entities: entities), decodeChangedObject))
    }

    /// ``objectChanges(_:after:upTo:entities:)`` sent ahead (``StoreConnection/rowsAhead(_:_:)``),
    /// up to what the transaction sees (a snapshot's position).
    static func objectChangesAhead(_ db: any StoreConnection, after position: Int64) throws -> RowAhead<[ObjectChange]> {
        let rows = try db.rowsAhead(changedObjects(after: position, upTo: nil, entities: nil), decodeChangedObject)
        return RowAhead { folded(try rows.get() ?? []) }
    }

    static func changedObjects(after position: Int64, upTo end: Int64?, entities: [Int]?) -> StoreSQL {
        let kinds: StoreSQL = entities.map { " AND entity IN (\(unescaped: $0.map(String.init).joined(separator: ",")))" } ?? ""
        // Bounded on both sides, so a prepared statement's plan reads the index for any bounds.
        let upTo: StoreSQL = " AND changeID <= \(end.map { "\($0)" as StoreSQL } ?? positionExpression)"
        return """
            SELECT \(ChangedObjectColumn.selection) FROM changedObject
            WHERE changeID > \(position)\(upTo)\(kinds) ORDER BY changeID
            """
    }

    private static func decodeChangedObject(_ row: any ColumnReading) -> ObjectChange {
        typealias Column = ChangedObjectColumn
        return ObjectChange(
            entity: row[Column.entity], objectID: row[Column.objectID], uuid: row[Column.uuid],
            wasVisible: row[Column.wasVisible], isVisible: row[Column.isVisible], flags: row[Column.flags],
            ownerID: row[Column.ownerID])
    }

    private static func folded(_ rows: [ObjectChange]) -> [ObjectChange] {
        var folder = ObjectChangeFolder()
        for row in rows { folder.add(row) }
        return folder.changes
    }

    /// Opens a change: the triggers record into it until ``close(_:id:)``. As the first
    /// statement of ``StoreEngine/writeChange(_:)`` on PostgreSQL, it also takes the write lock;
    /// it is sent ahead there (the statements after it run once it holds the lock).
    static func open(_ db: any StoreConnection, date: Date) throws -> Opening {
        let (date, process) = (date.timeIntervalSince1970, ProcessInfo.processInfo.processIdentifier)
        let owner: StoreSQL = "(SELECT value FROM libraryInfo WHERE key = 'ownerPersonID')"
        switch db.dialect {
        case .sqlite:
            let id = try db.insert("INSERT INTO change (date, processID) VALUES (\(date), \(process))")
            try db.execute("INSERT INTO temp.journalCursor (changeID) VALUES (\(id))")
            let opened = Opened(id: id, libraryOwner: try db.text("SELECT \(owner)").flatMap { Int64($0) })
            return Opening(answer: RowAhead { opened })
        case .postgres:
            // One statement: the write lock (taken first: the position's update waits for
            // it), the id (the position row advanced by one: its row lock orders the commits
            // of every instance, so positions commit in order), the transaction-local setting
            // the triggers read, the library's owner and the history's floor.
            let answer = try db.rowAhead(
                """
                WITH locked AS MATERIALIZED (SELECT pg_advisory_xact_lock(\(postgresWriteLock)) IS NOT NULL AS done),
                next AS (UPDATE libraryPosition SET position = position + 1 WHERE (SELECT done FROM locked) RETURNING position),
                opened AS (INSERT INTO change (id, date, processID) SELECT next.position, \(date), \(process) FROM next RETURNING id)
                SELECT id, set_config('photokit.change', id::text, true), \(owner),
                    (SELECT value FROM libraryInfo WHERE key = 'historyFloor') FROM opened
                """
            ) { row in
                Opened(id: row.int64(0), libraryOwner: row.optionalText(2).flatMap { Int64($0) }, floor: Int64(row.optionalText(3) ?? "0") ?? 0)
            }
            return Opening(answer: answer)
        }
    }

    /// Records a row as updated in change `id`, for a write the triggers don't see (the words
    /// read in a photo, kept in a table of their own; an album's sharing), with `flags` added
    /// to what the change already holds for it. An asset is visible unless trashed; a
    /// collection, always.
    static func recordUpdate(_ db: any StoreConnection, change id: Int64, of object: JournaledObject, flags: Int) throws {
        let (entity, table, objectID, visible): (StoreSQL, StoreSQL, Int64, StoreSQL) =
            switch object {
            case .asset(let assetID): ("\(JournalEntity.asset)", "asset", assetID, "CASE WHEN trashedDate IS NULL THEN 1 ELSE 0 END")
            case .collection(let collectionID): ("\(JournalEntity.assetCollection)", "collection", collectionID, "1")
            }
        try db.execute(
            """
            INSERT INTO changedObject (changeID, entity, objectID, uuid, wasVisible, isVisible, flags, ownerID) \
            SELECT \(id), \(entity), id, uuid, \(visible), \(visible), \(flags), ownerID FROM \(table) WHERE id = \(objectID) \
            ON CONFLICT (changeID, entity, objectID) DO UPDATE SET flags = changedObject.flags | excluded.flags
            """)
    }

    /// Closes a change; drops its row when it touched nothing (the position still advances).
    /// On PostgreSQL what was recorded is told by the transaction's mark (`photokit.recorded`,
    /// set by a trigger on `changedObject`), not by looking in `changedObject`, whose prepared
    /// plan may be a scan of the whole journal (`PostgresJournalSchema`'s v12).
    /// On PostgreSQL this also announces the commit (``StoreEngine/announcesCommits``):
    /// `NOTIFY` on ``postgresChannel`` with the new position, which the server sends when (and
    /// only if) the transaction commits. Sent ahead there: nothing reads its answer, and the
    /// `COMMIT` after it carries its failure.
    static func close(_ db: any StoreConnection, id: Int64) throws {
        switch db.dialect {
        case .sqlite:
            try db.execute("DELETE FROM temp.journalCursor")
            try db.execute("DELETE FROM change WHERE id = \(id) AND NOT EXISTS (SELECT 1 FROM changedObject WHERE changeID = \(id))")
        case .postgres:
            try db.executeAhead(
                """
                WITH emptied AS (DELETE FROM change WHERE id = \(id) AND current_setting('photokit.recorded', true) IS DISTINCT FROM '1')
                SELECT set_config('photokit.change', '', true), pg_notify('\(unescaped: postgresChannel)', \(id)::text)
                """)
        }
    }

    /// Closes the change `opening` opened and keeps the newest `limit` changes
    /// (``close(_:id:)``, then ``prune(_:keeping:position:floor:)``). On PostgreSQL both are one
    /// statement sent ahead, `photokit_close_change` (`PostgresJournalSchema`'s v13): the
    /// server knows the change's id and the history's floor, so a change block that reads
    /// nothing (a batch of favorites) waits for no answer before its `COMMIT`, and the id is
    /// read from the opening's answer after it.
    static func close(_ db: any StoreConnection, opening: Opening, keeping limit: Int) throws {
        switch db.dialect {
        case .sqlite:
            let opened = try opening.opened()
            try close(db, id: opened.id)
            try prune(db, keeping: limit, position: opened.id, floor: opened.floor)
        case .postgres:
            try db.executeAhead("SELECT photokit_close_change(\(Int64(max(0, limit))), \(postgresChannel))")
        }
    }

    /// Keeps the newest `limit` changes, raising the floor over the ones removed. Removes in
    /// steps of at least 64 changes, so most commits only read the floor. `position` is the
    /// change just closed (the library's position inside its transaction), else read.
    static func prune(_ db: any StoreConnection, keeping limit: Int, position known: Int64? = nil, floor knownFloor: Int64? = nil) throws {
        let cutoff = try (known ?? position(db)) - Int64(max(0, limit))
        let floor = try knownFloor ?? floor(db)
        guard cutoff > floor, cutoff - floor >= min(64, Int64(max(1, limit))) else { return }
        // Sent ahead: nothing needs the answers.
        for statement in pruneStatements(floor: floor, cutoff: cutoff) { try db.executeAhead(statement) }
    }

    /// The prune from `floor` up to `cutoff`. Bounded on both sides (nothing at or below the
    /// floor is left): a statement PostgreSQL prepares gets one plan for any bounds, and for
    /// `id <= $1` alone that is a scan of the whole journal (a third of it estimated to go),
    /// 33-54 ms under the write lock at 580,000 rows, where the range reads the index (0.4 ms
    /// for 64 changes' rows).
    static func pruneStatements(floor: Int64, cutoff: Int64) -> [StoreSQL] {
        [
            "DELETE FROM changedObject WHERE changeID > \(floor) AND changeID <= \(cutoff)",
            "DELETE FROM change WHERE id > \(floor) AND id <= \(cutoff)",
            "UPDATE libraryInfo SET value = \(String(cutoff)) WHERE key = 'historyFloor'",
        ]
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
        try singleInt64(ChangeJournal.positionQuery) ?? 0
    }

    /// Calls `handler` on `queue` after a commit of `topic` by any process or instance (a
    /// hint: the history says what changed), and every `fallback` besides (`.never`: only on
    /// wake-ups).
    package func watchChanges(
        queue: DispatchQueue, fallback: DispatchTimeInterval = ChangeSignalWatcher.fallbackInterval,
        topic: ChangeTopic = .journal, handler: @escaping @Sendable () -> Void
    ) -> any ChangeWatch {
        engine.watchChanges(queue: queue, fallback: fallback, topic: topic, handler: handler)
    }

    /// A consistent, unchanging view of the library as it is now, for change details.
    ///
    /// `sentAhead`: where a read is a round trip (PostgreSQL), return once the snapshot's first
    /// read is sent, without waiting for it; what it sees is then fixed when the server runs
    /// that read, which the caller must make sure happens before whatever it must not see
    /// (``StoreSnapshot/opened()`` waits for it). `journalAfter`: where a read is a round trip,
    /// the journal after that position is read with the first read (what
    /// ``StoreSnapshot/objectChanges(after:entities:)`` answers for that position).
    package func makeSnapshot(sentAhead: Bool = false, journalAfter: Int64? = nil) throws(StoreError) -> StoreSnapshot {
        let snapshot = try StoreError.mapping("Can't take a snapshot of the library") {
            try StoreSnapshot(transaction: engine.beginSnapshot(), journalAfter: journalAfter)
        }
        if !sentAhead { _ = try snapshot.opened() }
        return snapshot
    }

    /// The changes after `position`, oldest first, and the history floor (changes at or
    /// before it are gone).
    package func changes(after position: Int64) throws(StoreError) -> (floor: Int64, changes: [ChangeRecord]) {
        try read { db in
            let floor = try ChangeJournal.floor(db)
            let changes = try db.rows("SELECT \(ChangeColumn.selection) FROM change WHERE id > \(position) ORDER BY id") {
                ChangeRecord(id: $0[ChangeColumn.id], date: $0[ChangeColumn.date])
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

/// An object ``ChangeJournal/recordUpdate(_:change:of:flags:)`` records, by row id.
enum JournaledObject {
    case asset(Int64)
    /// An album (not a folder).
    case collection(Int64)
}
