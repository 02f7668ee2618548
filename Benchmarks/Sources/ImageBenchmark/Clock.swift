import BenchmarkSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif


/// Per-request latencies in nanoseconds, sorted once for the percentiles.
struct Latencies {
    private(set) var sorted: [UInt64]

    init<S: Sequence>(_ values: S) where S.Element == UInt64 {
        sorted = values.sorted()
    }

    var count: Int { sorted.count }
    var max: UInt64 { sorted.last ?? 0 }
    var mean: Double { sorted.isEmpty ? 0 : Double(sorted.reduce(0, &+)) / Double(sorted.count) }

    /// The nearest-rank percentile: the smallest sample with at least `p` % of samples at or
    /// below it.
    func percentile(_ p: Double) -> UInt64 {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }

    /// A percentile in microseconds.
    func micros(_ p: Double) -> Double { Double(percentile(p)) / 1_000 }
}

/// Figures as the RESULT lines and the summary print them.
enum Format {
    static func fixed(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }

    static func count(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (offset, character) in digits.enumerated() {
            if offset > 0 && (digits.count - offset) % 3 == 0 { out += "," }
            out.append(character)
        }
        return out
    }

    static func mebibytes(kilobytes: Int) -> String { String(format: "%.1f MiB", Double(kilobytes) / 1024) }
}
