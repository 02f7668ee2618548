import Foundation
import PhotosLocking

/// The library frozen at one position: an open read transaction on its own connection.
///
/// A `PHChange` holds one, so every detail it gives describes the same state, however many
/// changes commit while the observer works. Holding it keeps SQLite from recycling the WAL
/// pages it reads; it is released with the last reference.
package final class StoreSnapshot: Sendable {
    private let transaction: any SnapshotTransaction
    /// The snapshot's first read: the position and the history's floor it sees. Where a read is
    /// a round trip (PostgreSQL) it is sent when the snapshot is taken and its answer waited for
    /// when first needed (``opened()``): the commit that took the snapshot goes on at once.
    private let opening: Mutex<Opening>

    private enum Opening {
        case sent(RowAhead<(position: Int64, floor: Int64)>)
        case read(Result<(position: Int64, floor: Int64), StoreError>)
    }

    /// The journal after a position, sent with the first read (``init(transaction:journalAfter:)``)
    /// and not read yet.
    private let journalAhead: Mutex<(after: Int64, changes: RowAhead<[ObjectChange]>)?>

    /// Sends the snapshot's first read, which fixes what it sees (read at once where a read
    /// is no round trip). With `journalAfter`, where a read is a round trip, the journal after
    /// that position (up to the snapshot) is sent right behind it: a delivery from there reads
    /// both with one wait.
    init(transaction: any SnapshotTransaction, journalAfter: Int64? = nil) throws {
        self.transaction = transaction
        typealias Journal = (after: Int64, changes: RowAhead<[ObjectChange]>)
        let (opening, journal) = try transaction.read { db throws -> (RowAhead<(position: Int64, floor: Int64)>, Journal?) in
            let opening = try ChangeJournal.positionAndFloorAhead(db)
            guard let after = journalAfter, db.statementsAreRoundTrips else { return (opening, nil) }
            let journal: Journal = (after, try ChangeJournal.objectChangesAhead(db, after: after))
            return (opening, journal)
        }
        self.opening = Mutex(.sent(opening))
        journalAhead = Mutex(journal)
    }

    /// The position and the history's floor the snapshot sees, waiting for its first read's
    /// answer the first time (every caller after gets the same answer or failure).
    package func opened() throws(StoreError) -> (position: Int64, historyFloor: Int64) {
        let result = opening.withLock { opening in
            switch opening {
            case .read(let result):
                return result
            case .sent(let row):
                let result = Result { () throws(StoreError) in
                    try StoreError.mapping("Reading the library failed") { try row.get() ?? (0, 0) }
                }
                opening = .read(result)
                return result
            }
        }
        let (position, floor) = try result.get()
        return (position, floor)
    }

    /// The id of the newest change the snapshot sees (``opened()``).
    package var position: Int64 {
        get throws(StoreError) { try opened().position }
    }

    /// Changes at or before this position are no longer in the journal (``opened()``).
    package var historyFloor: Int64 {
        get throws(StoreError) { try opened().historyFloor }
    }

    private func read<T>(_ body: (any StoreConnection) throws -> T) throws(StoreError) -> T {
        try StoreError.mapping("Reading the library failed") { try transaction.read(body) }
    }

    /// The journal read last, after which position: the change's delivery reads it, then each
    /// kept fetch result's details ask for the same range (one read, not one per result; each
    /// a round trip on PostgreSQL).
    private let lastJournalRead = Mutex<(after: Int64, changes: [ObjectChange])?>(nil)

    /// The objects changed after `position` (up to the snapshot), folded per object; `nil`
    /// when the journal no longer reaches back that far.
    package func objectChanges(after position: Int64, entities: [Int]? = nil) throws(StoreError) -> [ObjectChange]? {
        let (newest, historyFloor) = try opened()
        guard position >= historyFloor else { return nil }
        guard position < newest else { return [] }
        // Sent with the snapshot's first read: taken (read once) whatever it is asked for.
        let ahead = journalAhead.withLock { ahead in
            defer { ahead = nil }
            return ahead
        }
        if let ahead, ahead.after == position {
            let changes = try StoreError.mapping("Reading the library failed") { try ahead.changes.get() ?? [] }
            lastJournalRead.withLock { $0 = (position, changes) }
        }
        if let known = lastJournalRead.withLock({ $0 }), known.after == position {
            // Folded per object, so filtering by entity afterwards is the same as before.
            return entities.map { kinds in known.changes.filter { kinds.contains($0.entity) } } ?? known.changes
        }
        let changes = try read { db in
            try ChangeJournal.objectChanges(db, after: position, upTo: newest, entities: entities)
        }
        if entities == nil { lastJournalRead.withLock { $0 = (position, changes) } }
        return changes
    }

    package func assets(uuids: [String]) throws(StoreError) -> [AssetRecord] {
        try rows(.assets, uuids: uuids) { AssetRecord(row: $0) }
    }

    package func collections(uuids: [String]) throws(StoreError) -> [CollectionRecord] {
        try rows(.collections, uuids: uuids) { CollectionRecord(row: $0) }
    }

    private func rows<Record>(
        _ reads: LibraryDatabase.KeyedReads, uuids: [String], _ decode: (any ColumnReading) -> Record
    ) throws(StoreError) -> [Record] {
        try read { db in try db.rows(LibraryDatabase.RowKeys.uuids(uuids).statement(reads), decode) }
    }

    private static func ids(_ db: any StoreConnection, _ query: some DiffableQuery) throws -> [Int64] {
        try db.rows(query.statement(selecting: query.idColumn, restrictedTo: nil)) { $0.int64(0) }
    }

    // MARK: - Diffs

    /// How the result of `query` fetched at `position` (holding `before`) differs in this
    /// snapshot; `nil` when the changes since then don't affect it.
    package func diff(
        _ query: AssetQuery, before: [Int64], since position: Int64
    ) throws(StoreError) -> FetchDiff? {
        try diff(of: query, before: before, since: position)
    }

    package func diff(
        _ query: CollectionQuery, before: [Int64], since position: Int64
    ) throws(StoreError) -> FetchDiff? {
        try diff(of: query, before: before, since: position)
    }

    private func diff(
        of query: some DiffableQuery, before: [Int64], since position: Int64
    ) throws(StoreError) -> FetchDiff? {
        guard try position < self.position else { return nil }
        guard let journaled = try objectChanges(after: position, entities: query.journalEntities + query.rereadingEntities) else {
            // The journal was pruned past the result: only the new result is known.
            var diff = FetchDiff(after: try read { db in try Self.ids(db, query) })
            diff.isIncremental = false
            return diff
        }
        // Regrouping moments after a date change reassigns many assets to other moments: news
        // for a moment's fetch, not for one whose scope ignores memberships.
        let relevant = query.dependsOnMembership ? journaled : journaled.filter { !$0.isMembershipOnly }
        guard !relevant.isEmpty else { return nil }
        let rowEntities = Set(query.journalEntities)
        let changes = relevant.filter { rowEntities.contains($0.entity) }
        let rereads = changes.count < relevant.count
        let updated = Set(changes.lazy.filter { $0.kind == .updated }.map(\.objectID))
        let touched = Set(changes.map(\.objectID))
        // Each touched row costs a few probes; past 1 in 32 of the result, one full query is cheaper.
        let incremental = !rereads && query.supportsIncrementalDiff && touched.count * 32 <= max(before.count, 8192)
        let diff = try read { db in
            if incremental {
                return try Self.incrementalDiff(db, query, before: before, touched: touched, updated: updated)
            }
            let after = try Self.ids(db, query)
            var diff = FetchDiff(after: after)
            (diff.removed, diff.inserted, diff.changed, diff.moves) = IdentifierDiff.diff(
                before: before, after: after, isChanged: updated.contains)
            return diff
        }
        return diff.isEmpty ? nil : diff
    }

    private static func incrementalDiff(
        _ db: any StoreConnection, _ query: some DiffableQuery, before: [Int64], touched: Set<Int64>, updated: Set<Int64>
    ) throws -> FetchDiff {
        let terms = query.orderTerms
        func decodeKeyed(_ row: any ColumnReading) -> (id: Int64, key: SortKey) {
            (row.int64(0), SortKey(values: (1...terms.count).map { row.value(Int32($0)) }))
        }
        let selection: StoreSQL = "\(query.idColumn), \(StoreSQL.joined(terms.map(\.sql), separator: ", "))"
        let probe = query.statement(selecting: selection, restrictedTo: .idParameter)
        // Where a statement is a round trip (PostgreSQL), rows are read many at a time: the
        // touched rows in one statement with their old places' neighbours, and the search's
        // probes 32 a step. SQLite reads them one primary-key lookup each (a single `IN` query
        // lets it pick another index: a 50,000-row favorites scan for one changed row), at
        // microseconds a read.
        let batched = db.statementsAreRoundTrips
        return try IncrementalDiff(
            before: before, touched: touched, terms: terms,
            keyed: { ids in
                guard batched, ids.count > 1 else {
                    return try ids.compactMap { id in try db.row(probe.binding([.integer(id)]), decodeKeyed) }
                }
                return try db.rows(query.statement(selecting: selection, restrictedTo: .ids(ids)), decodeKeyed)
            },
            isChanged: updated.contains, probesPerRead: batched ? 32 : 1
        ).run()
    }
}

extension StoreSnapshot {
    /// Whether `changes` concern `person`, as the snapshot shows the library: one of their
    /// objects (an object without an owner is the library owner's), their membership of a
    /// shared album, or another's object they see (a shared album they are a member of, a
    /// photo in a shared album of theirs, a partner's photo). A person's library tells its
    /// observers of no other change.
    package func concerns(_ changes: [ObjectChange], person: Int64, libraryOwner: Int64?) throws(StoreError) -> Bool {
        var othersAssets: [StoreSQL] = [], othersAlbums: [StoreSQL] = []
        for change in changes {
            if (change.ownerID ?? libraryOwner) == person { return true }
            switch change.entity {
            case JournalEntity.asset: othersAssets.append("\(change.uuid)")
            case JournalEntity.assetCollection: othersAlbums.append("\(change.uuid)")
            default: break
            }
        }
        return try read { db in
            if !othersAlbums.isEmpty {
                let seen = try db.int64(
                    """
                    SELECT 1 FROM collection WHERE uuid IN (\(StoreSQL.joined(othersAlbums, separator: ", "))) \
                    AND id IN (SELECT albumID FROM albumMember WHERE personID = \(person)) LIMIT 1
                    """)
                if seen != nil { return true }
            }
            if !othersAssets.isEmpty {
                let seen = try db.int64(
                    """
                    SELECT 1 FROM asset WHERE uuid IN (\(StoreSQL.joined(othersAssets, separator: ", "))) \
                    AND (id IN (SELECT assetID FROM albumAsset WHERE albumID IN (\(CollectionQuery.sharedAlbums(of: person)))) \
                    OR ownerID IN (SELECT ownerID FROM partnerShare WHERE partnerID = \(person))) LIMIT 1
                    """)
                if seen != nil { return true }
            }
            return false
        }
    }
}
