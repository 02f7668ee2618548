import Foundation
import Testing

@testable import PhotosStore

/// A big search's matches are sorted in two halves at once and merged
/// (``RankedMatch/sorted(_:)``): the same order as one sort, equal ranks and dates included.
@Suite("Search order")
struct RankedMatchOrderTests {
    @Test(arguments: [RankedMatch.sortedInHalvesFrom - 1, RankedMatch.sortedInHalvesFrom, 120_001])
    func halvesSortedAtOnceAreOneSort(count: Int) {
        var generator = SystemRandomNumberGenerator()
        // Few distinct ranks and dates, so most keys tie on both and the id decides; some
        // matches without a date.
        let matches = (0..<count).shuffled(using: &generator).map { id in
            RankedMatch(
                id: Int64(id), rank: -Double(Int.random(in: 0..<5, using: &generator)),
                creationDate: id % 17 == 0 ? nil : Double(Int.random(in: 0..<50, using: &generator)))
        }
        let expected = matches.sorted { a, b in
            if a.rank != b.rank { return a.rank < b.rank }
            if a.creationDate != b.creationDate {
                guard let left = a.creationDate else { return false }
                guard let right = b.creationDate else { return true }
                return left > right
            }
            return a.id < b.id
        }.map(\.id)
        #expect(RankedMatch.sorted(matches) == expected)
    }
}
