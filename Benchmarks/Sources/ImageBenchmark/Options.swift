import BenchmarkSupport
import Foundation

/// Command-line options.
///
/// ```
/// ImageBenchmark --photos DIR [--work DIR] [--size PX] [--threads T] [--warm-seconds S]
///                [--async-window W] [--keep-caches] [--no-warm] [--cache-stress]
/// ```
///
/// `--photos` is a folder of photos (the benchmark's JPEG, HEIC or RAW set); they are imported into a fresh library
/// under `--work` (default: the temporary directory; put it on the same disk as the photos, not
/// a tmpfs, or the cold run reads from memory), which is deleted at the end.
struct Options {
    /// The folder of photos to import and load.
    var photos: URL?
    /// Where the temporary library goes.
    var work = FileManager.default.temporaryDirectory
    /// The target size, square, in pixels.
    var size = 256
    /// Threads asking for cached images at once in the warm runs.
    var threads = 2
    /// How long each warm run lasts (it stops at the end of the request under way).
    var warmSeconds = 3.0
    /// Asynchronous requests each warm thread keeps in flight.
    var asyncWindow = 16
    /// Drop the page cache (`/proc/sys/vm/drop_caches`, needs root) between the import and
    /// the cold run.
    var dropsCaches = true
    /// Run the warm runs after the cold one (`--no-warm`: the cold run and the memory at idle only).
    var warm = true
    /// After the warm runs, every photo again at these sizes (`--cache-stress`: 1440 and
    /// 2048 px), to fill the memory cache past its bound.
    var cacheStressSizes: [Int] = []

    static let usage = """
        usage: ImageBenchmark --photos DIR [--work DIR] [--size PX] [--threads T] [--warm-seconds S]
                              [--async-window W] [--keep-caches] [--no-warm] [--cache-stress]
        """

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments.makeIterator()
        while let flag = rest.next() {
            if flag == "--keep-caches" {
                options.dropsCaches = false
                continue
            }
            if flag == "--no-warm" {
                options.warm = false
                continue
            }
            if flag == "--cache-stress" {
                options.cacheStressSizes = [1440, 2048]
                continue
            }
            if flag == "-h" || flag == "--help" { throw UsageError(usage) }
            guard let value = rest.next() else { throw UsageError("\(flag) needs a value\n\(usage)") }
            switch flag {
            case "--photos": options.photos = URL(fileURLWithPath: value, isDirectory: true)
            case "--work": options.work = URL(fileURLWithPath: value, isDirectory: true)
            case "--size": options.size = try positiveNumber(value, flag: flag)
            case "--threads": options.threads = try positiveNumber(value, flag: flag)
            case "--async-window": options.asyncWindow = try positiveNumber(value, flag: flag)
            case "--warm-seconds":
                guard let seconds = Double(value), seconds > 0 else { throw UsageError("--warm-seconds needs a positive number") }
                options.warmSeconds = seconds
            default: throw UsageError("unknown option \(flag)\n\(usage)")
            }
        }
        guard options.photos != nil else { throw UsageError("--photos DIR is required\n\(usage)") }
        return options
    }

}
