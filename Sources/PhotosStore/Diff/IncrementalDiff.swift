import Foundation

/// Applies a change to an old fetch result without running the whole query again.
///
/// The objects the change did not touch keep their membership and their sort keys, so they
/// stay in the result in the same relative order: the *base*. The touched objects that match
/// now are read with their sort keys (one primary-key lookup each) and placed among the base
/// by binary search (galloping from the previous object's place), reading the sort keys of
/// the few base objects each search probes. The
/// cost is a scan and a copy of the id array (about 1 ms per million results) plus work
/// proportional to the change.
///
/// Where a read is a round trip (PostgreSQL: ~0.4 ms, against microseconds in SQLite's
/// process), each search step reads ``probesPerRead`` evenly spaced keys in one statement
/// and keeps the gap the target falls in: a many-way search, 4 reads instead of 16 to place
/// one object among 50,000. The touched rows are then read in one statement with the keys of
/// their old places' neighbours: a batch of toggles that keeps its order costs one read.
struct IncrementalDiff {
    let before: [Int64]
    let touched: Set<Int64>
    let terms: [OrderTerm]
    /// Reads the rows among `ids` that match the query now, with their sort keys, in one read
    /// (in any order; an id that doesn't match now is left out).
    let keyed: ([Int64]) throws -> [(id: Int64, key: SortKey)]
    let isChanged: (Int64) -> Bool
    /// How many keys one search step reads at once: 1 is a binary search.
    var probesPerRead = 1
    /// At most this many neighbours' keys are read with the touched rows (the rest a read of
    /// this many each).
    static let neighboursPerRead = 1024

    func run() throws -> FetchDiff {
        let hits = touchedIndexes()
        let baseCount = before.count - hits.count
        var keys: [Int64: SortKey] = [:]
        // The touched rows that match now, read with (where a read is a round trip) the keys of
        // the base objects on each side of every touched object's old place: most changes keep
        // the order, and those keys show it.
        var neighbours: [Int64] = []
        if probesPerRead > 1 {
            var seen: Set<Int64> = []
            for (order, index) in hits.enumerated() {
                let old = index - order
                for base in [old - 1, old] where base >= 0 && base < baseCount {
                    let id = before[beforeIndex(ofBase: base, hits: hits)]
                    if seen.insert(id).inserted { neighbours.append(id) }
                }
            }
        }
        let first = min(neighbours.count, Self.neighboursPerRead)
        var matching: [(id: Int64, key: SortKey)] = []
        for row in try keyed(Array(touched) + neighbours[..<first]) {
            if touched.contains(row.id) { matching.append(row) } else { keys[row.id] = row.key }
        }
        matching.sort { SortKey.compare($0.key, $1.key, terms: terms) < 0 }
        for start in stride(from: first, to: neighbours.count, by: Self.neighboursPerRead) {
            try read(Array(neighbours[start..<min(start + Self.neighboursPerRead, neighbours.count)]), into: &keys)
        }
        /// Reads, in one go, the keys of the base objects at `indexes` not read yet.
        func prefetch(_ indexes: [Int]) throws {
            var ids: [Int64] = [], seen: Set<Int64> = []
            for index in indexes {
                let id = before[beforeIndex(ofBase: index, hits: hits)]
                if keys[id] == nil && seen.insert(id).inserted { ids.append(id) }
            }
            guard !ids.isEmpty else { return }
            try read(ids, into: &keys)
        }
        func key(ofBase index: Int) throws -> SortKey {
            let id = before[beforeIndex(ofBase: index, hits: hits)]
            if let key = keys[id] { return key }
            try read([id], into: &keys)
            return keys[id]!
        }
        func precedes(_ a: SortKey, _ b: SortKey) -> Bool { SortKey.compare(a, b, terms: terms) < 0 }

        var oldIndex: [Int64: Int] = [:]
        for (order, index) in hits.enumerated() { oldIndex[before[index]] = order }

        // Rank: how many base objects sort before each matching object.
        var ranks: [Int] = []
        ranks.reserveCapacity(matching.count)
        var low = 0
        for (id, target) in matching {
            var rank: Int?
            if let order = oldIndex[id] {
                // Most changes keep the order: try the old place first.
                let old = hits[order] - order
                if old >= low {
                    if probesPerRead > 1 { try prefetch([old - 1, old].filter { $0 >= low && $0 < baseCount }) }
                    let afterPrevious = try old == low || precedes(key(ofBase: old - 1), target)
                    let beforeNext = try old == baseCount || precedes(target, key(ofBase: old))
                    if afterPrevious && beforeNext { rank = old }
                }
            }
            if rank == nil {
                var lower = low, upper = baseCount
                if !ranks.isEmpty {
                    // After the first, each object lands at or after the previous one, usually
                    // near it: gallop from there (1, 2, 4, … places) before the binary search.
                    var step = 1
                    if probesPerRead > 1 {
                        // The gallop's places, read at once: after k steps it is at lower + 2^(k+1) - 2.
                        try prefetch((0..<min(probesPerRead, 61)).map { min(lower + (2 << $0) - 2, upper - 1) }.filter { $0 >= lower })
                    }
                    gallop: while lower < upper {
                        let probe = min(lower + step - 1, upper - 1)
                        guard try precedes(key(ofBase: probe), target) else {
                            upper = probe
                            break gallop
                        }
                        lower = probe + 1
                        step *= 2
                    }
                }
                while lower < upper {
                    if probesPerRead > 1 && upper - lower > 2 {
                        // Evenly spaced places inside the range, read at once; keep the gap
                        // between the last that sorts before the target and the first that doesn't.
                        let count = min(probesPerRead, upper - lower)
                        let places = (1...count).map { lower + $0 * (upper - lower) / (count + 1) }
                        try prefetch(places)
                        var below = lower, above = upper
                        for place in places {
                            if try precedes(key(ofBase: place), target) { below = place + 1 } else { above = place; break }
                        }
                        (lower, upper) = (below, above)
                        continue
                    }
                    if probesPerRead > 1 && upper - lower <= 2 { try prefetch(Array(lower..<upper)) }  // the last two at once
                    let middle = (lower + upper) / 2
                    if try precedes(key(ofBase: middle), target) { lower = middle + 1 } else { upper = middle }
                }
                rank = lower
            }
            ranks.append(rank!)
            low = rank!
        }

        var diff = FetchDiff(after: merged(matching, hits: hits, ranks: ranks))
        classify(matching, into: &diff, hits: hits, ranks: ranks, oldIndex: oldIndex)
        return diff
    }

    /// Reads the keys of `ids`, base objects of the result: each must still match (the
    /// journal would have listed it otherwise).
    private func read(_ ids: [Int64], into keys: inout [Int64: SortKey]) throws {
        let found = try keyed(ids)
        for (id, key) in found { keys[id] = key }
        if let missing = ids.first(where: { keys[$0] == nil }) {
            throw StoreError(.database, "An unchanged object \(missing) left a result; the journal missed a change")
        }
    }

    /// The indexes of touched objects in `before`, in order: one pass, with a bit table in
    /// front of the set so most ids cost a multiply, a shift and a load.
    private func touchedIndexes() -> [Int] {
        guard !touched.isEmpty else { return [] }
        var bitCount = 4096
        while bitCount < touched.count * 32 { bitCount <<= 1 }
        let shift = UInt64(64 - bitCount.trailingZeroBitCount)
        var table = [UInt64](repeating: 0, count: bitCount / 64)
        @inline(__always) func slot(_ id: Int64) -> Int {
            Int(truncatingIfNeeded: (UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15) >> shift)
        }
        for id in touched {
            let bit = slot(id)
            table[bit >> 6] |= 1 << UInt64(bit & 63)
        }
        var hits: [Int] = []
        table.withUnsafeBufferPointer { table in
            before.withUnsafeBufferPointer { ids in
                for index in 0..<ids.count {
                    let bit = slot(ids[index])
                    if table[bit >> 6] & (1 << UInt64(bit & 63)) != 0 && touched.contains(ids[index]) {
                        hits.append(index)
                    }
                }
            }
        }
        return hits
    }

    /// The index in `before` of the base object at `index` (base = `before` without hits).
    private func beforeIndex(ofBase index: Int, hits: [Int]) -> Int {
        // Hits before it: the j with hits[j] - j <= index (monotonic in j).
        var lower = 0, upper = hits.count
        while lower < upper {
            let middle = (lower + upper) / 2
            if hits[middle] - middle <= index { lower = middle + 1 } else { upper = middle }
        }
        return index + lower
    }

    /// The new ids: base runs copied between the matching objects placed at their ranks.
    private func merged(_ matching: [(id: Int64, key: SortKey)], hits: [Int], ranks: [Int]) -> [Int64] {
        var after: [Int64] = []
        after.reserveCapacity(before.count - hits.count + matching.count)
        var nextHit = 0
        var position = 0  // in before
        var copied = 0  // base objects copied
        func copyBase(upTo rank: Int) {
            while copied < rank {
                while nextHit < hits.count && hits[nextHit] < position { nextHit += 1 }
                let runEnd = nextHit < hits.count ? hits[nextHit] : before.count
                if position == runEnd {
                    position += 1
                    continue
                }
                let take = min(runEnd - position, rank - copied)
                after.append(contentsOf: before[position..<(position + take)])
                position += take
                copied += take
            }
        }
        for (offset, match) in matching.enumerated() {
            copyBase(upTo: ranks[offset])
            after.append(match.id)
        }
        copyBase(upTo: before.count - hits.count)
        return after
    }

    private func classify(
        _ matching: [(id: Int64, key: SortKey)], into diff: inout FetchDiff, hits: [Int], ranks: [Int], oldIndex: [Int64: Int]
    ) {
        var newIndex: [Int64: (to: Int, rank: Int)] = [:]
        for (offset, match) in matching.enumerated() {
            newIndex[match.id] = (ranks[offset] + offset, ranks[offset])
            if oldIndex[match.id] == nil { diff.inserted.insert(ranks[offset] + offset) }
        }
        // Touched objects in both: those whose place among the base is unchanged may stay,
        // as long as they keep their order among themselves.
        var candidates: [(from: Int, to: Int)] = []
        var moves: [FetchDiff.Move] = []
        for (order, index) in hits.enumerated() {
            let id = before[index]
            guard let (to, rank) = newIndex[id] else {
                diff.removed.insert(index)
                continue
            }
            if isChanged(id) { diff.changed.insert(to) }
            if index - order == rank {
                candidates.append((index, to))
            } else {
                moves.append(FetchDiff.Move(from: index, to: to))
            }
        }
        let staying = IdentifierDiff.longestIncreasingRun(candidates.map(\.to))
        for (position, pair) in candidates.enumerated() where !staying.contains(position) {
            moves.append(FetchDiff.Move(from: pair.from, to: pair.to))
        }
        diff.moves = moves.sorted { $0.to < $1.to }
    }
}
