import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosStore
@testable import PhotosStorePostgres

/// The common fetches on PostgreSQL read an index in their own order, as they do on SQLite
/// (`AssetQueryPlanTests`): the store's `ORDER BY` sorts `NULL` as SQLite does, so an index
/// serves it only when built in that order and ending with the row id
/// (`PostgresSchema.nullOrderIndexes`). Each plan is asked with sorting and whole-table scans
/// priced out, so a plan that still sorts or scans has no index to read instead.
@Suite("PostgreSQL query plans", .postgresInstalled)
struct PostgresQueryPlanTests {
    static let byCreationDate = [StoreSort(.creationDate, ascending: true)]
    static let favorites = StoreFilter.compare(.field(.isFavorite), .equal, .value(.integer(1)))
    static let images = StoreFilter.compare(.field(.mediaType), .equal, .value(.integer(1)))

    /// Each fetch and the index whose order it reads.
    static func fetches(moment: Int64, album: Int64) -> [(what: String, query: AssetQuery, index: String)] { [
        ("every visible asset", AssetQuery(scope: .library), VisibleAssetIndexes.visibleByCreationDate),
        ("newest first", AssetQuery(scope: .library, sort: [StoreSort(.creationDate, ascending: false)]), VisibleAssetIndexes.visibleByCreationDate),
        ("images", AssetQuery(scope: .library, filter: images, sort: byCreationDate), VisibleAssetIndexes.visibleByMediaType),
        ("videos", AssetQuery(scope: .smartAlbum(subtype: 202)), VisibleAssetIndexes.visibleByMediaType),
        ("favorites", AssetQuery(scope: .library, filter: favorites, sort: byCreationDate), VisibleAssetIndexes.visibleByFavorite),
        ("favorites newest first", AssetQuery(scope: .library, filter: favorites, sort: [StoreSort(.creationDate, ascending: false)]), VisibleAssetIndexes.visibleByFavorite),
        ("hidden included", AssetQuery(scope: .library, includeHidden: true), "asset_by_creationDate"),
        ("by date added", AssetQuery(scope: .library, sort: [StoreSort(.addedDate, ascending: true)], includeHidden: true), "asset_by_addedDate"),
        ("a moment", AssetQuery(scope: .moment(moment)), "asset_by_moment"),
        ("an album", AssetQuery(scope: .album(album)), "albumAsset_by_position"),
        ("Recently Deleted", AssetQuery(scope: .recentlyDeleted), "asset_by_trashedDate"),
    ] }

    @Test func commonFetchesReadAnIndexInTheirOrder() throws {
        let server = try ThrowawayPostgres()
        let url = try server.createDatabase()
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("plans-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: files) }
        try PostgresLibraryDatabase.open(url: url).close()
        // Rows of each kind, so the plans are not those of empty tables: 40 moments, 4,000
        // assets in them (some favorites, videos, hidden, in Recently Deleted since this hour:
        // older ones would be purged on opening), an album of all.
        let database = url.lastPathComponent
        _ = try server.psql(
            """
            SET synchronous_commit = on;
            INSERT INTO collection (uuid, isList, type, subtype, startDate, creationDate)
                SELECT 'MOMENT' || n, 0, 3, 0, n * 100000.0, 0 FROM generate_series(1, 40) AS n;
            INSERT INTO asset (uuid, mediaType, mediaSubtypes, creationDate, addedDate, isFavorite, isHidden, trashedDate,
                               uniformTypeIdentifier, momentID)
                SELECT 'A' || n, 1 + (n % 7 = 0)::int, (n % 5 = 0)::int * 4, n * 1000.0, n, (n % 9 = 0)::int, (n % 31 = 0)::int,
                       CASE WHEN n % 50 = 0 THEN extract(epoch FROM now()) - n END, 'public.jpeg', (SELECT min(id) FROM collection WHERE type = 3) + n % 40
                FROM generate_series(1, 4000) AS n;
            INSERT INTO collection (uuid, isList, type, subtype, title, creationDate) VALUES ('ALBUM', 0, 1, 2, 'Album', 0);
            INSERT INTO albumAsset (albumID, assetID, position) SELECT (SELECT id FROM collection WHERE uuid = 'ALBUM'), id, 4000 - id FROM asset;
            """, database: database)
        // As autovacuum leaves a table: statistics, and a visibility map for index-only reads.
        // (The rows commit with `synchronous_commit` on: the server runs with it off, and
        // VACUUM marks no page all-visible before an asynchronous commit reaches the disk.)
        _ = try server.psql("VACUUM ANALYZE", database: database)
        // Opened after the VACUUM: a session holding a snapshot older than the rows would keep
        // their pages from being marked all-visible, and index-only reads would price as table reads.
        let store = try LibraryDatabase.open(postgres: url, files: files)
        let moment = try #require(Int64(server.psql("SELECT min(id) FROM collection WHERE type = 3", database: database)))
        let album = try #require(Int64(server.psql("SELECT id FROM collection WHERE uuid = 'ALBUM'", database: database)))

        func plan(_ statement: StoreSQL) throws -> String {
            try store.read { db in
                for setting in ["enable_seqscan", "enable_bitmapscan", "enable_sort", "enable_incremental_sort"] {
                    _ = try db.execute("SET LOCAL \(unescaped: setting) = off")
                }
                // Table reads priced as on an SSD (as the server's own guide advises there): on
                // these few pages the plan would otherwise turn on how many of them the
                // visibility map covers yet.
                _ = try db.execute("SET LOCAL random_page_cost = 1.1")
                return try db.texts("EXPLAIN \(statement)").joined(separator: "\n")
            }
        }
        for fetch in Self.fetches(moment: moment, album: album) {
            let steps = try plan(fetch.query.statement())
            #expect(!steps.contains("Sort"), "\(fetch.what) sorts:\n\(steps)")
            #expect(steps.contains(" using \(fetch.index.lowercased()) on "), "\(fetch.what) reads another index:\n\(steps)")
        }
        let steps = try plan(CollectionQuery(scope: .assetCollections(type: CollectionKind.moment, subtype: nil)).statement())
        #expect(!steps.contains("Sort") && steps.contains(" using collection_moments_by_startdate on "), "moments:\n\(steps)")

        // A search of the whole library reads its documents alone (`SearchDocumentCopies`),
        // hidden ones included or in a person's view too.
        let search = AssetQuery.Scope.search(SearchMatch(terms: ["harbour"], prefixLast: true))
        for query in [AssetQuery(scope: search), AssetQuery(scope: search, includeHidden: true), AssetQuery(scope: search, owner: 1)] {
            let statement = try #require(query.searchOfDocumentsAlone)
            let steps = try store.read { db in try db.texts("EXPLAIN \(statement)").joined(separator: "\n") }
            #expect(steps.contains(" on searchdocument") && !steps.contains(" on asset"), "\(steps)")
            // Each half reads its own documents (`SearchDocumentHalves`).
            let halves = try #require(query.searchOfDocumentsInHalves)
            for (half, table) in zip(halves, SearchDocumentHalves.tables.map { $0.lowercased() }) {
                let steps = try store.read { db in try db.texts("EXPLAIN \(half)").joined(separator: "\n") }
                let others = SearchDocumentHalves.tables.map { $0.lowercased() }.filter { $0 != table }
                #expect(steps.contains(" on \(table)") && !others.contains { steps.contains(" on \($0)") } && !steps.contains(" on asset"), "\(steps)")
            }
        }
        // Years, months, kinds and favorites are read from the documents' copies too; a filter
        // on another field is not.
        let favoritesOf2019 = StoreFilter.and([
            Self.favorites, .between(.field(.localCreationDate), lower: .value(.real(1_546_300_800)), upper: .value(.real(1_577_836_799))),
            .compare(.field(.localCreationMonth), .equal, .value(.integer(6))), .compare(.field(.mediaType), .equal, .value(.integer(1))),
        ])
        let filtered = try #require(AssetQuery(scope: search, filter: favoritesOf2019).searchOfDocumentsAlone)
        let filteredSteps = try store.read { db in try db.texts("EXPLAIN \(filtered)").joined(separator: "\n") }
        #expect(filteredSteps.contains(" on searchdocument") && !filteredSteps.contains(" on asset"), "\(filteredSteps)")
        let wide = StoreFilter.compare(.field(.pixelWidth), .greater, .value(.integer(1000)))
        #expect(AssetQuery(scope: search, filter: .and([Self.favorites, wide])).searchOfDocumentsAlone == nil)
        #expect(AssetQuery(scope: search, filter: wide).searchOfDocumentsInHalves == nil)
        #expect(AssetQuery(scope: search, includeAllBurstAssets: true).searchOfDocumentsAlone == nil)
        #expect(AssetQuery(scope: search, sourceTypes: 0b111).searchOfDocumentsAlone == nil)
    }

    /// The journal's statements on a journal of 300,000 rows read its index whatever values
    /// they are given: PostgreSQL keeps one plan for a statement it prepared, made for no
    /// value in particular, and for a one-sided range (`changeID <= $1`) that plan is a scan
    /// of the whole journal (the history's prune took 33-54 ms under the write lock so).
    @Test func theJournalsStatementsReadItsIndexForAnyBounds() throws {
        let server = try ThrowawayPostgres()
        let (_, database) = try server.createLibraryDatabase()
        _ = try server.psql(
            """
            INSERT INTO change (id, date, processID) SELECT n, n, 1 FROM generate_series(1, 50000) AS n;
            INSERT INTO changedObject (changeID, entity, objectID, uuid, wasVisible, isVisible, flags)
                SELECT n / 6 + 1, 1, n, 'A' || n, 1, 1, 0 FROM generate_series(1, 300000) AS n;
            """, database: database)
        _ = try server.psql("VACUUM ANALYZE", database: database)
        let statements: [(what: String, statement: StoreSQL)] =
            ChangeJournal.pruneStatements(floor: 100, cutoff: 164).prefix(2).map { ("the prune", $0) }
            + [("the journal read", ChangeJournal.changedObjects(after: 40_000, upTo: 40_010, entities: nil)),
               ("the journal read sent ahead", ChangeJournal.changedObjects(after: 40_000, upTo: nil, entities: nil))]
        for (index, (what, statement)) in statements.enumerated() {
            let (query, values) = PostgresSession.preparable(statement)
            let binds = values.map { value -> String in
                if let integer = value.int64 { return String(integer) }
                return "'\(value.string ?? "")'"
            }
            let plan = try server.psql(
                """
                SET plan_cache_mode = force_generic_plan;
                PREPARE statement\(index) AS \(query.sql);
                EXPLAIN EXECUTE statement\(index)(\(binds.joined(separator: ", ")));
                """, database: database)
            #expect(!plan.contains("Seq Scan on changedobject") && !plan.contains("Seq Scan on change "), "\(what) scans the journal:\n\(plan)")
            #expect(plan.contains("Index"), "\(what) reads no index:\n\(plan)")
        }
    }
}
