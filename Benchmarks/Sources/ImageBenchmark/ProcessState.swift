import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The process's resident memory as the kernel reports it in `/proc/self/status`.
enum ProcessMemory {
    /// `VmHWM`: the peak resident set size since the process started (or since
    /// ``resetPeak()``), in KiB.
    static func peakKilobytes() -> Int { statusField("VmHWM") }

    /// `VmRSS`: the resident set size now, in KiB.
    static func residentKilobytes() -> Int { statusField("VmRSS") }

    /// Resets `VmHWM` to the current resident size (writing 5 to `/proc/self/clear_refs`,
    /// Linux 4.0+), so a later peak covers only what follows. Returns false when the kernel
    /// refused.
    @discardableResult
    static func resetPeak() -> Bool {
        write("5\n", to: "/proc/self/clear_refs")
    }

    private static func statusField(_ name: String) -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
            return Int(digits) ?? 0
        }
        return 0
    }
}

/// The kernel's page cache: what "cold" means for the first image requests.
enum PageCache {
    /// Writes dirty pages out and drops the clean ones (`sync; echo 3 > /proc/sys/vm/drop_caches`),
    /// so the next reads of the library's originals (and of the database) come from the disk.
    /// Needs root; returns false when the write was refused.
    static func drop() -> Bool {
        sync()
        return write("3\n", to: "/proc/sys/vm/drop_caches")
    }
}

/// Writes `text` to a /proc file with a single `write(2)`, as the kernel expects.
private func write(_ text: String, to path: String) -> Bool {
    let descriptor = open(path, O_WRONLY)
    guard descriptor >= 0 else { return false }
    defer { close(descriptor) }
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) } == bytes.count
}

/// The 1-minute load average from /proc/loadavg.
func loadAverage() -> String {
    let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
    return String(text.split(separator: " ").first ?? "?")
}
