import BenchmarkSupport

/// What the change measures found; ``ChangeReport`` turns it into the Markdown table.
struct ChangeResults {
    /// Commit start → the observer holds the details for its fetch result.
    struct Latency {
        var title: String
        var resultCount: Int
        var total: Samples
        /// `performChangesAndWait` (in the writing process).
        var commit: Samples
        /// `changeDetails(for:)` in the observer.
        var details: Samples
        /// Cross-process only: the writer's commit returned → the observer was called.
        var wake: Samples?
        /// What the last details held, e.g. "1 changed".
        var summary: String
        /// One object changed per round (the aims apply).
        var isSingleChange: Bool
    }

    /// The details' cost for one kind of change on a result of one size, beside a refetch.
    struct Scaling {
        enum Kind: String, CaseIterable {
            case toggle = "1 favorite toggled"
            case move = "1 creation date changed (a move)"
            case thousandToggles = "1,000 favorites toggled in one transaction"
        }

        var size: Int
        var kind: Kind
        var details: Samples
        /// `sqlite3` running the fetch's SQL (`.timer`), what a reload costs the peer.
        var sqliteReload: Samples
        /// PhotoKit: the same fetch again until `count`.
        var photoKitRefetch: Samples
        var summary: String
    }

    var assets: Int
    var repeats: Int
    var machine: [(String, String)] = []
    var latencies: [Latency] = []
    var scaling: [Scaling] = []
}
