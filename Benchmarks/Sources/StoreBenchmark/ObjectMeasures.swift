import BenchmarkSupport
import Foundation
import Photos

/// Measures that read objects out of the 1M result.
struct ObjectMeasures {
    let result: PHFetchResult<PHAsset>
    /// The row ids of `result`, in order, as sqlite3 returned them.
    let rowIDs: [Int64]
    let cli: SQLiteCLI
    let repeats: Int
    let startup: UInt64
    /// What the store reads for an object (``PeerQueries/assetColumns(_:)``).
    let assetColumns: String

    /// Measure 3: `object(at:)` at `calls` random indexes, each call timed on its own.
    ///
    /// A jump reads one row (`SELECT … WHERE asset.id = ?`) and builds one `PHAsset`. The peer
    /// is the same single-row `SELECT`, one per line, for the same rows, in one sqlite3 batch:
    /// its wall time less start-up, per row. It can't show a per-call distribution, and it
    /// also parses and prepares every statement (no statement cache in the shell).
    func randomAccess(calls: Int) throws -> Results.RandomAccess {
        var rng = SplitMix64(seed: 0x5EED)
        let indexes = (0..<calls).map { _ in rng.index(below: result.count) }
        var checksum = 0
        for _ in 0..<1_000 {
            checksum &+= result.object(at: rng.index(below: result.count)).pixelWidth
        }

        var latencies = [UInt64](repeating: 0, count: calls)
        for (call, index) in indexes.enumerated() {
            let start = monotonicNanos()
            let asset = result.object(at: index)
            let end = monotonicNanos()
            latencies[call] = end &- start
            checksum &+= asset.pixelWidth
        }
        blackHole(checksum)

        let script = ".output /dev/null\n" + indexes.map { PeerQueries.singleRow(id: rowIDs[$0], columns: assetColumns) + ";" }.joined(separator: "\n")
        _ = try cli.run(script)
        let perRow = try (0..<repeats).map { _ -> UInt64 in
            let wall = try cli.run(script).wallNanos
            return UInt64(max(Int64(wall) - Int64(startup), 0)) / UInt64(calls)
        }
        return Results.RandomAccess(
            resultCount: result.count, latencies: Samples(latencies), peerPerRow: Samples(perRow),
            peerStatements: calls)
    }

    /// Measure 4: the whole result, with `enumerateObjects` and with `for asset in result`,
    /// reading `pixelWidth` of each asset. The peer selects every asset column (what the
    /// store reads for an object) of the same rows in the same order, to `/dev/null`.
    func enumeration(peerSQL: String) throws -> Results.Enumeration {
        _ = try cli.timedQuery(peerSQL)
        var enumerate: [UInt64] = [], forIn: [UInt64] = [], peer: [UInt64] = []
        for _ in 0..<repeats {
            let (first, enumerateNanos) = timed { () -> Int in
                var sum = 0
                result.enumerateObjects { asset, _, _ in sum &+= asset.pixelWidth }
                return sum
            }
            let (second, forInNanos) = timed { () -> Int in
                var sum = 0
                for asset in result { sum &+= asset.pixelWidth }
                return sum
            }
            guard first == second else {
                throw BenchmarkFailure("enumerateObjects and for-in read different assets (\(first) vs \(second))")
            }
            enumerate.append(enumerateNanos)
            forIn.append(forInNanos)
            peer.append(try cli.timedQuery(peerSQL).queryNanos)
        }
        return Results.Enumeration(
            count: result.count, enumerateObjects: Samples(enumerate), forIn: Samples(forIn), peerQuery: Samples(peer))
    }
}

/// Keeps a value alive and observed, so the optimizer can't drop the work that made it.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
