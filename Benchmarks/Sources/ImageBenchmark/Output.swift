import BenchmarkSupport
import Foundation

/// What the benchmark prints: `RESULT key=value …` lines on standard output, one per phase,
/// for `run-image-benchmark.sh` (values never contain spaces), then a summary for people on
/// standard error.
enum Output {
    static func result(_ fields: KeyValuePairs<String, String>) {
        let line = fields.map { "\($0.key)=\($0.value.replacingOccurrences(of: " ", with: "_"))" }.joined(separator: " ")
        print("RESULT \(line)")
        fflush(nil)  // all streams; stdout itself is a C global Swift 6 won't touch
    }

    static func importLine(_ library: BenchmarkLibrary, bytes: Int64) {
        result([
            "phase": "import", "files": "\(library.assets.count)", "seconds": Format.fixed(library.importSeconds),
            "original_bytes": "\(bytes)",
        ])
    }

    static func coldLine(_ cold: ColdLoad.Outcome, size: Int, cache: String, peakKilobytes: Int, residentBefore: Int) {
        result([
            "phase": "cold", "files": "\(cold.files)", "delivered": "\(cold.delivered)", "failed": "\(cold.failures.count)",
            "wrong_size": "\(cold.wrongSize)", "degraded": "\(cold.degraded)", "size": "\(size)",
            "wall_s": Format.fixed(Double(cold.wallNanos) / 1e9, 4), "files_per_s": Format.fixed(cold.filesPerSecond, 2),
            "first_ms": Format.fixed(Double(cold.firstNanos) / 1e6, 1), "page_cache": cache,
            "peak_rss_kb": "\(peakKilobytes)", "rss_before_kb": "\(residentBefore)", "pixel_bytes": "\(cold.pixelBytes)",
            "cores": "\(ProcessInfo.processInfo.activeProcessorCount)",
        ])
    }

    static func warmLine(_ warm: WarmLoad.Outcome) {
        let latencies = warm.latencies
        result([
            "phase": "warm-\(warm.mode)", "threads": "\(warm.threads)", "window": "\(warm.window)",
            "requests": "\(warm.requests)", "misses": "\(warm.misses)", "failed": "\(warm.failures)",
            "wall_s": Format.fixed(Double(warm.wallNanos) / 1e9, 4), "hits_per_s": Format.fixed(warm.hitsPerSecond, 0),
            "p50_us": Format.fixed(latencies.micros(50), 2), "p90_us": Format.fixed(latencies.micros(90), 2),
            "p99_us": Format.fixed(latencies.micros(99), 2), "p999_us": Format.fixed(latencies.micros(99.9), 2),
            "max_us": Format.fixed(latencies.micros(100), 1), "mean_us": Format.fixed(latencies.mean / 1e3, 2),
        ])
    }

    static func memoryLine(coldPeak: Int, peak: Int, resident: Int, peakWasReset: Bool) {
        result([
            "phase": "memory", "cold_peak_rss_kb": "\(coldPeak)", "peak_rss_kb": "\(peak)", "rss_kb": "\(resident)",
            "peak_reset_after_import": peakWasReset ? "yes" : "no",
        ])
    }

    static func summary(
        library: BenchmarkLibrary, size: Int, cold: ColdLoad.Outcome, warm: [WarmLoad.Outcome], cache: String, coldPeak: Int,
        peak: Int
    ) {
        var lines: [String] = []
        lines.append(
            "Imported \(library.assets.count) photos in \(Format.fixed(library.importSeconds, 2)) s (not timed below).")
        lines.append(
            "Cold (page cache \(cache)): \(cold.files) requests, \(size) × \(size) aspect fit, all in flight: "
                + "\(Format.fixed(Double(cold.wallNanos) / 1e9, 3)) s = \(Format.fixed(cold.filesPerSecond, 1)) files/s; "
                + "first image after \(Format.fixed(Double(cold.firstNanos) / 1e6, 1)) ms; "
                + "\(cold.delivered) delivered, \(cold.failures.count) failed, \(cold.wrongSize) of the wrong size; "
                + "peak RSS \(Format.mebibytes(kilobytes: coldPeak)).")
        for run in warm {
            let l = run.latencies
            let how = run.mode == "sync" ? "isSynchronous" : "async, ≤ \(run.window) in flight per thread"
            lines.append(
                "Warm \(run.mode) (\(how), \(run.threads) threads): \(Format.count(run.requests)) requests in "
                    + "\(Format.fixed(Double(run.wallNanos) / 1e9, 2)) s = \(Format.count(Int(run.hitsPerSecond))) hits/s; "
                    + "latency p50 \(Format.fixed(l.micros(50), 1)) µs, p99 \(Format.fixed(l.micros(99), 1)) µs, "
                    + "max \(Format.fixed(l.micros(100), 0)) µs; \(run.misses) misses, \(run.failures) failed.")
        }
        lines.append("Peak RSS of the whole process (import, cold, warm): \(Format.mebibytes(kilobytes: peak)).")
        FileHandle.standardError.write(Data((lines.map { "[image-benchmark] " + $0 }.joined(separator: "\n") + "\n").utf8))
    }
}

func log(_ message: String) {
    FileHandle.standardError.write(Data("[image-benchmark] \(message)\n".utf8))
}
