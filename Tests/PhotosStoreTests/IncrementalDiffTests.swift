import Foundation
import GRDB
import PhotosTestSupport
import Testing

@testable import PhotosStore

/// The incremental diff against the obvious answer: sort everything that matches now.
@Suite("Incremental fetch diff")
struct IncrementalDiffTests {
    /// Rows keyed by (date, id), as `ORDER BY creationDate, id` sorts them.
    private static let terms = [OrderTerm("creationDate"), OrderTerm("id")]

    private static func key(_ id: Int64, _ date: Int) -> SortKey {
        SortKey(values: [.real(Double(date)), .integer(id)])
    }

    /// Applies a diff as a batch update (removals at old indexes; insertions and moves at new
    /// ones; the rest keep their order).
    private static func apply(_ diff: FetchDiff, to before: [Int64]) -> [Int64] {
        let count = before.count - diff.removed.count + diff.inserted.count
        var after = [Int64?](repeating: nil, count: count)
        for index in diff.inserted { after[index] = diff.after[index] }
        for move in diff.moves { after[move.to] = before[move.from] }
        let gone = Set(diff.removed).union(diff.moves.map(\.from))
        var rest = before.enumerated().filter { !gone.contains($0.offset) }.map(\.element).makeIterator()
        return after.map { $0 ?? rest.next() ?? -1 }
    }

    /// Seeds, and keys read per search step: 1 (SQLite's binary search) or 32 (PostgreSQL's
    /// many-way search, where each read is a round trip).
    @Test(arguments: [1, 2, 3], [1, 32])
    func randomChangesMatchASortedRerun(seed: UInt64, probesPerRead: Int) throws {
        var random = SeededGenerator(seed: 0xD1FF + seed)
        for round in 0..<300 {
            let count = Int.random(in: 0...400, using: &random)
            var dates: [Int64: Int] = [:]
            for id in 1...Int64(count + 50) where Bool.random(using: &random) || id <= Int64(count) {
                dates[id] = Int.random(in: 0..<200, using: &random)  // ties broken by id
            }
            let members = dates.keys.filter { $0 <= Int64(count) }
            let before = members.sorted { (dates[$0]!, $0) < (dates[$1]!, $1) }

            // Touch a few rows: some change date (move), some leave, some arrive, some only change.
            var now = dates
            var matchesNow = Set(before)
            var touched = Set<Int64>()
            var updated = Set<Int64>()
            for _ in 0..<Int.random(in: 1...max(1, count / 8 + 1), using: &random) {
                guard let id = dates.keys.randomElement(using: &random) else { break }
                touched.insert(id)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: now[id] = Int.random(in: 0..<200, using: &random); updated.insert(id)
                case 1: matchesNow.remove(id)
                case 2: matchesNow.insert(id)
                default: updated.insert(id)
                }
            }
            let expected = matchesNow.sorted { (now[$0]!, $0) < (now[$1]!, $1) }
            var probes = 0, reads = 0
            let diff = try IncrementalDiff(
                before: before, touched: touched, terms: Self.terms,
                keyed: { ids in
                    reads += 1
                    #expect(Set(ids).count == ids.count, "read a key twice in one go")
                    let base = ids.filter { !touched.contains($0) }
                    probes += base.count
                    if reads == 1 {
                        #expect(Set(ids).isSuperset(of: touched), "the first read misses touched rows")
                        #expect(base.count <= 2 * touched.count, "read \(base.count) neighbours with \(touched.count) touched rows")
                        if probesPerRead == 1 { #expect(base.isEmpty, "a binary search read neighbours with the touched rows") }
                    } else {
                        #expect(base.count == ids.count, "probed a touched row")
                        #expect(ids.count <= probesPerRead || ids.count <= 2, "read \(ids.count) keys at once")
                    }
                    return ids.compactMap { id in
                        touched.contains(id) && !matchesNow.contains(id) ? nil : (id, Self.key(id, now[id]!))
                    }
                },
                isChanged: updated.contains, probesPerRead: probesPerRead
            ).run()
            #expect(diff.after == expected, "round \(round)")
            #expect(Self.apply(diff, to: before) == expected, "round \(round): the batch update doesn't give the new order")
            for index in diff.changed { #expect(updated.contains(diff.after[index])) }
            #expect(Set(diff.removed.map { before[$0] }) == Set(before).subtracting(matchesNow))
            // Proportional to the change: a few probes per touched row, never a scan.
            let depth = log2(Double(max(count, 2)))
            if probesPerRead == 1 {
                #expect(probes <= touched.count * (2 * Int(depth) + 4) + 2, "round \(round): \(probes) probes")
            } else {
                // Reads, the round trips: the old place, the gallop, then log₃₃ of the range.
                let steps = Int((depth / log2(Double(probesPerRead + 1))).rounded(.up))
                #expect(reads - 1 <= touched.count * (steps + 3), "round \(round): \(reads) reads for \(touched.count) rows")
                #expect(probes <= touched.count * (probesPerRead * (steps + 1) + 64), "round \(round): \(probes) probes")
            }
        }
    }

    /// A favorite toggled on, seen by a fetch of 50,000 favorites: reading it, then placing it,
    /// is 1 + 16 reads as a binary search, 1 + 4 (round trips, on PostgreSQL) as a 32-way one.
    @Test(arguments: [(1, 17), (32, 5)])
    func oneArrivalAmongFiftyThousand(probesPerRead: Int, maximumReads: Int) throws {
        let before = (1...50_000).map { Int64($0 * 2) }
        for arriving in [Int64(1), 33_333, 100_001] {
            var reads = 0
            let diff = try IncrementalDiff(
                before: before, touched: [arriving], terms: Self.terms,
                keyed: { ids in
                    reads += 1
                    return ids.map { ($0, Self.key($0, 0)) }
                },
                isChanged: { _ in false }, probesPerRead: probesPerRead
            ).run()
            #expect(diff.after == (before + [arriving]).sorted(), "\(arriving)")
            #expect(diff.inserted == IndexSet(integer: Int((arriving - 1) / 2)))
            #expect(reads <= maximumReads, "\(reads) reads to place \(arriving)")
        }
    }

    /// A batch of favorites toggled in one change (group commit), each keeping its place in a
    /// result sorted by date: where a read is a round trip, the touched rows and their old
    /// places' neighbours are read in one statement; otherwise a read for the rows, then two an
    /// object.
    @Test(arguments: [(1, 21), (32, 1)])
    func aBatchKeepingItsOrderIsCheckedInOneRead(probesPerRead: Int, expectedReads: Int) throws {
        let before = (1...10_000).map { Int64($0) }
        let touched = (1...10).map { Int64($0 * 900) }
        var reads = 0
        let diff = try IncrementalDiff(
            before: before, touched: Set(touched), terms: Self.terms,
            keyed: { ids in
                reads += 1
                return ids.map { ($0, Self.key($0, Int($0))) }
            },
            isChanged: { touched.contains($0) }, probesPerRead: probesPerRead
        ).run()
        #expect(diff.after == before)
        #expect(diff.changed == IndexSet(touched.map { Int($0) - 1 }))
        #expect(reads == expectedReads, "\(reads) reads")
    }
}
