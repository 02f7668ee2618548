import BenchmarkSupport
import Foundation

/// The Markdown report: machine, then one row per measure with PhotoKit's figure, the peer's,
/// the ratio, the aim and PASS/MISS.
enum Report {
    static let beginMarker = "<!-- store-benchmark:begin -->"
    static let endMarker = "<!-- store-benchmark:end -->"

    /// The aims.
    static let fetchRatioAim = 1.2
    /// Issue 19: the 833k-image fetch (the first measure) within this on this machine.
    static let imagesAbsoluteAimNanos: UInt64 = 150_000_000
    static let randomP99AimNanos: UInt64 = 50_000
    static let bytesPerResultAim = 32.0
    static let writeRatioAim = 1.3

    static func markdown(_ r: Results) -> String {
        var lines: [String] = []
        lines.append("### Store benchmark: \(Format.count(r.assets)) assets, PhotoKit vs the `sqlite3` command")
        lines.append("")
        lines.append(
            "Release build, one process, each measure run side by side with `sqlite3` on the same database file. "
                + "Times are the median of \(r.repeats) runs (minimum in brackets); ratios are PhotoKit ÷ sqlite3 "
                + "medians (and minimums), below 1 is faster than sqlite3.")
        lines.append("")
        lines.append("| Machine | |")
        lines.append("| --- | --- |")
        for (key, value) in r.machine { lines.append("| \(key) | \(value) |") }
        lines.append("")
        lines.append("| Measure | PhotoKit | sqlite3 | Ratio | Aim | |")
        lines.append("| --- | --- | --- | --- | --- | --- |")
        for (number, fetch) in r.fetches.enumerated() {
            lines += fetchRows("1\(Character(UnicodeScalar(UInt8(97 + number))))", fetch, absoluteAim: number == 0)
        }
        if let random = r.randomAccess { lines.append(randomRow(random)) }
        if let enumeration = r.enumeration { lines += enumerationRows(enumeration) }
        if let memory = r.memory { lines += memoryRows(memory) }
        lines.append("")
        lines.append(
            "sqlite3 runs with the store's connection setting (`\(SQLiteCLI.storeConnectionPragmas)`). "
                + "sqlite3 figures are the statement's own time from `.timer on` (rows written to `/dev/null`); the "
                + "bracketed \"wall\" ratio instead uses the whole `sqlite3` process less its start-up "
                + "(median `SELECT 1` process: \(r.fetches.first.map { Format.millis($0.peerStartup) } ?? "n/a")).")
        if !r.writes.isEmpty {
            lines.append("")
            lines.append(
                "Writes: the same commits on two copies of the library, without the four partial visible-asset indexes "
                    + "(the schema before issue 19) and with them, alternating; `performChangesAndWait` time, median "
                    + "(minimum) of the rounds after one warm-up.")
            lines.append("")
            lines.append("| Commit | Rounds | Without the indexes | With them | Ratio | Aim | |")
            lines.append("| --- | --- | --- | --- | --- | --- | --- |")
            for w in r.writes {
                lines.append(
                    "| \(w.title) | \(w.rounds) | \(Format.millis(w.without.median)) (\(Format.millis(w.without.min))) "
                        + "| \(Format.millis(w.with.median)) (\(Format.millis(w.with.min))) | \(Format.ratio(w.ratio)) "
                        + "| ≤ \(writeRatioAim)× | \(verdict(w.ratio <= writeRatioAim)) |")
            }
        }
        if !r.plans.isEmpty {
            lines.append("")
            lines.append("Query plans (`EXPLAIN QUERY PLAN`, same for both sides: one file, one SQLite version):")
            lines.append("")
            for (title, plan) in r.plans { lines.append("- \(title): `\(plan)`") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func verdict(_ pass: Bool) -> String { pass ? "PASS" : "**MISS**" }

    private static func fetchRows(_ label: String, _ f: Results.FetchComparison, absoluteAim: Bool) -> [String] {
        let ours = "\(Format.millis(f.ours.median)) (\(Format.millis(f.ours.min)))"
        let peer = "\(Format.millis(f.peerQuery.median)) (\(Format.millis(f.peerQuery.min)))"
        let ratio = "\(Format.ratio(f.ratio)) (min: \(Format.ratio(f.minRatio)); wall: \(Format.ratio(f.wallRatio)))"
        var aim = "≤ \(fetchRatioAim)×"
        var pass = f.ratio <= fetchRatioAim
        if absoluteAim {
            aim += " and ≤ \(Format.millis(imagesAbsoluteAimNanos))"
            pass = pass && f.ours.median <= imagesAbsoluteAimNanos
        }
        let firstOurs = "\(Format.millis(f.oursFirst.median)) (\(Format.millis(f.oursFirst.min)))"
        let firstPeer = "ids then first row: \(Format.millis(f.peerQuery.median + f.peerFirst.median)) "
            + "(`LIMIT 1` alone: \(Format.millis(f.peerFirst.median)), at sqlite3's 1 ms timer resolution)"
        let firstRatio = Format.ratio(f.firstRatio)
        return [
            "| \(label). \(f.title), \(Format.count(f.count)) results, until `count` | \(ours) | \(peer) | \(ratio) "
                + "| \(aim) | \(verdict(pass)) |",
            "| \(label)′. Same, until the first object's `pixelWidth` | \(firstOurs) | \(firstPeer) | \(firstRatio) "
                + "| ≤ \(fetchRatioAim)× | \(verdict(f.firstRatio <= fetchRatioAim)) |",
        ]
    }

    private static func randomRow(_ a: Results.RandomAccess) -> String {
        let l = a.latencies
        let ours = [50.0, 90, 99, 99.9].map { "p\(formatPercent($0)) \(Format.micros(l.percentile($0)))" }
            .joined(separator: ", ") + ", max \(Format.micros(l.max)), mean \(Format.micros(l.mean))"
        let peer = "\(Format.micros(a.peerPerRow.median)) per row (\(Format.micros(a.peerPerRow.min))), "
            + "\(Format.count(a.peerStatements)) single-row `SELECT`s in one batch"
        let ratio = "p50: \(Format.ratio(Double(l.median) / Double(max(a.peerPerRow.median, 1))))"
        return "| 2. Random `object(at:)` on the \(Format.count(a.resultCount)) result, \(Format.count(l.count)) calls, "
            + "per call | \(ours) | \(peer) | \(ratio) | p99 < 50 µs | \(verdict(l.percentile(99) < randomP99AimNanos)) |"
    }

    private static func formatPercent(_ p: Double) -> String {
        p == p.rounded() ? String(Int(p)) : String(p)
    }

    private static func enumerationRows(_ e: Results.Enumeration) -> [String] {
        func figure(_ s: Samples) -> String {
            "\(Format.millis(s.median)) (\(Format.millis(s.min))), \(Format.micros(Double(s.median) / Double(max(e.count, 1))))/object"
        }
        let peer = "\(Format.millis(e.peerQuery.median)) (\(Format.millis(e.peerQuery.min))), "
            + "\(Format.micros(Double(e.peerQuery.median) / Double(max(e.count, 1))))/row, all asset columns"
        return [
            "| 3a. `enumerateObjects` over the \(Format.count(e.count)) result, reading `pixelWidth` | \(figure(e.enumerateObjects)) "
                + "| \(peer) | \(Format.ratio(e.enumerateRatio)) (min: \(Format.ratio(e.enumerateMinRatio))) | — | |",
            "| 3b. `for asset in result` over the same | \(figure(e.forIn)) | same query | \(Format.ratio(e.forInRatio)) (min: \(Format.ratio(e.forInMinRatio))) | — | |",
        ]
    }

    private static func memoryRows(_ m: Results.Memory) -> [String] {
        let warm = m.perResult(m.warmResident)
        return [
            "| 4. Private resident memory of the \(Format.count(m.count)) result, after a warm-up fetch "
                + "| \(Format.bytes(warm))/result (\(Format.mebibytes(m.warmResident)) RSS; malloc in use "
                + "\(Format.bytes(m.perResult(m.warmHeap)))/result) | 8 B/result: the row-id array alone, in theory "
                + "| \(Format.ratio(warm / 8)) | < 32 B | \(verdict(warm < bytesPerResultAim)) |",
            "| 4′. Same, first fetch of the process (SQLite page cache and one-time allocations included) "
                + "| \(Format.bytes(m.perResult(m.coldResident)))/result (\(Format.mebibytes(m.coldResident)) RSS; "
                + "besides, \(Format.mebibytes(m.coldMapped)) of the memory-mapped database file became resident: "
                + "the kernel's page cache, shared and reclaimable) "
                + "| | | < 32 B | \(verdict(m.perResult(m.coldResident) < bytesPerResultAim)) |",
        ]
    }

    /// Writes `table` between the markers in `file`, creating the file or the section if needed.
    static func update(_ file: URL, with table: String) throws {
        try update(file, with: table, markers: (beginMarker, endMarker), heading: heading)
    }

    static let heading = """
        ## Store: fetching from a large library

        `Benchmarks/run-store-benchmark.sh` builds `Benchmarks/` in release, generates (once, then cached in
        `Benchmarks/.data/`) a library of 1,000,000 asset rows with the `sqlite3` command, and in one process
        measures PhotoKit's public API against `sqlite3` running the SQL the store runs, on the same file.
        `--assets 100000` makes a quick run (which leaves this file alone unless `--docs` is given).
        The section below is rewritten by each full run.
        """

    /// Writes `table` between `markers` in `file`; a missing section is appended after `heading`.
    static func update(_ file: URL, with table: String, markers: (String, String), heading: String) throws {
        let (beginMarker, endMarker) = markers
        let block = "\(beginMarker)\n\(table)\(endMarker)\n"
        var text = (try? String(contentsOf: file, encoding: .utf8)) ?? """
            # Performance

            Benchmarks run in release builds as ratios against a peer run in the same script; see `Benchmarks/`.

            """
        if let begin = text.range(of: beginMarker), let end = text.range(of: endMarker, range: begin.upperBound..<text.endIndex) {
            var upper = end.upperBound
            if upper < text.endIndex, text[upper] == "\n" { upper = text.index(after: upper) }
            text.replaceSubrange(begin.lowerBound..<upper, with: block)
        } else {
            if !text.hasSuffix("\n\n") { text += text.hasSuffix("\n") ? "\n" : "\n\n" }
            text += heading + "\n\n" + block
        }
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }
}
