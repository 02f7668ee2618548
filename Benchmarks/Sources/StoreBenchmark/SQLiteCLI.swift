import BenchmarkSupport
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The peer: the `sqlite3` command-line shell, run on the library's database file.
///
/// Scripts are fed on standard input (`sqlite3 -batch -bail FILE < script`), with standard
/// output and error going to files, and the process is started with `posix_spawn` and reaped
/// with `waitpid` so the wall time carries no Foundation `Process` polling delay.
struct SQLiteCLI {
    let executable: String
    let database: URL
    private let scratch: URL

    init(executable: String, database: URL) throws {
        self.executable = executable
        self.database = database
        scratch = FileManager.default.temporaryDirectory
            .appendingPathComponent("store-benchmark-\(getpid())", isDirectory: true)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    /// What one run printed and how long the process took, start to exit.
    struct Run {
        var output: String
        var wallNanos: UInt64

        /// The `Run Time: real …` figures `.timer on` printed, one per SQL statement, in ns.
        /// sqlite3 3.40 prints `Run Time: real 0.123 user 0.100000 sys 0.020000` on the real
        /// standard output (not `.output`'s file), with the real time in milliseconds.
        var timerRealNanos: [UInt64] {
            output.split(separator: "\n").compactMap { line in
                guard line.hasPrefix("Run Time: real ") else { return nil }
                let fields = line.split(separator: " ")
                guard fields.count > 3, let seconds = Double(fields[3]) else { return nil }
                return UInt64((seconds * 1e9).rounded())
            }
        }
    }

    /// The per-connection settings the store gives its own connections (`LibraryDatabase`'s
    /// `configuration()` and `DirectConnection`), so both sides read the file the same way.
    static let storeConnectionPragmas = "PRAGMA mmap_size = 1073741824;"

    /// Runs `script` after ``storeConnectionPragmas``, failing on a non-zero exit or anything
    /// written to standard error.
    func run(_ script: String) throws -> Run {
        let input = scratch.appendingPathComponent("input.sql")
        let output = scratch.appendingPathComponent("output.txt")
        let errors = scratch.appendingPathComponent("errors.txt")
        let prologue = ".output /dev/null\n\(Self.storeConnectionPragmas)\n.output stdout\n"
        try Data((prologue + script).utf8).write(to: input)
        let (status, nanos) = try timed { try spawn(stdin: input, stdout: output, stderr: errors) }
        let errorText = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        guard status == 0, errorText.isEmpty else {
            throw BenchmarkFailure("sqlite3 failed (status \(status)): \(errorText)\nscript: \(script.prefix(400))")
        }
        return Run(output: try String(contentsOf: output, encoding: .utf8), wallNanos: nanos)
    }

    /// Runs one query with its rows discarded (`.output /dev/null`) and returns the query's own
    /// time from `.timer on`, plus the whole process's wall time.
    func timedQuery(_ sql: String) throws -> (queryNanos: UInt64, wallNanos: UInt64) {
        let run = try run(".timer on\n.output /dev/null\n\(sql);\n")
        guard let query = run.timerRealNanos.last else {
            throw BenchmarkFailure("sqlite3 printed no `Run Time` line for: \(sql)")
        }
        return (query, run.wallNanos)
    }

    /// The first column of every row the query returns, as integers.
    func integers(_ sql: String) throws -> [Int64] {
        try run("\(sql);\n").output.split(separator: "\n").map { line in
            guard let value = Int64(line) else { throw BenchmarkFailure("sqlite3 printed a non-integer: \(line)") }
            return value
        }
    }

    /// How many rows `sql` returns.
    func count(_ sql: String) throws -> Int {
        Int(try integers("SELECT COUNT(*) FROM (\(sql))").first ?? -1)
    }

    /// `sqlite3 --version`, e.g. `3.40.1 2022-12-28 …`.
    func version() -> String {
        let output = scratch.appendingPathComponent("version.txt")
        let empty = scratch.appendingPathComponent("empty.sql")
        _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
        _ = try? spawn(arguments: [executable, "--version"], stdin: empty, stdout: output, stderr: output)
        let text = (try? String(contentsOf: output, encoding: .utf8)) ?? "unknown"
        return text.split(separator: " ").prefix(2).joined(separator: " ")
    }

    func removeScratch() {
        try? FileManager.default.removeItem(at: scratch)
    }

    private func spawn(stdin: URL, stdout: URL, stderr: URL) throws -> Int32 {
        try spawn(arguments: [executable, "-batch", "-bail", database.path], stdin: stdin, stdout: stdout, stderr: stderr)
    }

    private func spawn(arguments: [String], stdin: URL, stdout: URL, stderr: URL) throws -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin.path, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        if stderr == stdout {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, stderr.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, executable, &actions, nil, argv, environ)
        guard spawned == 0 else {
            throw BenchmarkFailure("can't start \(executable): \(String(cString: strerror(spawned)))")
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        // WIFEXITED / WEXITSTATUS, which Swift doesn't import as macros.
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }
}
