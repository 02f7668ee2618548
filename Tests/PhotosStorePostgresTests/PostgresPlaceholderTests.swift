@testable import PhotosStorePostgres
import Testing

/// The store's SQL as PostgreSQL takes it: `?` and `?N` become `$N` outside quotes and
/// comments, and SQLite's planner hints go.
@Suite("SQL for PostgreSQL")
struct PostgresPlaceholderTests {
    @Test func placeholdersAreNumberedOutsideQuotesAndComments() {
        #expect(PostgresPlaceholders.rewrite("SELECT a FROM t WHERE a = ? AND b IN (?, ?)") == "SELECT a FROM t WHERE a = $1 AND b IN ($2, $3)")
        #expect(PostgresPlaceholders.rewrite("SELECT '?', \"a?b\", ? -- what?\n, ?") == "SELECT '?', \"a?b\", $1 -- what?\n, $2")
        #expect(PostgresPlaceholders.rewrite("SELECT 'it''s ?', ?") == "SELECT 'it''s ?', $1")
        #expect(PostgresPlaceholders.rewrite("WHERE size = ?1 AND signature = ?2 OR size = ?1") == "WHERE size = $1 AND signature = $2 OR size = $1")
        #expect(PostgresPlaceholders.rewrite("SELECT json_array_elements_text(?::json)") == "SELECT json_array_elements_text($1::json)")
    }

    @Test func sqlitePlannerHintsAreDropped() {
        #expect(
            PostgresPlaceholders.translate("SELECT COUNT(*) FROM asset INDEXED BY asset_by_trashedDate CROSS JOIN albumAsset ON albumAsset.assetID = asset.id WHERE x = ?")
                == "SELECT COUNT(*) FROM asset JOIN albumAsset ON albumAsset.assetID = asset.id WHERE x = $1")
        #expect(PostgresPlaceholders.translate("SELECT 1") == "SELECT 1")
    }
}
