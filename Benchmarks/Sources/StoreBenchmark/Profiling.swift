import BenchmarkSupport
import Foundation
import Photos

/// `StoreBenchmark profile random|enumerate|fetch`: PhotoKit's side of one measure alone, with
/// no sqlite3 runs and no checks, for a profiler. Each workload is one `@inline(never)`
/// function, so a profiler can be pointed at it, e.g.
///
/// ```
/// valgrind --tool=callgrind --toggle-collect='*ProfiledWorkload*random*' \
///     .build/release/StoreBenchmark profile random --assets 20000 --random-reads 5000
/// callgrind_annotate --inclusive=yes callgrind.out.*
/// ```
///
/// Instruction counts divided by `--random-reads` (or by the result's count) give the cost
/// per call (or per object).
enum ProfiledWorkload {
    static func run(_ options: Options, workload: String) throws {
        guard LibraryFixture.isCached(options) else {
            throw BenchmarkFailure("no generated library at \(options.libraryFolder.path); run `prepare` first")
        }
        let library = try PHPhotoLibrary(url: options.libraryFolder)
        let fetches = FetchMeasures(library: library, cli: try SQLiteCLI(executable: options.sqlite3, database: options.databaseFile), repeats: 1)
        let result = fetches.fetchEverything()
        _ = result.object(at: 0)
        let (checksum, nanos): (Int, UInt64)
        switch workload {
        case "random": (checksum, nanos) = timed { random(result, calls: options.randomReads) }
        case "enumerate": (checksum, nanos) = timed { enumerate(result) }
        case "fetch": (checksum, nanos) = timed { fetch(fetches) }
        default: throw UsageError("profile takes random, enumerate or fetch")
        }
        blackHole(checksum)
        log("profile \(workload): \(Format.millis(nanos)) on a result of \(Format.count(result.count))")
    }

    @inline(never)
    static func random(_ result: PHFetchResult<PHAsset>, calls: Int) -> Int {
        var rng = SplitMix64(seed: 0x5EED)
        var checksum = 0
        for _ in 0..<calls { checksum &+= result.object(at: rng.index(below: result.count)).pixelWidth }
        return checksum
    }

    @inline(never)
    static func enumerate(_ result: PHFetchResult<PHAsset>) -> Int {
        var checksum = 0
        result.enumerateObjects { asset, _, _ in checksum &+= asset.pixelWidth }
        return checksum
    }

    @inline(never)
    static func fetch(_ fetches: FetchMeasures) -> Int {
        fetches.fetchImages().count
    }
}
