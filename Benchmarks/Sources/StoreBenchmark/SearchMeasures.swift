import BenchmarkSupport
import Foundation
import Photos
import PhotosPostgres

/// `search`: `PHAsset.fetchAssets(matching:options:)` on the generated library (issue 37), each
/// query until its count is known, `repeats` times; p50 and p95 per engine (the PostgreSQL copy
/// with `--database`, alternating with SQLite), beside the `sqlite3` command running the FTS5
/// query alone (`SELECT rowid … MATCH … ORDER BY rank`) on the same file.
///
/// The generated assets' words are their file names (`IMG_0000123.HEIC`), the places of the
/// half that are located (the gazetteer's towns, regions and countries around Europe), and the
/// title of the 100,000-asset album. The library's first open writes them (the assets have none:
/// ``LibraryDatabase/indexUnindexedAssets()``), timed and reported.
enum SearchMeasures {
    /// The queries: what they stand for, the text, and the FTS5 query the store makes of its
    /// words (for the `sqlite3` peer; nil without words).
    static let queries: [(String, String, String?)] = [
        ("a file name (1 asset)", "IMG_0123457", #""img 0123457" *"#),
        ("a file name as it is typed", "img_01234", #""img 01234" *"#),
        ("a town", "lyon", #""lyon" *"#),
        ("a country", "france", #""france" *"#),
        ("an album's title (100,000)", "every 10th", #""every" "10th" *"#),
        ("a year, no words", "2019", nil),
        ("a kind and a month, no words", "videos june", nil),
        ("a country and a year", "france 2019", #""france""#),
        ("a word of most assets", "heic", #""heic" *"#),
        // `heic`'s assets found by their kind alone: no words to match or rank, the images in
        // date order from the visible-asset index. What an answer that size costs before any
        // search work, in the same run.
        ("the same assets by their kind, no words", "photos", nil),
        ("no match", "zanzibar", #""zanzibar" *"#),
    ]

    static func run(_ options: Options) throws -> String {
        guard LibraryFixture.isCached(options) else {
            throw BenchmarkFailure("no generated library at \(options.libraryFolder.path); run `prepare` first")
        }
        log("search: opening the SQLite library (its first open indexes every asset)")
        let (sqlite, openNanos) = try timed { try PHPhotoLibrary(url: options.libraryFolder) }
        var engines = [("SQLite", sqlite)]
        var postgresOpen: UInt64?
        if let database = options.database, let files = options.files {
            log("search: opening the PostgreSQL copy")
            let (postgres, nanos) = try timed { try PHPhotoLibrary(database: database, files: files) }
            engines.append(("PostgreSQL", postgres))
            postgresOpen = nanos
        }
        // `SEARCH_ENGINE=PostgreSQL` measures that engine alone, without the `sqlite3` peer (for a profiler).
        let engineOnly = ProcessInfo.processInfo.environment["SEARCH_ENGINE"]
        if let engineOnly { engines.removeAll { $0.0 != engineOnly } }
        let cli = try SQLiteCLI(executable: options.sqlite3, database: options.databaseFile)
        defer { cli.removeScratch() }
        var lines = [
            "| \(Format.count(options.assets)) assets | matches | " + engines.map { "\($0.0) p50 | \($0.0) p95" }.joined(separator: " | ")
                + " | sqlite3, FTS5 alone (median) |",
            "| --- | ---: | " + engines.map { _ in "---: | ---:" }.joined(separator: " | ") + " | ---: |",
        ]
        // `SEARCH_ONLY=france,heic` measures those queries alone (for a profiler).
        let only = ProcessInfo.processInfo.environment["SEARCH_ONLY"].map { Set($0.split(separator: ",").map(String.init)) }
        for (title, text, fts5) in queries where only?.contains(text) ?? true {
            log("search: \(title): \(text)")
            var samples: [[UInt64]] = engines.map { _ in [] }
            var counts: [Int] = engines.map { _ in -1 }
            for round in 0...options.repeats {
                for (index, (_, library)) in engines.enumerated() {
                    let (count, nanos) = try timed { () throws -> Int in
                        try library.withCurrent { try PHAsset.fetchAssets(matching: text, options: nil).count }
                    }
                    if round > 0 { samples[index].append(nanos) }  // the first round warms the caches
                    counts[index] = count
                }
            }
            guard Set(counts).count == 1 else { throw BenchmarkFailure("\(text): the engines found \(counts)") }
            var peer = "–"
            if let fts5, engineOnly == nil {
                let sql = "SELECT rowid FROM searchIndex WHERE searchIndex MATCH '\(fts5)' ORDER BY rank"
                var times: [UInt64] = []
                for _ in 0..<max(3, options.repeats / 4) { times.append(try cli.timedQuery(sql).queryNanos) }
                peer = Format.millis3(Samples(times).median)
            }
            let cells = samples.map { Samples($0) }.map { "\(Format.millis3($0.median)) | \(Format.millis3($0.percentile(95)))" }
            lines.append("| \(title): `\(text)` | \(Format.count(counts[0])) | " + cells.joined(separator: " | ") + " | \(peer) |")
        }
        var opens = "First open of the SQLite library (indexing the assets that had no words): \(Format.millis3(openNanos))"
        if let postgresOpen { opens += "; of the PostgreSQL copy: \(Format.millis3(postgresOpen))" }
        return lines.joined(separator: "\n") + "\n\n" + opens + "\n"
    }
}
