import BenchmarkSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The lines of the report's machine table.
enum MachineInfo {
    static func describe(cli: SQLiteCLI, assets: Int, databaseFile: URL, loadAtStart: String) -> [(String, String)] {
        let environment = ProcessInfo.processInfo.environment
        var rows: [(String, String)] = []
        rows.append(("Date", ISO8601DateFormatter().string(from: Date())))
        rows.append(("Commit", environment["STORE_BENCHMARK_COMMIT"] ?? "unknown (run through run-store-benchmark.sh)"))
        rows.append(("CPU", "\(cpuModel()), nproc \(ProcessInfo.processInfo.activeProcessorCount)"))
        rows.append(("Load average (1 min), start → end", "\(loadAtStart) → \(loadAverage()) (other processes on the machine add noise)"))
        rows.append(("Memory", String(format: "%.1f GiB", Double(ProcessInfo.processInfo.physicalMemory) / 1_073_741_824)))
        rows.append(("Kernel", ProcessInfo.processInfo.operatingSystemVersionString))
        rows.append(("Swift", environment["STORE_BENCHMARK_SWIFT_VERSION"] ?? "unknown (run through run-store-benchmark.sh)"))
        rows.append(("Build", buildConfiguration))
        rows.append(("sqlite3 command", cli.version()))
        rows.append(("SQLite in PhotoKit's process", linkedSQLiteVersion()))
        let size = (try? FileManager.default.attributesOfItem(atPath: databaseFile.path)[.size] as? Int) ?? 0
        rows.append(("Library", "\(Format.count(assets)) asset rows, database \(Format.mebibytes(size))"))
        return rows
    }

    #if DEBUG
        static let buildConfiguration = "debug: figures are not meaningful, use run-store-benchmark.sh"
    #else
        static let buildConfiguration = "release (swift build -c release)"
    #endif

    /// The 1-minute load average from /proc/loadavg.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?"
        return String(text.split(separator: " ").first ?? "?")
    }

    /// `model name` from /proc/cpuinfo.
    static func cpuModel() -> String {
        let text = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line.flatMap { $0.split(separator: ":", maxSplits: 1).last }.map {
            $0.trimmingCharacters(in: .whitespaces)
        } ?? "unknown"
    }

    /// `sqlite3_libversion()` of the libsqlite3 GRDB loaded into this process.
    static func linkedSQLiteVersion() -> String {
        typealias Version = @convention(c) () -> UnsafePointer<CChar>?
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sqlite3_libversion") else { return "unknown" }
        guard let version = unsafeBitCast(symbol, to: Version.self)() else { return "unknown" }
        return String(cString: version)
    }
}
