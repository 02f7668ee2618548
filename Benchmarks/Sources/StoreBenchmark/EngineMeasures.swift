import BenchmarkSupport
import Foundation
import Photos
import PhotosPostgres

/// `engines`: the same fetches, reads and changes through PhotoKit on the generated SQLite
/// library and on its copy in PostgreSQL (`photos migrate`, made by run-store-benchmark.sh
/// `--only engines`), side by side in one process, alternating, on the same rows.
///
/// - Fetches (count known; first object read) for every measure of ``FetchMeasures``, checked
///   to return the same assets in the same order (counts, and identifiers at sampled indexes).
/// - Random `object(at:)` latency on the all-assets result.
/// - A favorite toggled through one handle: the commit (`performChangesAndWait`), and until a
///   second handle's observer, registered on a favorites fetch, has the change details.
struct EngineMeasures {
    struct Row {
        let title: String
        let sqlite: Samples
        let postgres: Samples
    }

    let sqlite: PHPhotoLibrary
    let postgres: PHPhotoLibrary
    let repeats: Int
    let randomReads: Int

    func run(database: URL, files: URL) throws -> [Row] {
        var rows: [Row] = []
        let engines = [("SQLite", sqlite), ("PostgreSQL", postgres)]
        let fetches: [(String, (FetchMeasures) -> PHFetchResult<PHAsset>)] = [
            ("images sorted by creationDate", { $0.fetchImages() }),
            ("favorites sorted by creationDate", { $0.fetchFavorites() }),
            ("every visible asset sorted by creationDate", { $0.fetchVisible() }),
            ("the Screenshots smart album", { $0.fetchScreenshots() }),
            ("an album of 100,000 in its order", { $0.fetchAlbum() }),
            ("every asset, hidden included, sorted by creationDate", { $0.fetchEverything() }),
        ]
        for (title, fetch) in fetches {
            log("engines: \(title)")
            let measures = engines.map { FetchMeasures(library: $0.1, cli: nil, repeats: repeats) }
            let warm = measures.map(fetch)
            try Self.verifySame(warm[0], warm[1], title: title)
            var counts: [[UInt64]] = [[], []], firsts: [[UInt64]] = [[], []]
            for _ in 0..<repeats {
                for (index, measure) in measures.enumerated() {
                    let (counted, nanos) = timed { () -> PHFetchResult<PHAsset> in
                        let result = fetch(measure)
                        _ = result.count
                        return result
                    }
                    counts[index].append(nanos)
                    withExtendedLifetime(counted) {}
                    let (first, firstNanos) = timed { () -> Int in fetch(measure).firstObject?.pixelWidth ?? -1 }
                    guard first >= 0 else { throw BenchmarkFailure("\(title): no first object") }
                    firsts[index].append(firstNanos)
                }
            }
            rows.append(Row(title: "Fetch \(title) (\(Format.count(warm[0].count))): count", sqlite: Samples(counts[0]), postgres: Samples(counts[1])))
            rows.append(Row(title: "… and its first object", sqlite: Samples(firsts[0]), postgres: Samples(firsts[1])))
        }

        log("engines: random object(at:)")
        var random: [Samples] = []
        for (_, library) in engines {
            let result = FetchMeasures(library: library, cli: nil, repeats: 1).fetchEverything()
            var rng = SplitMix64(seed: 0x5EED)
            var samples: [UInt64] = []
            samples.reserveCapacity(randomReads)
            for _ in 0..<randomReads {
                let index = rng.index(below: result.count)
                let (_, nanos) = timed { result.object(at: index).pixelWidth }
                samples.append(nanos)
            }
            random.append(Samples(samples))
        }
        rows.append(Row(title: "Random `object(at:)` on all assets (\(Format.count(randomReads)) calls)", sqlite: random[0], postgres: random[1]))

        log("engines: favorite toggles observed by a second handle")
        let others = [try PHPhotoLibrary(url: sqlite.url), try PHPhotoLibrary(database: database, files: files)]
        var commits: [Samples] = [], arrivals: [Samples] = []
        for (index, (_, library)) in engines.enumerated() {
            let (commit, arrival) = try Self.toggles(through: library, observedBy: others[index], count: max(20, repeats * 10))
            commits.append(commit)
            arrivals.append(arrival)
        }
        rows.append(Row(title: "Favorite toggle: `performChangesAndWait`", sqlite: commits[0], postgres: commits[1]))
        rows.append(Row(title: "… until another handle's observer has the details", sqlite: arrivals[0], postgres: arrivals[1]))
        return rows
    }

    /// The table: medians (three significant digits; the random reads' p99 too), and PostgreSQL's
    /// time over SQLite's.
    static func markdown(_ rows: [Row], assets: Int) -> String {
        var lines = [
            "| \(Format.count(assets)) assets | SQLite (median) | PostgreSQL (median) | PostgreSQL / SQLite |",
            "| --- | ---: | ---: | ---: |",
        ]
        for row in rows {
            let ratio = Double(row.postgres.median) / Double(max(1, row.sqlite.median))
            let sqlite = row.title.hasPrefix("Random") ? "\(Format.micros(row.sqlite.median)) (p99 \(Format.micros(row.sqlite.percentile(99))))" : Format.millis3(row.sqlite.median)
            let postgres = row.title.hasPrefix("Random") ? "\(Format.micros(row.postgres.median)) (p99 \(Format.micros(row.postgres.percentile(99))))" : Format.millis3(row.postgres.median)
            lines.append("| \(row.title) | \(sqlite) | \(postgres) | \(String(format: "%.1f×", ratio)) |")
        }
        return lines.joined(separator: "\n")
    }

    /// Both results hold the same assets in the same order: counts, and identifiers at the ends
    /// and at 1,000 sampled indexes.
    static func verifySame(_ a: PHFetchResult<PHAsset>, _ b: PHFetchResult<PHAsset>, title: String) throws {
        guard a.count == b.count else { throw BenchmarkFailure("\(title): SQLite \(a.count) assets, PostgreSQL \(b.count)") }
        guard a.count > 0 else { return }
        var rng = SplitMix64(seed: 0xC0FFEE)
        for index in [0, a.count - 1] + (0..<1_000).map({ _ in rng.index(below: a.count) }) {
            guard a.object(at: index).localIdentifier == b.object(at: index).localIdentifier else {
                throw BenchmarkFailure("\(title): at index \(index) SQLite has \(a.object(at: index).localIdentifier), PostgreSQL \(b.object(at: index).localIdentifier)")
            }
        }
    }

    /// Toggles one asset's favorite `count` times through `library`; times each commit and
    /// the wait until `other`'s observer (on a favorites fetch) is called with details.
    static func toggles(through library: PHPhotoLibrary, observedBy other: PHPhotoLibrary, count: Int) throws -> (Samples, Samples) {
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "isFavorite == YES")
        let watched = other.withCurrent { PHAsset.fetchAssets(with: options) }
        let observer = DetailsObserver(watched: watched)
        other.register(observer)
        defer { other.unregisterChangeObserver(observer) }
        let asset = try library.withCurrent { () throws -> PHAsset in
            guard let asset = PHAsset.fetchAssets(with: .image, options: nil).firstObject else { throw BenchmarkFailure("no image to toggle") }
            return asset
        }
        var commits: [UInt64] = [], arrivals: [UInt64] = []
        for round in 0..<count {
            let favorite = round % 2 == 0 ? !asset.isFavorite : asset.isFavorite
            let start = DispatchTime.now().uptimeNanoseconds
            try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = favorite }
            commits.append(DispatchTime.now().uptimeNanoseconds - start)
            guard observer.arrived.wait(timeout: .now() + 30) == .success else { throw BenchmarkFailure("the other handle heard nothing") }
            arrivals.append(DispatchTime.now().uptimeNanoseconds - start)
        }
        return (Samples(commits), Samples(arrivals))
    }
}

/// Signals once per change that has details for the watched fetch, which it then follows.
final class DetailsObserver: NSObject, PHPhotoLibraryChangeObserver, @unchecked Sendable {
    // @unchecked Sendable: `watched` is read and replaced under `lock` only.
    let arrived = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var watched: PHFetchResult<PHAsset>

    init(watched: PHFetchResult<PHAsset>) {
        self.watched = watched
    }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        let details = lock.withLock { () -> PHFetchResultChangeDetails<PHAsset>? in
            guard let details = changeInstance.changeDetails(for: watched) else { return nil }
            watched = details.fetchResultAfterChanges
            return details
        }
        if details != nil { arrived.signal() }
    }
}
