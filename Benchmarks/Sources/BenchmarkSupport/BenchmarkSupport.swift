import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Monotonic time in nanoseconds, straight from `clock_gettime` (a vDSO call, ~20 ns), so
/// per-call latencies of a microsecond or two aren't swamped by the clock.
@inlinable @inline(__always)
public func monotonicNanos() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) &* 1_000_000_000 &+ UInt64(spec.tv_nsec)
}

/// A bad command line: the message says which option and why.
public struct UsageError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A failure that must stop a benchmark: wrong row counts, lost files, images that didn't load,
/// a failed peer run.
public struct BenchmarkFailure: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A positive count given on the command line (`1_000_000` and `1,000,000` read too).
public func positiveNumber(_ text: String, flag: String) throws -> Int {
    let digits = text.replacingOccurrences(of: "_", with: "").replacingOccurrences(of: ",", with: "")
    guard let value = Int(digits), value > 0 else { throw UsageError("\(flag) needs a positive number") }
    return value
}
