/// Timings in nanoseconds (a measure's runs, or every request's latency), sorted once for the
/// percentiles.
public struct Samples: Sendable {
    public private(set) var sorted: [UInt64]

    public init<S: Sequence>(_ values: S) where S.Element == UInt64 {
        sorted = values.sorted()
    }

    public var count: Int { sorted.count }
    public var min: UInt64 { sorted.first ?? 0 }
    public var max: UInt64 { sorted.last ?? 0 }
    public var median: UInt64 { percentile(50) }
    public var mean: Double { sorted.isEmpty ? 0 : Double(sorted.reduce(0, &+)) / Double(sorted.count) }

    /// The nearest-rank percentile: the smallest sample with at least `p` % of samples at or
    /// below it.
    public func percentile(_ p: Double) -> UInt64 {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
        return sorted[Swift.min(Swift.max(rank, 1), sorted.count) - 1]
    }

    /// A percentile in microseconds.
    public func micros(_ p: Double) -> Double { Double(percentile(p)) / 1_000 }
}
