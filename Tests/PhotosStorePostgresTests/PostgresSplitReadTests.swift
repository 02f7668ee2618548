import Foundation
import PhotosLocking
import PhotosTestSupport
import Testing

@testable import PhotosStore
@testable import PhotosStorePostgres

/// A fetch ordered by a date that returned many ids is read in two key ranges at once, on two
/// connections sharing one snapshot (`PostgresEngine+Halves`): the halves, concatenated, are
/// the whole fetch, in its order, and one state of the library.
@Suite("PostgreSQL fetches read in halves", .postgresInstalled)
struct PostgresSplitReadTests {
    static let images = StoreFilter.compare(.field(.mediaType), .equal, .value(.integer(1)))
    static let favorites = StoreFilter.compare(.field(.isFavorite), .equal, .value(.integer(1)))

    /// Fetches a split applies to, ascending and descending, by each date it splits on.
    static let fetches: [(what: String, query: AssetQuery)] = [
        ("every visible asset", AssetQuery(scope: .library)),
        ("newest first", AssetQuery(scope: .library, sort: [StoreSort(.creationDate, ascending: false)])),
        ("images", AssetQuery(scope: .library, filter: images, sort: [StoreSort(.creationDate, ascending: true)])),
        ("favorites newest first", AssetQuery(scope: .library, filter: favorites, sort: [StoreSort(.creationDate, ascending: false)])),
        ("videos", AssetQuery(scope: .smartAlbum(subtype: 202))),
        ("hidden included", AssetQuery(scope: .library, includeHidden: true)),
        ("by date added, newest first", AssetQuery(scope: .library, sort: [StoreSort(.addedDate, ascending: false)])),
        ("by date added then creation", AssetQuery(scope: .library, sort: [StoreSort(.addedDate, ascending: true), StoreSort(.creationDate, ascending: false)])),
    ]

    /// A library of 3,000 assets: dates shared by three assets each (so the rows at the pivot
    /// are several, ordered by id), every 13th without a creation date (`NULL`, sorted first
    /// ascending and last descending), some hidden, favorites, videos and in Recently Deleted;
    /// analyzed, so the dates have a histogram.
    static func library(_ server: ThrowawayPostgres, query: String = "") throws -> (LibraryDatabase, PostgresEngine, URL, String) {
        let url = try server.createDatabase()
        let database = url.lastPathComponent
        try PostgresLibraryDatabase.open(url: url).close()
        _ = try server.psql(
            """
            INSERT INTO asset (uuid, mediaType, creationDate, addedDate, isFavorite, isHidden, trashedDate, uniformTypeIdentifier)
                SELECT 'A' || n, 1 + (n % 7 = 0)::int, CASE WHEN n % 13 = 0 THEN NULL ELSE (n / 3) * 1000.0 END,
                       ((3000 - n) / 2) * 10.0, (n % 9 = 0)::int, (n % 31 = 0)::int,
                       CASE WHEN n % 50 = 0 THEN extract(epoch FROM now()) END, 'public.jpeg'
                FROM generate_series(1, 3000) AS n;
            ANALYZE asset;
            """, database: database)
        let files = FileManager.default.temporaryDirectory.appendingPathComponent("halves-\(UUID().uuidString)")
        let store = try LibraryDatabase.open(postgres: URL(string: url.absoluteString + query)!, files: files)
        let engine = try #require(store.engine as? PostgresEngine)
        return (store, engine, files, database)
    }

    @Test func theHalvesAreTheWholeFetchInItsOrder() throws {
        let server = try ThrowawayPostgres()
        let (store, engine, files, _) = try Self.library(server)
        defer { try? FileManager.default.removeItem(at: files) }
        engine.splitReadsFrom.store(0, ordering: .relaxed)
        #expect(engine.middleKey(of: "creationdate", in: "asset") != nil, "the dates have a histogram")
        for fetch in Self.fetches {
            let whole = try engine.idsAndPosition(fetch.query.statement())
            let before = engine.readsInHalves.load(ordering: .relaxed)
            let split = try store.assetIDs(fetch.query)
            #expect(engine.readsInHalves.load(ordering: .relaxed) == before + 1, "\(fetch.what) was read in halves")
            #expect(whole.ids.count > 100, "\(fetch.what): \(whole.ids.count) ids")
            #expect(split.ids.elementsEqual(whole.ids), "\(fetch.what): \(split.ids.count) ids in halves, \(whole.ids.count) whole")
            #expect(split.position == whole.position)
        }
    }

    /// By default only a fetch whose statement returned 20,000 ids the last time is split:
    /// a small one costs less read whole.
    @Test func aSmallFetchIsReadWhole() throws {
        let server = try ThrowawayPostgres()
        let (store, engine, files, _) = try Self.library(server)
        defer { try? FileManager.default.removeItem(at: files) }
        #expect(engine.splitReadsFrom.load(ordering: .relaxed) == 20_000)
        for _ in 0..<3 { _ = try store.assetIDs(AssetQuery(scope: .library)) }
        #expect(engine.readsInHalves.load(ordering: .relaxed) == 0)
        // The count that decides is the statement's last one.
        engine.splitReadsFrom.store(2_000, ordering: .relaxed)
        _ = try store.assetIDs(AssetQuery(scope: .library))
        #expect(engine.readsInHalves.load(ordering: .relaxed) == 1, "2,000 or more ids the last time")
        _ = try store.assetIDs(AssetQuery(scope: .library, filter: Self.favorites))
        _ = try store.assetIDs(AssetQuery(scope: .library, filter: Self.favorites))
        #expect(engine.readsInHalves.load(ordering: .relaxed) == 1, "the favorites are fewer than 2,000")
    }

    /// Each half is read with the library's position: when a change committed between the
    /// two reads (here an asset of the first half deleted and one added to the second while the
    /// second half's connection waits), the positions differ and the fetch is read again,
    /// whole; the answer is one state of the library, never halves of two.
    @Test func aChangeBetweenTheHalvesIsNeverMixedIn() throws {
        let server = try ThrowawayPostgres()
        let (store, engine, files, database) = try Self.library(server)
        defer { try? FileManager.default.removeItem(at: files) }
        engine.splitReadsFrom.store(0, ordering: .relaxed)
        let query = AssetQuery(scope: .library)
        let before = try engine.idsAndPosition(query.statement())

        engine.secondHalfLagMilliseconds.store(3_000, ordering: .relaxed)
        let answer = Mutex<Result<(ids: [Int64], position: Int64), any Error>?>(nil)
        let reader = Thread {
            let read = Result { try store.assetIDs(query) }
            answer.withLock { $0 = read }
        }
        reader.start()
        // The second half's connection is asleep: the first half has been read.
        let deadline = Date().addingTimeInterval(30)
        var sleeping = 0
        while sleeping == 0, Date() < deadline {
            sleeping = Int(try server.psql("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(%' AND state = 'active'", database: database)) ?? 0
        }
        try #require(sleeping == 1, "the second half's connection never slept")
        _ = try server.psql(
            """
            INSERT INTO asset (uuid, mediaType, creationDate, addedDate, uniformTypeIdentifier) VALUES ('LATE', 1, 99999999.0, 1, 'public.jpeg');
            DELETE FROM asset WHERE id = \(before.ids[0]);
            UPDATE libraryPosition SET position = position + 1;
            """, database: database)
        while answer.withLock({ $0 == nil }), Date() < deadline { usleep(1000) }
        engine.secondHalfLagMilliseconds.store(0, ordering: .relaxed)
        let split = try #require(try answer.withLock { $0 }?.get())
        let after = try engine.idsAndPosition(query.statement())
        #expect(after.position == before.position + 1 && !after.ids.contains(before.ids[0]) && after.ids.count == before.ids.count)
        #expect(split.ids.elementsEqual(after.ids), "\(split.ids.count) ids; \(split.ids.contains(before.ids[0]) ? "with" : "without") the deleted one")
        #expect(split.position == after.position)
        #expect(engine.readsInHalves.load(ordering: .relaxed) == 1, "the second half was read on its own connection")
    }

    /// With every connection of the pool in use, the first connection reads the second half
    /// itself after a short wait, rather than waiting for one (two fetches each holding one of
    /// two connections would wait for each other).
    @Test func withNoSpareConnectionTheFirstReadsBothHalves() throws {
        let server = try ThrowawayPostgres()
        let (store, engine, files, _) = try Self.library(server, query: "?pool_max=2")
        defer { try? FileManager.default.removeItem(at: files) }
        engine.splitReadsFrom.store(0, ordering: .relaxed)
        let query = AssetQuery(scope: .library)
        let whole = try engine.idsAndPosition(query.statement())
        let held = try engine.takeSession()
        defer { held.giveBack() }
        let started = ContinuousClock.now
        let split = try store.assetIDs(query)
        #expect(split.ids.elementsEqual(whole.ids), "\(split.ids.count) ids, \(whole.ids.count) read whole")
        #expect(engine.readsInHalves.load(ordering: .relaxed) == 0)
        #expect(ContinuousClock.now - started < .seconds(2), "waited \(ContinuousClock.now - started)")
    }

    // MARK: - Searches (`SearchDocumentHalves`)

    /// ``library(_:query:)`` with a document for each asset: "harbour" in every one, "pier"
    /// in every third.
    static func searchLibrary(_ server: ThrowawayPostgres, query: String = "") throws -> (LibraryDatabase, PostgresEngine, URL, String) {
        let (store, engine, files, database) = try library(server, query: query)
        _ = try server.psql(
            """
            INSERT INTO searchDocument (assetID, words)
                SELECT id, 'harbour ' || CASE WHEN id % 3 = 0 THEN 'pier ' ELSE '' END || lower(uuid) || repeat(' harbour', (id % 4)::int) FROM asset
                ON CONFLICT (assetID) DO UPDATE SET words = excluded.words;
            ANALYZE searchDocument;
            """, database: database)
        return (store, engine, files, database)
    }

    static let harbour = AssetQuery(scope: .search(SearchMatch(terms: ["harbour"], prefixLast: true)))

    @Test func aSearchIsReadInItsDocumentsHalvesAndTheyAreTheWholeSearch() throws {
        let server = try ThrowawayPostgres()
        let (store, engine, files, _) = try Self.searchLibrary(server)
        defer { try? FileManager.default.removeItem(at: files) }
        let searches = [
            Self.harbour, AssetQuery(scope: .search(SearchMatch(terms: ["harbour", "pier"], prefixLast: false)), includeHidden: true),
        ]
        for query in searches {
            let whole = try engine.rankedMatchesAndPosition(try #require(query.searchOfDocumentsAlone))
            let halves = try #require(query.searchOfDocumentsInHalves).map { try engine.rankedMatchesAndPosition($0).matches.map(\.id) }
            #expect(halves.allSatisfy { !$0.isEmpty } && Set(halves[0]).isDisjoint(with: halves[1]), "\(halves.map(\.count))")
            let before = engine.readsInHalves.load(ordering: .relaxed)
            // Not run yet: read in halves, whatever its size.
            let split = try store.assetIDs(query)
            #expect(engine.readsInHalves.load(ordering: .relaxed) == before + 1, "read in halves")
            #expect(whole.matches.count > 100, "\(whole.matches.count) matches of \(query.searchOfDocumentsAlone.map { $0.rendered(for: .postgres).sql } ?? "")")
            #expect(split.ids == RankedMatch.sorted(whole.matches), "\(split.ids.count) ids in halves, \(whole.matches.count) whole")
            #expect(split.position == whole.position)
        }
        // A search that found fewer than `splitReadsFrom` the last time is read whole.
        let before = engine.readsInHalves.load(ordering: .relaxed)
        let again = try store.assetIDs(Self.harbour)
        #expect(engine.readsInHalves.load(ordering: .relaxed) == before, "a narrow search read whole")
        engine.splitReadsFrom.store(100, ordering: .relaxed)
        #expect(try store.assetIDs(Self.harbour).ids == again.ids)
        #expect(engine.readsInHalves.load(ordering: .relaxed) == before + 1, "more than 100 matches the last time")
    }

    /// As a fetch's halves: a change committed between the two halves' reads makes the search
    /// read again, whole.
    @Test func aChangeBetweenASearchsHalvesIsNeverMixedIn() throws {
        let server = try ThrowawayPostgres()
        let (store, engine, files, database) = try Self.searchLibrary(server)
        defer { try? FileManager.default.removeItem(at: files) }
        let before = try store.assetIDs(Self.harbour)
        engine.splitReadsFrom.store(0, ordering: .relaxed)
        engine.secondHalfLagMilliseconds.store(3_000, ordering: .relaxed)
        let answer = Mutex<Result<(ids: [Int64], position: Int64), any Error>?>(nil)
        let reader = Thread {
            let read = Result { try store.assetIDs(Self.harbour) }
            answer.withLock { $0 = read }
        }
        reader.start()
        let deadline = Date().addingTimeInterval(30)
        var sleeping = 0
        while sleeping == 0, Date() < deadline {
            sleeping = Int(try server.psql("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(%' AND state = 'active'", database: database)) ?? 0
        }
        try #require(sleeping == 1, "the second half's connection never slept")
        // The best match leaves (its asset deleted) and a new one arrives.
        _ = try server.psql(
            """
            INSERT INTO asset (uuid, mediaType, creationDate, addedDate, uniformTypeIdentifier) VALUES ('LATE', 1, 99999999.0, 1, 'public.jpeg');
            INSERT INTO searchDocument (assetID, words) SELECT id, 'harbour late' FROM asset WHERE uuid = 'LATE';
            DELETE FROM asset WHERE id = \(before.ids[0]);
            UPDATE libraryPosition SET position = position + 1;
            """, database: database)
        while answer.withLock({ $0 == nil }), Date() < deadline { usleep(1000) }
        engine.secondHalfLagMilliseconds.store(0, ordering: .relaxed)
        let split = try #require(try answer.withLock { $0 }?.get())
        let after = try engine.rankedMatchesAndPosition(try #require(Self.harbour.searchOfDocumentsAlone))
        #expect(after.position == before.position + 1 && after.matches.count == before.ids.count)
        #expect(split.ids == RankedMatch.sorted(after.matches), "\(split.ids.count) ids; \(split.ids.contains(before.ids[0]) ? "with" : "without") the deleted one")
        #expect(split.position == after.position)
        #expect(engine.readsInHalves.load(ordering: .relaxed) == 2, "the second halves were read on their own connection")
    }
}
