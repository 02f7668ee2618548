package import Foundation

/// How a fetch result's ids became another's, in the shape of `PHFetchResultChangeDetails`.
///
/// Applied as a collection view applies a batch update: remove ``removed`` (indexes into the
/// old ids), insert ``inserted`` (indexes into the new ids), move each of ``moves`` from its
/// old index to its new one; the objects left keep their relative order and fill the other
/// places. ``changed`` (new indexes) are objects whose properties changed; they are reloaded
/// after the batch.
package struct FetchDiff: Sendable, Equatable {
    package struct Move: Sendable, Hashable {
        package var from: Int
        package var to: Int

        package init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    package var after: [Int64]
    package var removed = IndexSet()
    package var inserted = IndexSet()
    package var changed = IndexSet()
    /// Ordered by new index.
    package var moves: [Move] = []
    /// False when the journal no longer covers the old result: only ``after`` is known.
    package var isIncremental = true

    package init(after: [Int64]) {
        self.after = after
    }

    /// Whether nothing about the result changed.
    package var isEmpty: Bool {
        isIncremental && removed.isEmpty && inserted.isEmpty && changed.isEmpty && moves.isEmpty
    }

    /// The number of index entries the diff holds.
    package var size: Int { removed.count + inserted.count + changed.count + moves.count }
}

/// Diffs of id arrays.
package enum IdentifierDiff {
    /// The diff between two whole arrays: removals and insertions by identity, and the
    /// fewest moves (the objects in a longest increasing run stay put). `isChanged` picks the
    /// common objects to report as changed.
    package static func diff<ID: Hashable>(
        before: [ID], after: [ID], isChanged: (ID) -> Bool
    ) -> (removed: IndexSet, inserted: IndexSet, changed: IndexSet, moves: [FetchDiff.Move]) {
        var changed = IndexSet()
        if before == after {
            for (index, id) in after.enumerated() where isChanged(id) { changed.insert(index) }
            return (IndexSet(), IndexSet(), changed, [])
        }
        var afterIndex = [ID: Int](minimumCapacity: after.count)
        for (index, id) in after.enumerated() { afterIndex[id] = index }
        var removed = IndexSet()
        var common: [(from: Int, to: Int)] = []
        var inBefore = Set<ID>(minimumCapacity: before.count)
        for (index, id) in before.enumerated() {
            inBefore.insert(id)
            if let to = afterIndex[id] {
                common.append((index, to))
            } else {
                removed.insert(index)
            }
        }
        var inserted = IndexSet()
        for (index, id) in after.enumerated() {
            if !inBefore.contains(id) {
                inserted.insert(index)
            } else if isChanged(id) {
                changed.insert(index)
            }
        }
        let staying = longestIncreasingRun(common.map(\.to))
        var moves: [FetchDiff.Move] = []
        for (position, pair) in common.enumerated() where !staying.contains(position) {
            moves.append(FetchDiff.Move(from: pair.from, to: pair.to))
        }
        moves.sort { $0.to < $1.to }
        return (removed, inserted, changed, moves)
    }

    /// The positions of one longest strictly increasing subsequence of `values`.
    static func longestIncreasingRun(_ values: [Int]) -> Set<Int> {
        guard !values.isEmpty else { return [] }
        var tails: [Int] = []  // positions in `values`
        var previous = [Int](repeating: -1, count: values.count)
        for (position, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var result = Set<Int>(minimumCapacity: tails.count)
        var position = tails[tails.count - 1]
        while position >= 0 {
            result.insert(position)
            position = previous[position]
        }
        return result
    }
}
