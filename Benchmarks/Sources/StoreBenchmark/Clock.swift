import BenchmarkSupport
import CMallocStats
import Foundation

#if canImport(Glibc)
    import Glibc
#endif


/// Runs `body` and returns its result with the elapsed wall time in nanoseconds.
@inline(__always)
func timed<T>(_ body: () throws -> T) rethrows -> (T, UInt64) {
    let start = monotonicNanos()
    let value = try body()
    return (value, monotonicNanos() &- start)
}

/// The process's memory, as the kernel and malloc see it.
enum ProcessMemory {
    /// Resident memory in bytes from `/proc/self/statm`: `private` is the process's own
    /// (resident less shared: heap, stacks, anonymous maps), `mapped` the resident pages of
    /// mapped files, such as the memory-mapped database: the kernel's page cache, shared with
    /// every process reading the file and reclaimed under pressure.
    static func resident() -> (private: Int, mapped: Int) {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return (0, 0) }
        let fields = text.split(separator: " ")
        guard fields.count > 2, let resident = Int(fields[1]), let shared = Int(fields[2]) else { return (0, 0) }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        return ((resident - shared) * page, shared * page)
    }

    /// Bytes allocated with malloc and not freed (glibc `mallinfo2`).
    static func heapBytesInUse() -> Int {
        Int(cms_heap_bytes_in_use())
    }

    /// Hands freed heap pages back to the kernel (`malloc_trim(0)`).
    static func trim() {
        cms_trim()
    }
}

/// Formatting of figures for the table.
extension Format {
    static func millis(_ nanos: UInt64) -> String { String(format: "%.1f ms", Double(nanos) / 1e6) }
    static func millis(_ nanos: Double) -> String { String(format: "%.1f ms", nanos / 1e6) }
    /// Milliseconds with three significant digits, for figures from 0.01 to 1000 ms.
    static func millis3(_ nanos: UInt64) -> String {
        let ms = Double(nanos) / 1e6
        return ms < 1 ? String(format: "%.3f ms", ms) : ms < 10 ? String(format: "%.2f ms", ms) : String(format: "%.1f ms", ms)
    }
    static func micros(_ nanos: UInt64) -> String { micros(Double(nanos)) }
    static func micros(_ nanos: Double) -> String {
        nanos < 10_000 ? String(format: "%.2f µs", nanos / 1e3) : String(format: "%.1f µs", nanos / 1e3)
    }
    static func ratio(_ value: Double) -> String { value.isFinite ? String(format: "%.2f×", value) : "n/a" }
    static func bytes(_ value: Double) -> String { String(format: "%.1f B", value) }
    static func mebibytes(_ value: Int) -> String { String(format: "%.1f MiB", Double(value) / 1_048_576) }
}
