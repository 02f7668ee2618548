import BenchmarkSupport

/// What the measures found; ``Report`` turns it into the Markdown table.
struct Results {
    /// A fetch timed in PhotoKit and the same SQL in `sqlite3`.
    struct FetchComparison {
        var title: String
        var count: Int
        /// PhotoKit: from the fetch call until `count` is available.
        var ours: Samples
        /// sqlite3: the statement's own time from `.timer on` (rows to `/dev/null`).
        var peerQuery: Samples
        /// sqlite3: the whole process, start to exit.
        var peerWall: Samples
        /// Median wall time of `sqlite3 FILE <<< "SELECT 1;"`, subtracted for the corrected ratio.
        var peerStartup: UInt64
        /// PhotoKit: from the fetch call until the first object's `pixelWidth` is read.
        var oursFirst: Samples
        /// sqlite3: the first row with every asset column (`LIMIT 1`), `.timer` time.
        var peerFirst: Samples

        /// PhotoKit's median over sqlite3's median `.timer` time.
        var ratio: Double { Double(ours.median) / Double(max(peerQuery.median, 1)) }
        /// PhotoKit's fastest run over sqlite3's fastest: less sensitive to other load.
        var minRatio: Double { Double(ours.min) / Double(max(peerQuery.min, 1)) }
        /// The first object against sqlite3 reading every id then the first row: the question a
        /// fetch result answers (its count is known when the first object is).
        var firstRatio: Double { Double(oursFirst.median) / Double(max(peerQuery.median + peerFirst.median, 1)) }
        /// PhotoKit's median over sqlite3's median process time less its start-up.
        var wallRatio: Double {
            Double(ours.median) / Double(max(Int64(peerWall.median) - Int64(peerStartup), 1))
        }
    }

    /// Random `object(at:)` calls on the 1M result.
    struct RandomAccess {
        var resultCount: Int
        /// One sample per call, in ns.
        var latencies: Samples
        /// sqlite3: one single-row `SELECT` per line, in one batch, per row (wall less start-up).
        var peerPerRow: Samples
        var peerStatements: Int
    }

    /// Enumerating the whole 1M result, reading one property of each object.
    struct Enumeration {
        var count: Int
        var enumerateObjects: Samples
        var forIn: Samples
        /// sqlite3: every asset column of the same rows in the same order, to `/dev/null`.
        var peerQuery: Samples

        var enumerateRatio: Double { Double(enumerateObjects.median) / Double(max(peerQuery.median, 1)) }
        var forInRatio: Double { Double(forIn.median) / Double(max(peerQuery.median, 1)) }
        var enumerateMinRatio: Double { Double(enumerateObjects.min) / Double(max(peerQuery.min, 1)) }
        var forInMinRatio: Double { Double(forIn.min) / Double(max(peerQuery.min, 1)) }
    }

    /// Memory held by a fetch result of `count` objects.
    struct Memory {
        var count: Int
        /// Private resident memory growth across the first fetch of the process.
        var coldResident: Int
        /// Private resident memory growth across a fetch after a warm-up fetch.
        var warmResident: Int
        /// malloc bytes in use, growth across the warm fetch.
        var warmHeap: Int
        /// Resident pages of the memory-mapped database file touched by the first fetch
        /// (kernel page cache, not the result's).
        var coldMapped: Int

        func perResult(_ bytes: Int) -> Double { Double(bytes) / Double(max(count, 1)) }
    }

    /// One kind of commit timed on the library without and with the visible-asset indexes.
    struct WriteComparison {
        var title: String
        var rounds: Int
        var without: Samples
        var with: Samples

        var ratio: Double { Double(with.median) / Double(max(without.median, 1)) }
    }

    var machine: [(String, String)] = []
    var writes: [WriteComparison] = []
    var assets = 0
    var repeats = 0
    var fetches: [FetchComparison] = []
    var randomAccess: RandomAccess?
    var enumeration: Enumeration?
    var memory: Memory?
    /// `EXPLAIN QUERY PLAN` of each peer query, by title.
    var plans: [(String, String)] = []
}
