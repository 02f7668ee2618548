import BenchmarkSupport
import Foundation

/// The Markdown report of the change benchmark.
enum ChangeReport {
    static let markers = (begin: "<!-- change-benchmark:begin -->", end: "<!-- change-benchmark:end -->")

    static let heading = """
        ## Change observation: details for a held fetch

        `Benchmarks/run-store-benchmark.sh` (or `--only changes`) builds `Benchmarks/` in release, copies the generated
        1,000,000-asset library and, through the public API only, times an observer holding a fetch result
        from the start of a commit (in this process, or in a `change-writer` child process) until it holds
        the `PHFetchResultChangeDetails` for its result; then sets the cost of the details alone beside
        re-running the fetch (what a client without incremental details does), in PhotoKit and in `sqlite3`.
        The section below is rewritten by each full run.
        """

    /// The issue's aims.
    static let inProcessAimNanos: UInt64 = 20_000_000
    static let crossProcessAimNanos: UInt64 = 100_000_000

    static func markdown(_ r: ChangeResults) -> String {
        var lines: [String] = []
        lines.append("### Change benchmark: \(Format.count(r.assets)) assets")
        lines.append("")
        lines.append(
            "Release build. Latencies: median, p90 and max of the rounds after one warm-up; each round "
                + "changes random assets. Total = commit start → details in the observer's hands.")
        lines.append("")
        lines.append("| Machine | |")
        lines.append("| --- | --- |")
        for (key, value) in r.machine { lines.append("| \(key) | \(value) |") }
        lines.append("")
        lines.append("| Latency | Rounds | Total (median / p90 / max) | Commit | Wake-up | Details | Aim | |")
        lines.append("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for latency in r.latencies {
            // The issue's aims are for one change; a 1,000-change transaction is measured, not aimed.
            let aim = latency.isSingleChange ? (latency.wake == nil ? inProcessAimNanos : crossProcessAimNanos) : nil
            let verdict = aim.map { latency.total.median < $0 ? "PASS" : "**MISS**" } ?? ""
            lines.append(
                "| \(latency.title), \(Format.count(latency.resultCount)) results: \(latency.summary) | \(latency.total.count) "
                    + "| \(spread(latency.total)) | \(Format.millis(latency.commit.median)) "
                    + "| \(latency.wake.map { Format.millis($0.median) } ?? "—") | \(Format.millis(latency.details.median)) "
                    + "| \(aim.map { "< \(Format.millis($0))" } ?? "—") | \(verdict) |")
        }
        lines.append("")
        lines.append(
            "Details against a reload: the median cost of `changeDetails(for:)` for a result of each size, "
                + "beside re-running its fetch. Where the order is unchanged the details cost a scan of the "
                + "result's id array plus one probe per touched row; 1,000 changes on a result under 32,000 "
                + "rows take the full diff (one re-run of the query and a longest-increasing-run diff).")
        lines.append("")
        lines.append("| Result size | Change | Details | PhotoKit refetch | sqlite3 reload (`.timer`) | Details ÷ sqlite3 reload | Details held |")
        lines.append("| --- | --- | --- | --- | --- | --- | --- |")
        for row in r.scaling {
            let ratio = Double(row.details.median) / Double(max(row.sqliteReload.median, 1))
            lines.append(
                "| \(Format.count(row.size)) | \(row.kind.rawValue) | \(Format.millis3(row.details.median)) "
                    + "| \(Format.millis3(row.photoKitRefetch.median)) | \(Format.millis3(row.sqliteReload.median)) "
                    + "| \(Format.ratio(ratio)) | \(row.summary) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func spread(_ s: Samples) -> String {
        "\(Format.millis(s.median)) / \(Format.millis(s.percentile(90))) / \(Format.millis(s.max))"
    }
}
