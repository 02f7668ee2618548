@testable import PhotosStore
@testable import PhotosStorePostgres
import PostgresNIO
import Testing

/// A statement reaches PostgreSQL through postgres-nio's own interpolation: each bind and its
/// `$n` appended together, SQLite's planner hints never written, nothing rewritten.
@Suite("Statements for PostgreSQL")
struct PostgresStatementTests {
    @Test func bindsAreNumberedAsTheyAreAppended() {
        let uuids = ["A", "B"]
        let fragment: StoreSQL = "asset.uuid IN (\(StoreSQL.elements(uuids)))"
        let statement: StoreSQL = "SELECT '?' FROM asset WHERE id = \(Int64(7)) AND \(fragment) AND title = \("it's ?")"
        let query = PostgresSession.query(statement)
        #expect(query.sql == "SELECT '?' FROM asset WHERE id = $1 AND asset.uuid IN (SELECT json_array_elements_text($2::json)) AND title = $3")
        #expect(query.binds.count == 3)
    }

    @Test func sqlitePlannerHintsAreNotWritten() {
        let statement: StoreSQL = """
            SELECT COUNT(*) FROM asset\(StoreSQL.hint(.indexedBy("asset_by_trashedDate"))) \(StoreSQL.hint(.crossJoin)) albumAsset \
            ON albumAsset.assetID = asset.id WHERE x = \(1)
            """
        #expect(PostgresSession.query(statement).sql == "SELECT COUNT(*) FROM asset JOIN albumAsset ON albumAsset.assetID = asset.id WHERE x = $1")
        #expect(
            statement.rendered(for: .sqlite).sql
                == "SELECT COUNT(*) FROM asset INDEXED BY asset_by_trashedDate CROSS JOIN albumAsset ON albumAsset.assetID = asset.id WHERE x = ?")
    }

    @Test func aNullIsBoundAsNull() {
        let missing: String? = nil
        let query = PostgresSession.query("UPDATE asset SET title = \(missing) WHERE id = \(Int64(1))")
        #expect(query.sql == "UPDATE asset SET title = $1 WHERE id = $2")
        #expect(query.binds.count == 2)
    }
}
