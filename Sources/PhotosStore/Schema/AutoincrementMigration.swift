import Foundation
import GRDB

/// Schema v9: `asset` and `collection` ids are never used twice.
///
/// A table whose key is a plain `INTEGER PRIMARY KEY` gives a new row the largest id plus one,
/// so deleting the newest row and inserting another hands its id out again. Fetch results,
/// `PHAsset`s and collections hold row ids, so a held result could then present a different
/// object (or a folder where it had an album). `AUTOINCREMENT` makes SQLite remember the
/// largest id ever used, in `sqlite_sequence`.
///
/// SQLite can't add `AUTOINCREMENT` to a table, so each is rebuilt as SQLite documents
/// ("Making Other Kinds Of Table Schema Changes"): a copy made from the table's own stored
/// `CREATE TABLE` (which includes the columns later versions added), its rows copied with their
/// ids, the old table dropped and the copy renamed, then its indexes and triggers made again
/// from their stored SQL. The migrator runs this with foreign keys off and checks them all
/// before it commits; tables that point at these (`resource`, `albumAsset`, `videoRendition`,
/// …) name them by name, so they point at the rebuilt ones.
enum AutoincrementMigration {
    static let tables = ["asset", "collection"]

    static func migrate(_ db: Database) throws {
        for table in tables {
            try rebuildWithAutoincrement(db, table: table)
        }
    }

    private static func rebuildWithAutoincrement(_ db: Database, table: String) throws {
        guard let sql = try String.fetchOne(
            db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", arguments: [table])
        else { throw StoreError(.database, "The library database has no \(table) table") }
        if sql.contains("AUTOINCREMENT") { return }
        let key = "id INTEGER PRIMARY KEY,"
        let head = "CREATE TABLE \(table) ("
        guard sql.hasPrefix(head), let keyRange = sql.range(of: key) else {
            throw StoreError(.database, "The library database's \(table) table is not the one this version knows: \(sql.prefix(80))")
        }
        let dependents = try String.fetchAll(
            db,
            sql: "SELECT sql FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL ORDER BY rowid",
            arguments: [table])
        let copy = "\(table)_v9"
        var rebuilt = sql.replacingCharacters(in: keyRange, with: "id INTEGER PRIMARY KEY AUTOINCREMENT,")
        rebuilt = "CREATE TABLE \(copy) (" + rebuilt.dropFirst(head.count)
        try db.execute(sql: rebuilt)
        try db.execute(sql: "INSERT INTO \(copy) SELECT * FROM \(table)")
        try db.execute(sql: "DROP TABLE \(table)")
        try db.execute(sql: "ALTER TABLE \(copy) RENAME TO \(table)")
        for statement in dependents {
            try db.execute(sql: statement)
        }
    }
}
