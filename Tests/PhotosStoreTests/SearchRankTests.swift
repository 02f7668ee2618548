import Foundation
import GRDB
import Testing

@testable import PhotosStore

/// `photos_bm25` (``SearchRank``), the rank of a SQLite search: FTS5's own `bm25` to the last
/// digit, with each document's length read from the asset's lookup index
/// (`asset.searchLength`, written with the document) instead of FTS5's `docsize` table.
@Suite("Search rank")
struct SearchRankTests {
    /// Assets whose documents differ in length and in how often a prefix matches in them,
    /// written through the store's own path (``SearchDocuments``).
    static func library(in folder: URL) throws -> LibraryDatabase {
        let store = try LibraryDatabase.open(at: folder)
        let titles = [
            "Lisbon", "Lisbon tram", "Lisbon tram at night by the river", "Porto", "Old Lisbon streets, Lisboa and Lisbonne",
            "A receipt from the garage in Lisbon with many other words on it", "Tram 28", "lisbon lisbon", "", "",
        ]
        try store.write { db in
            for (index, title) in titles.enumerated() {
                try db.execute(
                    """
                    INSERT INTO asset (id, uuid, mediaType, addedDate, uniformTypeIdentifier, creationDate, title, originalFilename) \
                    VALUES (\(Int64(index + 1)), \("A\(index)"), 1, 0, 'public.jpeg', \(Double(1_600_000_000 + index % 3)), \(title), \("IMG_\(index).JPG"))
                    """)
            }
            // One without a date: last among its equals, as SQLite sorts `NULL` newest first.
            try db.execute("UPDATE asset SET creationDate = NULL WHERE id = \(Int64(titles.count - 1))")
            try SearchDocuments(db: db, gazetteer: .custom(nil)).refresh((1...Int64(titles.count)).map { $0 })
        }
        return store
    }

    @Test func theRankIsFTS5sBM25() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rank-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Self.library(in: folder)
        for query in [#""lisbon""#, #""lisb" *"#, #""tram""#, #""lisbon" "tram""#, #""lisbon tram""#, #""img" *"#, #""jpg""#] {
            let rows = try store.sqliteRead { db in
                try Row.fetchAll(
                    db,
                    sql: """
                        SELECT asset.id, asset.searchLength, bm25(searchIndex) AS fts5, photos_bm25(searchIndex, asset.searchLength) AS ours, \
                        photos_bm25(searchIndex, NULL) AS unknown FROM searchIndex CROSS JOIN asset ON asset.id = searchIndex.rowid \
                        WHERE searchIndex MATCH ?
                        """, arguments: [query]
                ).map { row in
                    (id: row["id"] as Int64, length: row["searchLength"] as Int?, fts5: row["fts5"] as Double, ours: row["ours"] as Double,
                     unknown: row["unknown"] as Double)
                }
            }
            #expect(!rows.isEmpty, "\(query)")
            for row in rows {
                #expect(row.length != nil)
                #expect(abs(row.fts5 - row.ours) < 1e-12, "\(query), asset \(row.id), length \(row.length ?? -1)")
                #expect(abs(row.fts5 - row.unknown) < 1e-12, "a length not known is read from FTS5: \(query)")
            }
        }
    }

    /// A search's order is FTS5's `bm25`, then newest first (no date last), then the id: the
    /// order the store sorts the matches in (``RankedMatch``) is SQLite's.
    @Test func aSearchIsInBM25Order() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rank-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Self.library(in: folder)
        for words in [["lisbon"], ["lisb"], ["img"]] {
            let match = SearchMatch(terms: words, prefixLast: true)
            let ids = try store.assetIDs(AssetQuery(scope: .search(match))).ids
            let expected = try store.sqliteRead { db in
                try Int64.fetchAll(
                    db,
                    sql: """
                        SELECT asset.id FROM searchIndex JOIN asset ON asset.id = searchIndex.rowid WHERE searchIndex MATCH ? \
                        ORDER BY bm25(searchIndex), asset.creationDate DESC, asset.id
                        """, arguments: [match.fts5])
            }
            #expect(ids.count > 2, "\(words)")
            #expect(ids == expected, "\(words)")
        }
    }
}
