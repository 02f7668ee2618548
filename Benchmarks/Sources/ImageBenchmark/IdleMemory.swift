import BenchmarkSupport
import CMallocStats
import Foundation
import Photos

/// The memory after the cold run (issue 19, aim 6): the resident set when the last image was
/// delivered, then once the library reported its idle release (the image loader gives the
/// heap's free pages back 1 s after its renders went idle), then after one more
/// `malloc_trim(0)` of the benchmark's own (what is left that trimming can't give back); with
/// glibc's heap figures at each point and the memory cache's cost against its bound.
struct IdleMemory {
    struct Point {
        let residentKilobytes: Int
        let heapInUse: Int
        let arena: Int
        let free: Int

        static func now() -> Point {
            Point(
                residentKilobytes: ProcessMemory.residentKilobytes(), heapInUse: Int(cms_heap_bytes_in_use()),
                arena: Int(cms_arena_bytes()), free: Int(cms_free_bytes()))
        }
    }

    struct Outcome {
        let atLastDelivery: Point
        let afterIdleRelease: Point
        let afterExtraTrim: Point
        /// From the last delivery to the library's idle release (nil: none came in 15 s).
        let releaseMillis: Double?
        let statistics: PHPhotoLibrary.ImageMemoryStatistics
    }

    /// Call right after the cold run's last delivery; `releasesBefore` is the library's
    /// `idleMemoryReleases` before the cold run began.
    static func measure(library: PHPhotoLibrary, releasesBefore: Int, atLastDelivery: Point, deliveredAt: UInt64) -> Outcome {
        let deadline = deliveredAt + 15_000_000_000
        var releasedAt: UInt64?
        while monotonicNanos() < deadline {
            if library.imageMemoryStatistics.idleMemoryReleases > releasesBefore {
                releasedAt = monotonicNanos()
                break
            }
            usleep(5_000)  // polling a counter; the benchmark isn't a test
        }
        let afterRelease = Point.now()
        cms_trim()
        let afterTrim = Point.now()
        return Outcome(
            atLastDelivery: atLastDelivery, afterIdleRelease: afterRelease, afterExtraTrim: afterTrim,
            releaseMillis: releasedAt.map { Double($0 - deliveredAt) / 1e6 }, statistics: library.imageMemoryStatistics)
    }

    static func resultLine(_ outcome: Outcome) {
        func mib(_ bytes: Int) -> String { Format.fixed(Double(bytes) / 1_048_576, 1) }
        let s = outcome.statistics
        Output.result([
            "phase": "idle",
            "rss_last_delivery_kb": "\(outcome.atLastDelivery.residentKilobytes)",
            "rss_idle_kb": "\(outcome.afterIdleRelease.residentKilobytes)",
            "rss_extra_trim_kb": "\(outcome.afterExtraTrim.residentKilobytes)",
            "release_ms": outcome.releaseMillis.map { Format.fixed($0, 0) } ?? "none",
            "heap_in_use_mib": mib(outcome.atLastDelivery.heapInUse), "heap_in_use_idle_mib": mib(outcome.afterIdleRelease.heapInUse),
            "arena_mib": mib(outcome.atLastDelivery.arena), "arena_free_mib": mib(outcome.atLastDelivery.free),
            "cache_images": "\(s.cachedImages)", "cache_bytes": "\(s.cachedBytes)", "cache_peak_bytes": "\(s.peakCachedBytes)",
            "cache_limit_bytes": "\(s.cacheLimit)", "malloc_arena_max": ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] ?? "default",
        ])
        log(
            "Idle: resident \(Format.mebibytes(kilobytes: outcome.atLastDelivery.residentKilobytes)) at the last delivery "
                + "(malloc: \(mib(outcome.atLastDelivery.heapInUse)) MiB in use, \(mib(outcome.atLastDelivery.free)) MiB free in arenas of "
                + "\(mib(outcome.atLastDelivery.arena)) MiB), \(Format.mebibytes(kilobytes: outcome.afterIdleRelease.residentKilobytes)) "
                + "after the library's idle release (\(outcome.releaseMillis.map { Format.fixed($0, 0) + " ms later" } ?? "none in 15 s")), "
                + "\(Format.mebibytes(kilobytes: outcome.afterExtraTrim.residentKilobytes)) after one more malloc_trim; memory cache "
                + "\(s.cachedImages) images, \(mib(s.cachedBytes)) MiB (peak \(mib(s.peakCachedBytes))) of \(mib(s.cacheLimit)) MiB.")
    }
}
