import Foundation
import GRDB
import Testing

@testable import PhotosStore

/// Each table is described once (`TableColumn`), and the SQLite library its migrations make
/// holds exactly what the descriptions say: the same tables, columns in the same order with the
/// same types, nullability, defaults and keys, and the same indexes. (PostgreSQL's tables are
/// compared with SQLite's by `PostgresSchemaTests`, and its indexes with the descriptions.)
@Suite("Tables described once")
struct TableDescriptionTests {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tables-\(UUID().uuidString)")

    private func withFreshLibrary<T: Sendable>(_ body: (Database) throws -> T) throws -> T {
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try LibraryDatabase.open(at: folder)
        return try store.sqliteRead(body)
    }

    @Test func theMigratedTablesAreTheDescribedOnes() throws {
        try withFreshLibrary { db in
            let tables = try String.fetchAll(
                db,
                sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name != 'grdb_migrations' ORDER BY name")
                // The search words' FTS5 table and its shadow tables, which no description holds.
                .filter { !$0.hasPrefix("searchIndex") }
            #expect(tables == LibrarySchema.tables.map(\.name).sorted())
            for table in LibrarySchema.tables {
                let columns = try Row.fetchAll(db, sql: "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)", arguments: [table.name])
                #expect(columns.map { $0["name"] as String } == table.columnNames, "\(table.name)")
                for (row, column) in zip(columns, table.columns) {
                    let what = "\(table.name).\(column.name)"
                    #expect(row["type"] as String == column.type.sql(.sqlite), "\(what)")
                    #expect(row["dflt_value"] as String? == column.defaultValue, "\(what)")
                    let isKey = (row["pk"] as Int) > 0
                    #expect(isKey == (column.key != .none || table.primaryKey.contains(column.name)), "\(what) key")
                    if column.key == .none {
                        #expect((row["notnull"] as Int) == (column.isNotNull ? 1 : 0), "\(what) NOT NULL")
                    }
                }
                let references = try Row.fetchAll(db, sql: "SELECT \"from\", \"table\", on_delete FROM pragma_foreign_key_list(?)", arguments: [table.name])
                let described = table.columns.compactMap { column in column.reference.map { "\(column.name)→\($0.table) \($0.onDelete.rawValue)" } }
                #expect(Set(references.map { "\($0["from"] as String)→\($0["table"] as String) \($0["on_delete"] as String)" }) == Set(described), "\(table.name)")
            }
        }
    }

    @Test func theMigratedIndexesAreTheDescribedOnes() throws {
        try withFreshLibrary { db in
            let indexes = try Row.fetchAll(
                db, sql: "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
            let described = LibrarySchema.tables.flatMap { table in table.indexes.map { (name: $0.name, table: table.name, index: $0) } }
            #expect(indexes.map { $0["name"] as String } == described.map(\.name).sorted())
            for (name, table, index) in described {
                let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_index_info(?) ORDER BY seqno", arguments: [name])
                let expected = index.terms.compactMap { $0.sql(.sqlite) }.map { $0.replacingOccurrences(of: " DESC", with: "") }
                #expect(columns == expected, "\(name) on \(table)")
                let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [name]) ?? ""
                #expect(sql == index.sql(on: table, .sqlite), "\(name)")
            }
        }
    }

    /// The journal compares the columns the descriptions mark: a `PHAsset` property changing is
    /// an update, a content column an edit; collections' own columns likewise.
    @Test func theJournalWatchesTheDescribedColumns() {
        #expect(JournalColumns.assetContent == ["hasAdjustments", "adjustmentFormatIdentifier", "contentVersion"])
        #expect(Set(JournalColumns.assetContent).isSubset(of: JournalColumns.assetProperties))
        #expect(!JournalColumns.assetProperties.contains("trashedDate") && !JournalColumns.assetProperties.contains("momentID"))
        #expect(JournalColumns.assetProperties.count == 27)
        #expect(JournalColumns.collectionProperties == ["title", "startDate", "endDate", "latitude", "longitude", "locationNames"])
    }

    /// Each engine's DDL comes from the same description.
    @Test func bothEnginesRenderOneDescription() {
        let asset = AssetColumn.table
        let sqlite = asset.createSQL(.sqlite, asOf: .v14)
        let postgres = asset.createSQL(.postgres, asOf: .v14)
        #expect(sqlite.contains("id INTEGER PRIMARY KEY AUTOINCREMENT,") && postgres.contains("id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,"))
        #expect(sqlite.contains("momentID INTEGER REFERENCES collection(id) ON DELETE SET NULL"))
        #expect(postgres.contains(#"uniformTypeIdentifier TEXT COLLATE "C" NOT NULL"#))
        // A column a later version added is in neither engine's table as an earlier version made it.
        #expect(!asset.createSQL(.sqlite, asOf: .v4).contains("contentVersion"))
        #expect(asset.addColumnsSQL(.sqlite, addedIn: .v5) == ["ALTER TABLE asset ADD COLUMN contentVersion INTEGER NOT NULL DEFAULT 0"])
        #expect(LibrarySchema.createIndex("asset_by_trashedDate", .postgres)
            == "CREATE INDEX asset_by_trashedDate ON asset(trashedDate NULLS FIRST, id DESC NULLS LAST) WHERE trashedDate IS NOT NULL")
        #expect(LibrarySchema.createIndex("asset_by_trashedDate", .sqlite)
            == "CREATE INDEX asset_by_trashedDate ON asset(trashedDate) WHERE trashedDate IS NOT NULL")
    }
}
