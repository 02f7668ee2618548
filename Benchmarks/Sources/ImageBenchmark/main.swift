import BenchmarkSupport
import Foundation
import Photos

/// Image-loading benchmark: `PHImageManager.requestImage` on a folder of real photos, through
/// the public API only, in one process.
///
/// 1. Import the photos into a fresh library with `PHAssetImporter` (default options; not
///    timed), then drop the page cache and reset the peak-RSS mark.
/// 2. Cold: one asynchronous `.highQualityFormat` request per photo for a 256 × 256
///    `.aspectFit` image, all in flight at once, on the manager's core-sized pool: files/s.
/// 3. Warm: the same requests again and again from 2 threads, all memory-cache hits, with
///    `isSynchronous = true`, then asynchronously: hits/s and per-request latency.
/// 4. Memory: peak RSS (`VmHWM`) of the cold run and of the whole process; between the cold
///    and warm runs, the resident set at the last delivery and after the library's idle
///    memory release (`IdleMemory`). `--no-warm` stops after that (the HEIC and RAW sets).
/// 5. With `--cache-stress`, every photo again at 1440 and 2048 px: more decoded bytes than
///    the memory cache's bound, whose peak cost must stay within it (`CacheStress`).
///
/// Prints `RESULT key=value …` lines (standard output) and a summary (standard error). Run it
/// through `Benchmarks/run-image-benchmark.sh`, which builds in release and runs the peers
/// (vipsthumbnail, ImageMagick, Pillow, a libjpeg-turbo decode floor) on the same files.

func run(_ options: Options) throws {
    guard let photos = options.photos else { throw UsageError(Options.usage) }
    log("importing \(photos.path) into a fresh library under \(options.work.path) (not timed)")
    let library = try BenchmarkLibrary.importing(photos, into: options.work)
    defer { library.remove() }
    Output.importLine(library, bytes: library.originalBytes())

    let cache = !options.dropsCaches ? "kept" : PageCache.drop() ? "dropped" : "not-dropped"
    if cache == "not-dropped" {
        log("could not write /proc/sys/vm/drop_caches (needs root): the cold run reads the originals from memory")
    }
    let peakWasReset = ProcessMemory.resetPeak()
    let residentBefore = ProcessMemory.residentKilobytes()

    log("cold: \(library.assets.count) requests at once, \(options.size) × \(options.size) aspect fit")
    let releasesBefore = library.library.imageMemoryStatistics.idleMemoryReleases
    let cold = ColdLoad(assets: library.assets, size: options.size).run()
    let deliveredAt = monotonicNanos()
    let atLastDelivery = IdleMemory.Point.now()
    let coldPeak = ProcessMemory.peakKilobytes()
    Output.coldLine(cold, size: options.size, cache: cache, peakKilobytes: coldPeak, residentBefore: residentBefore)
    if !cold.failures.isEmpty || cold.delivered != cold.files || cold.degraded > 0 {
        throw BenchmarkFailure(
            "cold run: \(cold.delivered) of \(cold.files) delivered, \(cold.degraded) degraded; "
                + cold.failures.prefix(3).joined(separator: "; "))
    }

    log("idle: waiting for the library's idle memory release")
    IdleMemory.resultLine(
        IdleMemory.measure(library: library.library, releasesBefore: releasesBefore, atLastDelivery: atLastDelivery, deliveredAt: deliveredAt))

    var warm: [WarmLoad.Outcome] = []
    guard options.warm else {
        let peak = ProcessMemory.peakKilobytes()
        Output.memoryLine(coldPeak: coldPeak, peak: peak, resident: ProcessMemory.residentKilobytes(), peakWasReset: peakWasReset)
        Output.summary(library: library, size: options.size, cold: cold, warm: [], cache: cache, coldPeak: coldPeak, peak: peak)
        return
    }
    let load = WarmLoad(
        assets: library.assets, expected: cold.images, size: options.size, threads: options.threads,
        seconds: options.warmSeconds, window: options.asyncWindow)
    log("warm: isSynchronous, \(options.threads) threads, \(options.warmSeconds) s")
    warm.append(load.synchronous())
    Output.warmLine(warm[0])
    log("warm: async, \(options.threads) threads, ≤ \(options.asyncWindow) in flight each, \(options.warmSeconds) s")
    warm.append(load.asynchronous())
    Output.warmLine(warm[1])
    log("warm: async with default options (opportunistic), \(options.threads) threads, ≤ \(options.asyncWindow) in flight each, \(options.warmSeconds) s")
    warm.append(load.asynchronous(deliveryMode: .opportunistic))
    Output.warmLine(warm[2])

    let peak = ProcessMemory.peakKilobytes()
    Output.memoryLine(coldPeak: coldPeak, peak: peak, resident: ProcessMemory.residentKilobytes(), peakWasReset: peakWasReset)
    Output.summary(library: library, size: options.size, cold: cold, warm: warm, cache: cache, coldPeak: coldPeak, peak: peak)
    if !options.cacheStressSizes.isEmpty {
        log("cache stress: every photo at \(options.cacheStressSizes.map(String.init).joined(separator: ", ")) px")
        CacheStress.resultLine(CacheStress(assets: library.assets, sizes: options.cacheStressSizes).run(library: library.library))
    }
    if let failed = warm.first(where: { $0.failures > 0 }) {
        throw BenchmarkFailure("warm \(failed.mode): \(failed.failures) requests delivered no image")
    }
}

do {
    try run(try Options.parse(Array(CommandLine.arguments.dropFirst())))
} catch {
    FileHandle.standardError.write(Data("ImageBenchmark: \(error)\n".utf8))
    exit(1)
}
