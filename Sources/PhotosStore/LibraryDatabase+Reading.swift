import Foundation

extension LibraryDatabase {
    // MARK: - Assets

    /// The row ids of the assets a query matches, in order: the snapshot a fetch result keeps,
    /// and the library's position (the newest change) they reflect. A fetch ordered by a date
    /// may be read in two halves at once
    /// (``StoreEngine/idsAndPosition(_:splittable:)``).
    package func assetIDs(_ query: AssetQuery) throws(StoreError) -> (ids: [Int64], position: Int64) {
        // A search in its natural order: its matches, sorted here, read in halves at once
        // (SQLite: of the ids; PostgreSQL: of its documents, `SearchDocumentHalves`, which it
        // reads alone when it can).
        if let unordered = sqlite == nil ? query.searchOfDocumentsAlone ?? query.searchInRankOrder : query.searchInRankOrder {
            return try StoreError.mapping("Reading the library failed") {
                let parts = sqlite == nil ? query.searchOfDocumentsInHalves : query.searchInRankOrderInHalves
                let (matches, position) = try engine.rankedMatchesAndPosition(unordered, parts: parts)
                return (RankedMatch.sorted(matches), position)
            }
        }
        let splittable = query.splitKey.map { key in
            SplittableRead(table: "asset", column: key.field.rawValue.lowercased()) { pivot in query.halves(splitAt: pivot) }
        }
        return try StoreError.mapping("Reading the library failed") { try engine.idsAndPosition(query.statement(), splittable: splittable) }
    }

    /// The rows of the assets a query matches, in its order, with the library's position they
    /// reflect, in one statement: a fetch of a few identifiers whose objects are read at once
    /// (a server's lookup of the assets a request names: one round trip on PostgreSQL instead
    /// of the ids and then their rows). Nil when nothing matches, since the position comes
    /// with the rows: ``assetIDs(_:)`` then answers in one statement too.
    package func assetRecordsAndPosition(_ query: AssetQuery) throws(StoreError) -> (records: [AssetRecord], position: Int64)? {
        let positionColumn = Int32(AssetColumn.trashedDate.rawValue + 1)
        let statement = query.statement(selecting: "\(AssetRecord.selection), (\(ChangeJournal.positionQuery))")
        let rows = try StoreError.mapping("Reading the library failed") {
            try engine.query(statement) { row in (AssetRecord(row: row), row.int64(positionColumn)) }
        }
        guard let position = rows.first?.1 else { return nil }
        return (rows.map(\.0), position)
    }

    /// Loads asset rows by id; the result is in no particular order and skips missing ids.
    package func assets(ids: [Int64]) throws(StoreError) -> [AssetRecord] {
        try directRows(.assets, matching: .ids(ids)) { AssetRecord(row: $0) }
    }

    /// Loads asset rows by UUID; skips unknown ones. Includes assets in Recently Deleted.
    package func assets(uuids: [String]) throws(StoreError) -> [AssetRecord] {
        try directRows(.assets, matching: .uuids(uuids)) { AssetRecord(row: $0) }
    }

    /// How many of `ids` have the given media type.
    package func countAssets(ids: [Int64], mediaType: Int) throws(StoreError) -> Int {
        try read { db in
            var total = 0
            for chunk in stride(from: 0, to: ids.count, by: 50_000) {
                let slice = ids[chunk..<min(chunk + 50_000, ids.count)]
                total += try db.int("SELECT COUNT(*) FROM asset WHERE id IN (\(StoreSQL.elements(slice))) AND mediaType = \(mediaType)") ?? 0
            }
            return total
        }
    }

    // MARK: - Collections

    package func collectionIDs(_ query: CollectionQuery) throws(StoreError) -> (ids: [Int64], position: Int64) {
        try StoreError.mapping("Reading the library failed") { try engine.idsAndPosition(query.statement()) }
    }

    package func collections(ids: [Int64]) throws(StoreError) -> [CollectionRecord] {
        try directRows(.collections, matching: .ids(ids)) { CollectionRecord(row: $0) }
    }

    package func collections(uuids: [String]) throws(StoreError) -> [CollectionRecord] {
        try directRows(.collections, matching: .uuids(uuids)) { CollectionRecord(row: $0) }
    }

    // MARK: - Rows by key

    /// What a read of records by key selects, from which table, and its one-id statement,
    /// built once: reading one object by id is the per-call path of `object(at:)`.
    struct KeyedReads: Sendable {
        let selection: StoreSQL
        let table: String
        /// `SELECT selection FROM table WHERE table.id = ` parameter 0.
        let byID: StoreSQL

        init(_ selection: StoreSQL, from table: String) {
            self.selection = selection
            self.table = table
            byID = "SELECT \(selection) FROM \(unescaped: table) WHERE \(unescaped: table).id = \(StoreSQL.parameter(0))"
        }

        static let assets = KeyedReads(AssetRecord.selection, from: "asset")
        static let collections = KeyedReads(CollectionRecord.selection, from: "collection")
    }

    /// The keys a by-key read selects rows with.
    enum RowKeys {
        case ids([Int64])
        case uuids([String])

        /// The `SELECT` of the rows with these keys (bound as one JSON array, or one id).
        func statement(_ reads: KeyedReads) -> StoreSQL {
            let (selection, table) = (reads.selection, reads.table)
            switch self {
            case .ids(let ids) where ids.count == 1: return reads.byID.binding([.integer(ids[0])])
            case .ids(let ids): return "SELECT \(selection) FROM \(unescaped: table) WHERE \(unescaped: table).id IN (\(StoreSQL.elements(ids)))"
            case .uuids(let uuids): return "SELECT \(selection) FROM \(unescaped: table) WHERE \(unescaped: table).uuid IN (\(StoreSQL.elements(uuids)))"
            }
        }

        var isEmpty: Bool {
            switch self {
            case .ids(let ids): ids.isEmpty
            case .uuids(let uuids): uuids.isEmpty
            }
        }
    }

    /// The first column of a one-statement read's first row, as an integer: no transaction
    /// around it, since a single statement is consistent on its own (on PostgreSQL, one round
    /// trip instead of three).
    func singleInt64(_ statement: StoreSQL) throws(StoreError) -> Int64? {
        try StoreError.mapping("Reading the library failed") {
            try engine.query(statement) { $0.optionalInt64(0) }.first.flatMap { $0 }
        }
    }

    /// Reads the rows of `table` whose id or uuid is among `keys` in one query outside a
    /// transaction (``StoreEngine/query(_:_:)``); in no particular order, missing keys skipped.
    private func directRows<Record>(
        _ reads: KeyedReads, matching keys: RowKeys, _ decode: (any ColumnReading) -> Record
    ) throws(StoreError) -> [Record] {
        guard !keys.isEmpty else { return [] }
        return try StoreError.mapping("Reading the library failed") {
            try engine.query(keys.statement(reads), decode)
        }
    }

    /// The smart album subtype of a collection; nil when it is not a smart album.
    package func smartAlbumSubtype(ofCollection id: Int64) throws(StoreError) -> Int? {
        try read { db in
            try db.int("SELECT subtype FROM collection WHERE id = \(id) AND isList = 0 AND type = 2")
        }
    }

    // MARK: - Resources

    /// The files of an asset, ordered by resource type.
    package func resources(assetID: Int64) throws(StoreError) -> [ResourceRecord] {
        try read { db in
            try db.rows(
                """
                SELECT \(ResourceRecord.selection) FROM resource JOIN asset ON asset.id = resource.assetID \
                WHERE resource.assetID = \(assetID) ORDER BY resource.type
                """) { ResourceRecord(row: $0) }
        }
    }
}
