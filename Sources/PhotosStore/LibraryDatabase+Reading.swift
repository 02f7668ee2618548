import Foundation

extension LibraryDatabase {
    // MARK: - Assets

    /// The row ids of the assets a query matches, in order: the snapshot a fetch result keeps,
    /// and the library's position (the newest change) they reflect.
    package func assetIDs(_ query: AssetQuery) throws(StoreError) -> (ids: [Int64], position: Int64) {
        try read { db in
            let (sql, arguments) = query.sql(db.dialect)
            return (try db.int64Column(sql, arguments), try ChangeJournal.position(db))
        }
    }

    /// Loads asset rows by id; the result is in no particular order and skips missing ids.
    package func assets(ids: [Int64]) throws(StoreError) -> [AssetRecord] {
        try directRows(AssetRecord.selection, from: "asset", matching: .ids(ids)) { AssetRecord(columns: $0) }
    }

    /// Loads asset rows by UUID; skips unknown ones. Includes assets in Recently Deleted.
    package func assets(uuids: [String]) throws(StoreError) -> [AssetRecord] {
        try directRows(AssetRecord.selection, from: "asset", matching: .uuids(uuids)) { AssetRecord(columns: $0) }
    }

    /// How many of `ids` have the given media type.
    package func countAssets(ids: [Int64], mediaType: Int) throws(StoreError) -> Int {
        try read { db in
            var total = 0
            for chunk in stride(from: 0, to: ids.count, by: 50_000) {
                let slice = ids[chunk..<min(chunk + 50_000, ids.count)]
                total += try db.int(
                    "SELECT COUNT(*) FROM asset WHERE id IN (\(db.dialect.jsonElements(.integer))) AND mediaType = ?",
                    [StoreValue.jsonArray(slice.map(StoreValue.integer)), mediaType]) ?? 0
            }
            return total
        }
    }

    // MARK: - Collections

    package func collectionIDs(_ query: CollectionQuery) throws(StoreError) -> (ids: [Int64], position: Int64) {
        try read { db in
            let (sql, arguments) = query.sql(db.dialect)
            return (try db.int64Column(sql, arguments), try ChangeJournal.position(db))
        }
    }

    package func collections(ids: [Int64]) throws(StoreError) -> [CollectionRecord] {
        try directRows(CollectionRecord.selection, from: "collection", matching: .ids(ids)) { CollectionRecord(columns: $0) }
    }

    package func collections(uuids: [String]) throws(StoreError) -> [CollectionRecord] {
        try directRows(CollectionRecord.selection, from: "collection", matching: .uuids(uuids)) { CollectionRecord(columns: $0) }
    }

    // MARK: - Rows by key

    /// The keys a by-key read selects rows with.
    enum RowKeys {
        case ids([Int64])
        case uuids([String])

        /// The `SELECT` of the rows with these keys (bound as one JSON array, or one id).
        func sql(_ selection: String, from table: String, _ dialect: SQLDialect) -> String {
            switch self {
            case .ids(let ids) where ids.count == 1: "SELECT \(selection) FROM \(table) WHERE \(table).id = ?"
            case .ids: "SELECT \(selection) FROM \(table) WHERE \(table).id IN (\(dialect.jsonElements(.integer)))"
            case .uuids: "SELECT \(selection) FROM \(table) WHERE \(table).uuid IN (\(dialect.jsonElements(.text)))"
            }
        }
    }

    /// Reads the rows of `table` whose id or uuid is among `keys` in one query outside a
    /// transaction (``StoreEngine/query(_:_:_:)``); in no particular order, missing keys skipped.
    private func directRows<Record>(
        _ selection: String, from table: String, matching keys: RowKeys, _ decode: (any ColumnReading) -> Record
    ) throws(StoreError) -> [Record] {
        let arguments: SQLArguments
        switch keys {
        case .ids(let ids) where ids.count == 1:
            arguments = [ids[0]]
        case .ids(let ids):
            guard !ids.isEmpty else { return [] }
            arguments = [StoreValue.jsonArray(ids)]
        case .uuids(let uuids):
            guard !uuids.isEmpty else { return [] }
            arguments = [StoreValue.jsonArray(uuids.map(StoreValue.text))]
        }
        return try StoreError.mapping("Reading the library failed") {
            try engine.query(keys.sql(selection, from: table, engine.dialect), arguments, decode)
        }
    }

    /// The smart album subtype of a collection; nil when it is not a smart album.
    package func smartAlbumSubtype(ofCollection id: Int64) throws(StoreError) -> Int? {
        try read { db in
            try db.int("SELECT subtype FROM collection WHERE id = ? AND isList = 0 AND type = 2", [id])
        }
    }

    // MARK: - Resources

    /// The files of an asset, ordered by resource type.
    package func resources(assetID: Int64) throws(StoreError) -> [ResourceRecord] {
        try read { db in
            try db.rows(
                """
                SELECT \(ResourceRecord.selection) FROM resource JOIN asset ON asset.id = resource.assetID \
                WHERE resource.assetID = ? ORDER BY resource.type
                """,
                [assetID]) { ResourceRecord(columns: $0) }
        }
    }
}
