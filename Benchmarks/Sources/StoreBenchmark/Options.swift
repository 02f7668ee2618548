import BenchmarkSupport
import Foundation

/// Command-line options.
///
/// ```
/// StoreBenchmark prepare [--assets N] [--data DIR]
/// StoreBenchmark measure [--assets N] [--data DIR] [--repeats R] [--random-reads K] [--docs FILE]
/// StoreBenchmark profile random|enumerate|fetch [--assets N] [--data DIR] [--random-reads K]
/// StoreBenchmark changes [--assets N] [--data DIR] [--repeats R] [--docs FILE]
/// StoreBenchmark change-writer --library DIR
/// StoreBenchmark engines [--assets N] [--data DIR] [--repeats R] [--random-reads K] --database URL --files DIR
/// StoreBenchmark search [--assets N] [--data DIR] [--repeats R] [--database URL --files DIR]
/// StoreBenchmark people [--assets N] [--people P] [--data DIR] [--repeats R]   (a person of P against a library of N / P)
/// ```
///
/// `prepare` generates (or finds cached) the library of N assets; `measure` runs every measure
/// against it in a fresh process, side by side with the `sqlite3` command, prints the table
/// and, with `--docs`, writes it into that Markdown file between the benchmark's markers.
/// `profile` runs PhotoKit's side of one measure alone, for a profiler (see ``ProfiledWorkload``).
/// `changes` runs the change-observation measures on a copy of the library (``ChangeMeasures``);
/// `change-writer` is the other process they start (``ChangeWriter``). `engines` compares the
/// SQLite library with its copy in the PostgreSQL database `--database` (``EngineMeasures``).
struct Options {
    enum Command: String {
        case prepare, measure, profile, changes, engines, people, search
        case changeWriter = "change-writer"
    }

    var command: Command
    /// For `profile`: `random`, `enumerate` or `fetch`.
    var workload = ""
    /// Rows in the generated `asset` table.
    var assets = 1_000_000
    /// `people`: how many people the library's assets are shared among.
    var people = 10
    /// Where generated libraries are cached, one folder per row count.
    var dataFolder = URL(fileURLWithPath: "Benchmarks/.data", isDirectory: true)
    /// Runs of each timed measure; the table shows their median and minimum.
    var repeats = 5
    /// Random `object(at:)` calls in the latency histogram.
    var randomReads = 100_000
    /// The Markdown file to update, if any.
    var docsFile: URL?
    /// The `sqlite3` executable used as the peer.
    var sqlite3 = "sqlite3"
    /// For `change-writer`: the library to change.
    var library: URL?
    /// For `engines`: the PostgreSQL copy of the library, and its files folder.
    var database: URL?
    var files: URL?

    /// The library folder for this row count.
    var libraryFolder: URL {
        dataFolder.appendingPathComponent("library-\(assets).photoslibrary", isDirectory: true)
    }

    var databaseFile: URL {
        libraryFolder.appendingPathComponent("database/Photos.sqlite")
    }

    /// The scratch copy the change measures write to, so the cached library stays as generated.
    var changesLibraryFolder: URL {
        dataFolder.appendingPathComponent("changes-\(assets).photoslibrary", isDirectory: true)
    }

    static func parse(_ arguments: [String]) throws -> Options {
        guard let first = arguments.first, let command = Command(rawValue: first) else {
            throw UsageError("expected `prepare`, `measure`, `profile`, `changes`, `engines` or `change-writer` as the first argument")
        }
        var options = Options(command: command)
        var rest = arguments.dropFirst().makeIterator()
        if command == .profile {
            guard let workload = rest.next() else { throw UsageError("profile needs random, enumerate or fetch") }
            options.workload = workload
        }
        while let flag = rest.next() {
            guard let value = rest.next() else { throw UsageError("\(flag) needs a value") }
            switch flag {
            case "--assets": options.assets = try positiveNumber(value, flag: flag)
            case "--people": options.people = try positiveNumber(value, flag: flag)
            case "--repeats": options.repeats = try positiveNumber(value, flag: flag)
            case "--random-reads": options.randomReads = try positiveNumber(value, flag: flag)
            case "--data": options.dataFolder = URL(fileURLWithPath: value, isDirectory: true)
            case "--docs": options.docsFile = URL(fileURLWithPath: value)
            case "--sqlite3": options.sqlite3 = value
            case "--library": options.library = URL(fileURLWithPath: value, isDirectory: true)
            case "--database": options.database = URL(string: value)
            case "--files": options.files = URL(fileURLWithPath: value, isDirectory: true)
            default: throw UsageError("unknown option \(flag)")
            }
        }
        return options
    }

}
