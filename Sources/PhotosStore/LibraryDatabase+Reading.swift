import Foundation
import GRDB

extension LibraryDatabase {
    // MARK: - Assets

    /// The row ids of the assets a query matches, in order: the snapshot a fetch result keeps.
    package func assetIDs(_ query: AssetQuery) throws(StoreError) -> [Int64] {
        let (sql, arguments) = query.sql()
        return try read { db in try Self.fetchIDs(db, sql: sql, arguments: arguments) }
    }

    /// Loads asset rows by id; the result is in no particular order and skips missing ids.
    package func assets(ids: [Int64]) throws(StoreError) -> [AssetRecord] {
        guard !ids.isEmpty else { return [] }
        return try read { db in try Self.fetchAssets(db, ids: ids) }
    }

    /// Loads asset rows by UUID; skips unknown ones. Includes assets in Recently Deleted.
    package func assets(uuids: [String]) throws(StoreError) -> [AssetRecord] {
        guard !uuids.isEmpty else { return [] }
        return try read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT \(AssetRecord.selection) FROM asset WHERE asset.uuid IN (SELECT value FROM json_each(?))",
                arguments: [StoreValue.jsonArray(uuids.map(StoreValue.text))]
            ).map(AssetRecord.init(row:))
        }
    }

    /// How many of `ids` have the given media type.
    package func countAssets(ids: [Int64], mediaType: Int) throws(StoreError) -> Int {
        try read { db in
            var total = 0
            for chunk in stride(from: 0, to: ids.count, by: 50_000) {
                let slice = ids[chunk..<min(chunk + 50_000, ids.count)]
                total += try Int.fetchOne(
                    db,
                    sql: "SELECT COUNT(*) FROM asset WHERE id IN (SELECT value FROM json_each(?)) AND mediaType = ?",
                    arguments: [StoreValue.jsonArray(slice.map(StoreValue.integer)), mediaType]) ?? 0
            }
            return total
        }
    }

    static func fetchIDs(_ db: Database, sql: String, arguments: StatementArguments) throws -> [Int64] {
        let statement = try db.cachedStatement(sql: sql)
        var ids: [Int64] = []
        let cursor = try Int64.fetchCursor(statement, arguments: arguments)
        while let id = try cursor.next() { ids.append(id) }
        return ids
    }

    static func fetchAssets(_ db: Database, ids: [Int64]) throws -> [AssetRecord] {
        if ids.count == 1 {
            let statement = try db.cachedStatement(sql: "SELECT \(AssetRecord.selection) FROM asset WHERE asset.id = ?")
            return try Row.fetchAll(statement, arguments: [ids[0]]).map(AssetRecord.init(row:))
        }
        let statement = try db.cachedStatement(
            sql: "SELECT \(AssetRecord.selection) FROM asset WHERE asset.id IN (SELECT value FROM json_each(?))")
        return try Row.fetchAll(statement, arguments: [StoreValue.jsonArray(ids.map(StoreValue.integer))])
            .map(AssetRecord.init(row:))
    }

    // MARK: - Collections

    package func collectionIDs(_ query: CollectionQuery) throws(StoreError) -> [Int64] {
        let (sql, arguments) = query.sql()
        return try read { db in try Self.fetchIDs(db, sql: sql, arguments: arguments) }
    }

    package func collections(ids: [Int64]) throws(StoreError) -> [CollectionRecord] {
        guard !ids.isEmpty else { return [] }
        return try read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT \(CollectionRecord.selection) FROM collection WHERE collection.id IN (SELECT value FROM json_each(?))",
                arguments: [StoreValue.jsonArray(ids.map(StoreValue.integer))]
            ).map(CollectionRecord.init(row:))
        }
    }

    package func collections(uuids: [String]) throws(StoreError) -> [CollectionRecord] {
        guard !uuids.isEmpty else { return [] }
        return try read { db in
            try Row.fetchAll(
                db,
                sql: "SELECT \(CollectionRecord.selection) FROM collection WHERE collection.uuid IN (SELECT value FROM json_each(?))",
                arguments: [StoreValue.jsonArray(uuids.map(StoreValue.text))]
            ).map(CollectionRecord.init(row:))
        }
    }

    /// The row ids of the first `limit` assets an album shows, for key assets.
    package func smartAlbumSubtype(ofCollection id: Int64) throws(StoreError) -> Int? {
        try read { db in
            try Int.fetchOne(db, sql: "SELECT subtype FROM collection WHERE id = ? AND isList = 0 AND type = 2", arguments: [id])
        }
    }

    // MARK: - Resources

    /// The files of an asset, ordered by resource type.
    package func resources(assetID: Int64) throws(StoreError) -> [ResourceRecord] {
        try read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(ResourceRecord.selection) FROM resource JOIN asset ON asset.id = resource.assetID \
                    WHERE resource.assetID = ? ORDER BY resource.type
                    """,
                arguments: [assetID]
            ).map(ResourceRecord.init(row:))
        }
    }
}
