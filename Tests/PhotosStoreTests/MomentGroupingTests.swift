import Foundation
import GRDB
import PhotosTestSupport
import Testing

@testable import PhotosStore

@Suite("Incremental moment grouping")
struct MomentGroupingTests {
    /// After every random change, the moments kept incrementally must equal a grouping of all
    /// assets from scratch, and clusters likewise.
    @Test func incrementalGroupingMatchesAFullRegroup() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moments-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try LibraryDatabase.open(at: folder)
        var generator = SeededGenerator(seed: 7)
        var live: [String: Double] = [:]
        let hour = 3600.0

        for step in 0..<120 {
            var changes = StoreChangeSet(now: Date(timeIntervalSince1970: 2_000_000_000))
            switch Int.random(in: 0..<10, using: &generator) {
            case 0..<5:
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    let uuid = UUID().uuidString
                    let time = Double(Int.random(in: 0..<400, using: &generator)) * hour / 2
                    let located = Bool.random(using: &generator)
                    let record = AssetRecord(
                        uuid: uuid, mediaType: 1, creationDate: Date(timeIntervalSince1970: time),
                        addedDate: Date(timeIntervalSince1970: 0),
                        location: located ? LocationRecord(latitude: Double(Int.random(in: 0..<3, using: &generator)), longitude: 0) : nil,
                        uniformTypeIdentifier: "public.jpeg")
                    changes.newAssets.append(NewAsset(record: record, resources: []))
                    live[uuid] = time
                }
            case 5..<7 where !live.isEmpty:
                let uuid = live.keys.sorted().randomElement(using: &generator)!
                changes.trashedAssets = [uuid]
                live[uuid] = nil
            case 7..<9 where !live.isEmpty:
                let uuid = live.keys.sorted().randomElement(using: &generator)!
                let time = Double(Int.random(in: 0..<400, using: &generator)) * hour / 2
                var edit = AssetEdit()
                edit.creationDate = .some(Date(timeIntervalSince1970: time))
                changes.assetEdits[uuid] = edit
                live[uuid] = time
            default:
                continue
            }
            try store.commit(changes)
            try check(store, step: step)
        }
    }

    /// The walks to the nearest split read an index in time order a page at a time, for
    /// assets and for moments, never sorting the table (a sort a page made a commit's walk over
    /// a large library's moments quadratic: issue 19's import at scale).
    @Test func walksReadAnIndexInOrderWithoutSorting() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("moment-plans-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try LibraryDatabase.open(at: folder)
        try store.sqliteRead { db in
            let cases: [(ItemSequence, String)] = [
                (ItemSequence.moments(db), "collection_moments_by_startDate"),
                (ItemSequence.assets(db), "asset_by_creationDate"),
            ]
            for (sequence, index) in cases {
                for descending in [true, false] {
                    let (first, next) = sequence.statements(descending: descending)
                    for statement in [first.binding([.real(1)]), next.binding([.real(1), .integer(1)])] {
                        let (sql, arguments) = statement.grdb
                        let steps = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN " + sql, arguments: arguments).map { $0["detail"] as String }
                        #expect(steps.count == 1 && steps[0].contains("USING INDEX \(index)"), "\(sql): \(steps)")
                        #expect(!steps.contains { $0.contains("TEMP B-TREE") }, "\(sql): \(steps)")
                    }
                }
            }
        }
    }

    private func check(_ store: LibraryDatabase, step: Int) throws {
        try store.sqliteRead { db in
            let assets = try ItemSequence.assets(db).items(from: -Double.infinity, to: Double.infinity)
            let expected = MomentGrouper.split(assets, gap: MomentGrouper.momentGap, distance: MomentGrouper.momentDistance)
                .map { $0.map(\.id) }
            let actual = Dictionary(grouping: assets, by: { $0.group ?? -1 }).values
                .map { $0.map(\.id) }.sorted { $0[0] < $1[0] }
            #expect(actual.sorted { $0[0] < $1[0] } == expected.sorted { $0[0] < $1[0] }, "moments after step \(step)")
            #expect(!assets.contains { $0.group == nil }, "every dated asset has a moment")
            let momentCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM collection WHERE isList = 0 AND type = 3") ?? 0
            #expect(momentCount == expected.count, "no empty moments left after step \(step)")

            let moments = try ItemSequence.moments(db).items(from: -Double.infinity, to: Double.infinity)
            let clusters = MomentGrouper.split(moments, gap: MomentGrouper.clusterGap, distance: MomentGrouper.clusterDistance)
                .map { Set($0.map(\.id)) }
            let actualClusters = Dictionary(grouping: moments, by: { $0.group ?? -1 }).values.map { Set($0.map(\.id)) }
            #expect(Set(actualClusters) == Set(clusters), "clusters after step \(step)")
        }
    }
}
