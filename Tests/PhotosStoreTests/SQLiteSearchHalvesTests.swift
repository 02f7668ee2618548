import Foundation
import GRDB
import PhotosLocking
import Testing

@testable import PhotosStore

/// A SQLite search read in two halves of the asset ids at once
/// (``AssetQuery/searchInRankOrderInHalves``, `SQLiteEngine.rankedMatchesAndPosition(_:parts:)`):
/// the halves together are the whole search in its order, each is one state of the library,
/// and a change committed between them makes the search read again, whole.
@Suite("SQLite searches read in halves")
struct SQLiteSearchHalvesTests {
    /// 600 assets, each with "harbour" in its title (some twice, so the ranks differ), every
    /// third with "pier", dates shared by three; some hidden or in Recently Deleted.
    static func library(in folder: URL) throws -> (LibraryDatabase, SQLiteEngine) {
        let store = try LibraryDatabase.open(at: folder)
        try store.write { db in
            for index in 1...600 {
                let title = "harbour " + (index % 3 == 0 ? "pier " : "") + (index % 4 == 0 ? "harbour wall" : "boats")
                try db.execute(
                    """
                    INSERT INTO asset (id, uuid, mediaType, addedDate, uniformTypeIdentifier, creationDate, title, isHidden, trashedDate) \
                    VALUES (\(Int64(index)), \("A\(index)"), 1, 0, 'public.jpeg', \(Double(1_600_000_000 + index / 3)), \(title), \
                    \(index % 31 == 0 ? 1 : 0), \(index % 50 == 0 ? 1_700_000_000.0 : nil))
                    """)
            }
            try SearchDocuments(db: db, gazetteer: .custom(nil)).refresh((1...600).map { Int64($0) })
        }
        let engine = try #require(store.engine as? SQLiteEngine)
        return (store, engine)
    }

    static let searches: [(String, AssetQuery)] = [
        ("harbour", AssetQuery(scope: .search(SearchMatch(terms: ["harb"], prefixLast: true)))),
        ("harbour pier, hidden ones too", AssetQuery(scope: .search(SearchMatch(terms: ["harbour", "pier"], prefixLast: false)), includeHidden: true)),
        ("a filtered search", AssetQuery(scope: .search(SearchMatch(terms: ["harbour"], prefixLast: false)),
            filter: .compare(.field(.mediaType), .equal, .value(.integer(1))))),
    ]

    @Test func theHalvesAreTheWholeSearchInItsOrder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("halves-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (store, engine) = try Self.library(in: folder)
        for (what, query) in Self.searches {
            let whole = try engine.rankedMatchesAndPosition(try #require(query.searchInRankOrder))
            let halves = try #require(query.searchInRankOrderInHalves).map { try engine.rankedMatchesAndPosition($0).matches.map(\.id) }
            #expect(halves.allSatisfy { $0.count > 50 } && Set(halves[0]).isDisjoint(with: halves[1]), "\(what): \(halves.map(\.count))")
            let before = engine.searchesInHalves.load(ordering: .relaxed)
            let split = try store.assetIDs(query)  // Not run yet: read in halves.
            #expect(engine.searchesInHalves.load(ordering: .relaxed) == before + 1, "\(what) was read in halves")
            #expect(whole.matches.count > 100 && split.ids == RankedMatch.sorted(whole.matches), "\(what): \(split.ids.count) in halves, \(whole.matches.count) whole")
            #expect(split.position == whole.position)
        }
        // A search that found fewer than `splitSearchesFrom` (20,000) the last time is read whole.
        let before = engine.searchesInHalves.load(ordering: .relaxed)
        let again = try store.assetIDs(Self.searches[0].1)
        #expect(engine.searchesInHalves.load(ordering: .relaxed) == before)
        // Another search of the same statement with other words is its own: not run yet.
        _ = try store.assetIDs(AssetQuery(scope: .search(SearchMatch(terms: ["boats"], prefixLast: true))))
        #expect(engine.searchesInHalves.load(ordering: .relaxed) == before + 1, "other words, read in halves")
        engine.splitSearchesFrom.store(100, ordering: .relaxed)
        #expect(try store.assetIDs(Self.searches[0].1).ids == again.ids)
        #expect(engine.searchesInHalves.load(ordering: .relaxed) == before + 2, "more than 100 matches the last time")
    }

    @Test func aChangeBetweenTheHalvesIsNeverMixedIn() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("halves-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (store, engine) = try Self.library(in: folder)
        let query = Self.searches[0].1
        let before = try store.assetIDs(query)
        // Between the halves, the best match of the first half goes to Recently Deleted and an
        // asset of the second half comes back from it, in one change.
        let firstHalf = Set(try engine.rankedMatchesAndPosition(try #require(query.searchInRankOrderInHalves)[0]).matches.map(\.id))
        let leaving = try #require(before.ids.first { firstHalf.contains($0) })
        let failure = Mutex<(any Error)?>(nil)
        engine.betweenSearchHalves.withLock { hook in
            hook = {
                do {
                    try store.write { db in
                        try db.execute("UPDATE asset SET trashedDate = 1700000000.0 WHERE id = \(leaving)")
                        try db.execute("UPDATE asset SET trashedDate = NULL WHERE id = 600")
                        // The position moves, as a change's journal moves it.
                        try db.execute("INSERT INTO change (date, processID) VALUES (0, 0)")
                    }
                } catch {
                    failure.withLock { $0 = error }
                }
            }
        }
        engine.splitSearchesFrom.store(0, ordering: .relaxed)
        let split = try store.assetIDs(query)
        engine.betweenSearchHalves.withLock { $0 = nil }
        if let error = failure.withLock({ $0 }) { throw error }
        let after = try engine.rankedMatchesAndPosition(try #require(query.searchInRankOrder))
        #expect(after.position == before.position + 1 && after.matches.count == before.ids.count)
        #expect(split.ids == RankedMatch.sorted(after.matches), "\(split.ids.count) ids; \(split.ids.contains(leaving) ? "with" : "without") the deleted one")
        #expect(split.position == after.position)
        #expect(engine.searchesInHalves.load(ordering: .relaxed) == 1, "only the first search's halves were kept")
    }
}
