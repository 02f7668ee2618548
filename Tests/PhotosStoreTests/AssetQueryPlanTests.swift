import Foundation
import GRDB
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// Issue 19: the common fetches of a large library read a partial index over the visible
/// assets in the fetch's order, with no table lookups and no sort. SQLite uses a partial index
/// only when the query repeats the index's terms, so these plans break loudly if
/// `AssetQuery`'s visibility terms and `VisibleAssetIndexes` drift apart.
@Suite("Asset query plans")
struct AssetQueryPlanTests {
    let temporary: TemporaryLibrary
    let store: LibraryDatabase
    let albumID: Int64

    init() throws {
        temporary = try TemporaryLibrary()
        store = try LibraryDatabase.open(at: temporary.url)
        albumID = try store.sqlite!.pool.write { db in
            // A few hundred rows of each kind, so the plans are not those of empty tables.
            try db.execute(
                sql: """
                    WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < 600)
                    INSERT INTO asset (uuid, mediaType, mediaSubtypes, creationDate, addedDate, isFavorite, isHidden, uniformTypeIdentifier)
                    SELECT printf('A%04d', n), 1 + (n % 7 = 0), (n % 5 = 0) * 4, n * 1000.0, 0, n % 9 = 0, n % 31 = 0, 'public.jpeg' FROM seq;
                    INSERT INTO collection (uuid, isList, type, subtype, title, creationDate) VALUES ('ALBUM', 0, 1, 2, 'Album', 0);
                    INSERT INTO albumAsset (albumID, assetID, position) SELECT last_insert_rowid(), id, 600 - id FROM asset;
                    """)
            return try Int64.fetchOne(db, sql: "SELECT id FROM collection WHERE uuid = 'ALBUM'")!
        }
    }

    /// `EXPLAIN QUERY PLAN`'s details, one line per step.
    func plan(_ query: AssetQuery, restrictedTo restriction: RowRestriction? = nil) throws -> [String] {
        var statement = query.statement(restrictedTo: restriction)
        if case .idParameter = restriction { statement = statement.binding([.integer(1)]) }
        let (sql, arguments) = statement.grdb
        return try store.sqlite!.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }
    }

    static let byCreationDate = [StoreSort(.creationDate, ascending: true)]

    /// A search narrowed by a time reads the index's matches first and looks each asset up by
    /// its id: driven by the date index instead, SQLite ran the full-text match once per asset
    /// of the year (20 s for "france 2019" on 1,000,000 assets, 8,081 found). The lookup is in
    /// `VisibleAssetIndexes.forSearch`, which holds all the search reads of the asset.
    @Test func aSearchNarrowedByTimeReadsTheMatchesFirst() throws {
        let year = StoreFilter.and([
            .between(.field(.creationDate), lower: .value(.real(1000)), upper: .value(.real(90_000))),
            .between(.field(.localCreationDate), lower: .value(.real(2000)), upper: .value(.real(80_000))),
        ])
        let query = AssetQuery(
            scope: .search(SearchMatch(terms: ["france"], prefixLast: false)), filter: year,
            sort: [StoreSort(.creationDate, ascending: false)])
        let steps = try plan(query)
        #expect(steps.first?.hasPrefix("SCAN searchIndex VIRTUAL TABLE") == true, "\(steps)")
        #expect(steps.contains { $0.hasPrefix("SEARCH asset USING INDEX asset_visible_search_lookup (id=?") }, "\(steps)")
    }

    /// Each match of a search is looked up in the search's index, not the table, whatever the
    /// search asks of it: kinds, favorites, months, a person's view, hidden
    /// ones included. A search that sees bursts' other frames leaves the partial index's terms,
    /// so it is left to the planner (the table by its row id).
    @Test func aSearchLooksEachMatchUpInItsOwnIndex() throws {
        let match = AssetQuery.Scope.search(SearchMatch(terms: ["lyon"], prefixLast: true))
        let kinds = StoreFilter.and([
            .compare(.field(.mediaType), .equal, .value(.integer(2))),
            .compare(.bitwiseAnd(.field(.mediaSubtypes), .value(.integer(4))), .equal, .value(.integer(4))),
            .compare(.field(.isFavorite), .equal, .value(.integer(1))),
            .isIn(.field(.localCreationMonth), [.integer(6)]),
        ])
        let person = AssetQuery(scope: match, filter: kinds, owner: 3)
        for query in [AssetQuery(scope: match), AssetQuery(scope: match, includeHidden: true), person] {
            let steps = try plan(query)
            #expect(steps.first?.hasPrefix("SCAN searchIndex VIRTUAL TABLE") == true, "\(steps)")
            #expect(steps.contains { $0.hasPrefix("SEARCH asset USING INDEX \(VisibleAssetIndexes.forSearch.name) (id=?") }, "\(steps)")
        }
        let withBursts = try plan(AssetQuery(scope: match, includeAllBurstAssets: true))
        #expect(withBursts.contains("SEARCH asset USING INTEGER PRIMARY KEY (rowid=?)"), "\(withBursts)")
    }

    @Test func everyVisibleAssetByCreationDateIsOneIndexScanWithoutASort() throws {
        for sort in [[], Self.byCreationDate] {
            let steps = try plan(AssetQuery(scope: .library, sort: sort))
            #expect(steps == ["SEARCH asset USING INDEX \(VisibleAssetIndexes.visibleByCreationDate) (isHidden=?)"], "\(sort)")
        }
    }

    @Test func imagesSearchTheVisibleMediaTypeIndexInOrder() throws {
        let images = StoreFilter.compare(.field(.mediaType), .equal, .value(.integer(1)))
        let steps = try plan(AssetQuery(scope: .library, filter: images, sort: Self.byCreationDate))
        #expect(steps == ["SEARCH asset USING INDEX \(VisibleAssetIndexes.visibleByMediaType) (mediaType=? AND isHidden=?)"])
        let videos = try plan(AssetQuery(scope: .smartAlbum(subtype: 202)))
        #expect(videos == ["SEARCH asset USING INDEX \(VisibleAssetIndexes.visibleByMediaType) (mediaType=? AND isHidden=?)"])
    }

    /// The gallery's order, newest first: the same indexes read backwards, the id tiebreaker in
    /// the same direction. With `id ASC` SQLite read the index and then sorted every row
    /// ("USE TEMP B-TREE FOR RIGHT PART OF ORDER BY"): 710 ms for 1,000,000 assets, 122 ms without.
    @Test func newestFirstReadsTheIndexBackwardsWithoutASort() throws {
        let newestFirst = [StoreSort(.creationDate, ascending: false)]
        let library = try plan(AssetQuery(scope: .library, sort: newestFirst))
        #expect(library == ["SEARCH asset USING INDEX \(VisibleAssetIndexes.visibleByCreationDate) (isHidden=?)"])
        let favorites = StoreFilter.compare(.field(.isFavorite), .equal, .value(.integer(1)))
        let favoriteSteps = try plan(AssetQuery(scope: .library, filter: favorites, sort: newestFirst))
        #expect(favoriteSteps == ["SEARCH asset USING INDEX \(VisibleAssetIndexes.visibleByFavorite) (isFavorite=? AND isHidden=?)"])
        let sql = AssetQuery(scope: .library, sort: newestFirst).statement().rendered(for: .sqlite).sql
        #expect(sql.hasSuffix("ORDER BY asset.creationDate DESC, asset.id DESC"))
    }

    @Test func favoritesSearchTheVisibleFavoriteIndexInOrder() throws {
        let favorites = StoreFilter.compare(.field(.isFavorite), .equal, .value(.integer(1)))
        let steps = try plan(AssetQuery(scope: .library, filter: favorites, sort: Self.byCreationDate))
        #expect(steps == ["SEARCH asset USING INDEX \(VisibleAssetIndexes.visibleByFavorite) (isFavorite=? AND isHidden=?)"])
        let smartAlbum = try plan(AssetQuery(scope: .smartAlbum(subtype: 203)))
        #expect(smartAlbum == ["SEARCH asset USING INDEX \(VisibleAssetIndexes.visibleByFavorite) (isFavorite=? AND isHidden=?)"])
        // Hidden ones included: the same index, then a sort of the favorites alone.
        let withHidden = try plan(AssetQuery(scope: .library, filter: favorites, sort: Self.byCreationDate, includeHidden: true))
        #expect(withHidden == ["SEARCH asset USING INDEX \(VisibleAssetIndexes.visibleByFavorite) (isFavorite=?)", "USE TEMP B-TREE FOR ORDER BY"])
    }

    @Test func bitMaskSmartAlbumsReadTheCreationDateIndex() throws {
        for subtype in [211, 201, 210] {  // Screenshots, Panoramas, Selfies
            let steps = try plan(AssetQuery(scope: .smartAlbum(subtype: subtype)))
            #expect(steps == ["SEARCH asset USING INDEX \(VisibleAssetIndexes.visibleByCreationDate) (isHidden=?)"], "\(subtype)")
        }
    }

    @Test func anAlbumReadsItsMembersVisibilityFromTheSmallIndex() throws {
        let steps = try plan(AssetQuery(scope: .album(albumID)))
        #expect(steps.count == 2)
        #expect(steps.first?.hasPrefix("SEARCH albumAsset USING COVERING INDEX albumAsset_by_position") == true)
        #expect(steps.last?.hasPrefix("SEARCH asset USING INDEX \(VisibleAssetIndexes.visibleByID)") == true)
        #expect(!steps.contains { $0.contains("TEMP B-TREE") })
    }

    /// The forced index is only for the whole album: a change-details probe of one row starts
    /// from that row, and a sorted or filtered album reads the table as before.
    @Test func anAlbumProbeOrSortIsLeftToThePlanner() throws {
        let probe = try plan(AssetQuery(scope: .album(albumID)), restrictedTo: .idParameter)
        #expect(probe.first?.contains("asset USING INTEGER PRIMARY KEY") == true, "\(probe)")
        let sorted = try plan(AssetQuery(scope: .album(albumID), sort: Self.byCreationDate))
        #expect(!sorted.joined().contains(VisibleAssetIndexes.visibleByID), "\(sorted)")
    }

    /// Options that lift a term of the indexes' `WHERE` can't use them, and still run.
    @Test func allSourceAndTrashFetchesUseTheFullIndexes() throws {
        let hidden = try plan(AssetQuery(scope: .library, includeHidden: true))
        #expect(hidden == ["SCAN asset USING INDEX asset_by_creationDate"])
        let everySource = try plan(AssetQuery(scope: .library, sourceTypes: 0b111))
        #expect(!everySource.joined().contains("asset_visible_"), "\(everySource)")
        let trash = try plan(AssetQuery(scope: .recentlyDeleted))
        #expect(!trash.joined().contains("asset_visible_"), "\(trash)")
    }

    /// The partial index answers exactly what a table scan answers.
    @Test func theIndexedAnswersAreTheTableScansAnswers() throws {
        let queries: [AssetQuery] = [
            AssetQuery(scope: .library),
            AssetQuery(scope: .library, filter: .compare(.field(.mediaType), .equal, .value(.integer(1)))),
            AssetQuery(scope: .smartAlbum(subtype: 203)),
            AssetQuery(scope: .smartAlbum(subtype: 211)),
            AssetQuery(scope: .album(albumID)),
            AssetQuery(scope: .library, filter: .compare(.field(.isFavorite), .equal, .value(.integer(1))), includeHidden: true),
        ]
        for query in queries {
            let (sql, arguments) = query.statement().grdb
            let indexed = try store.sqlite!.pool.read { db in try Int64.fetchAll(db, sql: sql, arguments: arguments) }
            let scanned = try store.sqlite!.pool.read { db in
                try Int64.fetchAll(
                    db,
                    sql: sql.replacingOccurrences(of: " INDEXED BY \(VisibleAssetIndexes.visibleByID)", with: "")
                        .replacingOccurrences(of: "FROM asset", with: "FROM asset NOT INDEXED"),
                    arguments: arguments)
            }
            #expect(!indexed.isEmpty)
            #expect(indexed == scanned, "\(query.scope)")
        }
    }
}

/// The duplicate check of an import probes the library once a file: by size and signature,
/// never every file of the same size (issue 19: 200,000 files of one size imported at 90 a
/// second with the scan).
@Suite("Duplicate lookup plan")
struct DuplicateLookupPlanTests {
    @Test func candidatesAreTwoSeeksOfSizeAndSignature() throws {
        let temporary = try TemporaryLibrary()
        let store = try LibraryDatabase.open(at: temporary.url)
        let (sql, arguments) = LibraryDatabase.duplicateCandidates(fileSize: 1_555, signature: "signature").grdb
        let steps = try store.sqlite!.pool.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
        }
        let seeks = steps.filter { $0.contains("resource_by_size_signature") }
        #expect(seeks.count == 2, "\(steps)")
        #expect(seeks.allSatisfy { $0.contains("(fileSize=? AND contentSignature=?)") }, "\(steps)")
    }
}

extension StoreSQL {
    /// The statement as GRDB runs it on SQLite: its text and arguments.
    var grdb: (sql: String, arguments: StatementArguments) {
        let (sql, binds) = rendered(for: .sqlite)
        return (sql, StatementArguments(binds.map(\.databaseValue)))
    }
}
