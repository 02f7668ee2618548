public import Foundation

/// A PostgreSQL server of a test's own: `initdb` into a temporary folder, `postgres` started as
/// a child process on a free loopback port with trust authentication, stopped at once
/// (SIGQUIT, PostgreSQL's immediate shutdown) and deleted when the value is released. Debian's
/// `postgresql` package provides the programs (`/usr/lib/postgresql/VERSION/bin`); `make test`
/// installs it. `initdb` refuses to run as root, so as root the cluster belongs to the
/// `postgres` user (`setpriv`).
///
/// Tests that need one are enabled with ``isAvailable`` and say why when they are skipped
/// (``unavailableReason``): a missing server is a skip with a message, never a pass.
public final class ThrowawayPostgres {
    /// `postgres://postgres@127.0.0.1:PORT/postgres`, with `?sslmode=verify-full&sslrootcert=CA`
    /// when the server has TLS.
    public let url: URL
    /// What every URL of this server carries: `?sslmode=verify-full&sslrootcert=CA` with TLS,
    /// else nothing.
    public let parameters: String
    public let port: Int
    /// The database's superuser.
    public let user = "postgres"
    private let folder: URL
    private let bin: URL
    private let owner: String?
    private var stopped = false
    private var server: Process?

    /// The folder of the newest PostgreSQL's programs, if one is installed.
    public static let binFolder: URL? = {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return versions.compactMap(Int.init).sorted().reversed()
            .map { root.appendingPathComponent("\($0)/bin") }
            .first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("initdb").path) }
    }()

    /// Whether a throwaway server can be started here.
    public static var isAvailable: Bool { unavailableReason == nil }

    /// Why a throwaway server can't be started here, or `nil`.
    public static let unavailableReason: String? = {
        guard binFolder != nil else { return "PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb; apt install postgresql)" }
        if getuid() == 0, getpwnam("postgres") == nil { return "running as root and there is no postgres user to own the cluster" }
        return nil
    }()

    /// Starts a server; throws when `initdb` or `pg_ctl` fails, with their output. With `tls`,
    /// it has TLS on (`ssl=on`) with that certificate and key; with `hba`, those are its
    /// `pg_hba.conf` lines (trust for everyone over TCP otherwise).
    /// `durable`: commits are flushed before they are acknowledged (`synchronous_commit=on`), so
    /// a ``crash()`` loses none; off by default, as a test server can be.
    public init(maxConnections: Int = 60, tls: TestCertificates? = nil, hba: [String]? = nil, durable: Bool = false) throws {
        guard let bin = Self.binFolder else { throw Failure(Self.unavailableReason ?? "PostgreSQL is not installed") }
        self.bin = bin
        owner = getuid() == 0 ? "postgres" : nil
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let owner, let entry = getpwnam(owner) {
            chown(folder.path, entry.pointee.pw_uid, entry.pointee.pw_gid)
        }
        port = try Self.freePort()
        parameters = Self.parameters(authority: tls?.authority)
        url = URL(string: "postgres://postgres@127.0.0.1:\(port)/postgres\(parameters)")!
        let data = folder.appendingPathComponent("data").path
        try run("initdb", ["-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"])
        var settings: [String] = []
        if let tls {
            // The server reads them from its folder, its own, the key for its owner only.
            for (source, name) in [(tls.certificate, "server.crt"), (tls.key, "server.key")] {
                let target = URL(fileURLWithPath: data).appendingPathComponent(name)
                try FileManager.default.copyItem(at: source, to: target)
                try Self.own(target, by: owner, mode: 0o600)
            }
            settings += ["-c", "ssl=on", "-c", "ssl_cert_file=server.crt", "-c", "ssl_key_file=server.key"]
        }
        if let hba {
            let file = URL(fileURLWithPath: data).appendingPathComponent("pg_hba.conf")
            try (hba.joined(separator: "\n") + "\n").write(to: file, atomically: false, encoding: .utf8)
            try Self.own(file, by: owner, mode: 0o600)
        }
        serverArguments = ["-D", data, "-p", "\(port)", "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "fsync=off",
             "-c", "synchronous_commit=\(durable ? "on" : "off")", "-c", "full_page_writes=off", "-c", "max_connections=\(maxConnections)"] + settings
        try launch()
    }

    /// The `postgres` arguments the server runs with.
    private var serverArguments: [String] = []

    /// Starts the server on the cluster and waits until it accepts connections.
    private func launch() throws {
        // The server runs under a watchdog of this process's (not daemonized by pg_ctl) that
        // stops it when this process is gone, however it ended (an exit test's crash, a killed
        // run): a server left running would keep the descriptors it inherited open, and a test
        // that runs itself as a child process waits for its pipes to close. No unix socket (its folder would
        // need to be the owner's), fsync off, as a test server can be.
        try? FileManager.default.removeItem(at: stopFile)
        let server = Process()
        let (executable, arguments) = command("postgres", serverArguments)
        server.executableURL = URL(fileURLWithPath: "/bin/bash")
        server.arguments = ["-c", Self.watchdog(parent: getpid(), stop: stopFile), "watchdog", executable.path] + arguments
        let log = folder.appendingPathComponent("server.log")
        if !FileManager.default.fileExists(atPath: log.path) { _ = FileManager.default.createFile(atPath: log.path, contents: nil) }
        let handle = try FileHandle(forWritingTo: log)
        handle.seekToEndOfFile()
        server.standardOutput = handle
        server.standardError = handle
        try server.run()
        try? handle.close()
        self.server = server
        // Ready when it accepts connections (pg_isready), at most 60 s.
        let deadline = Date().addingTimeInterval(60)
        while (try? run("pg_isready", ["-h", "127.0.0.1", "-p", "\(port)", "-t", "1"])) == nil {
            guard server.isRunning, Date() < deadline else {
                let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                stop()
                throw Failure("the PostgreSQL server did not start: \(text)")
            }
            usleep(20_000)
        }
    }

    deinit { stop() }

    /// Stops the server as a crash would (its immediate shutdown), keeping the cluster, for
    /// ``restart()``: a database that is away.
    public func crash() {
        shutDown(.immediate)
    }

    /// How the server is stopped, as `pg_ctl stop -m` names it.
    public enum ShutdownMode: String, Sendable, CaseIterable, CustomStringConvertible {
        /// `-m fast`: sessions are ended (their transactions rolled back), a checkpoint is
        /// written, then it exits (SIGINT).
        case fast
        /// `-m immediate`: it exits at once, as a crash, and recovers from its log when
        /// started again (SIGQUIT).
        case immediate

        var signal: String { self == .fast ? "INT" : "QUIT" }
        public var description: String { "-m \(rawValue)" }
    }

    /// Stops the server as `pg_ctl stop -m MODE` does, keeping the cluster, for ``restart()``.
    public func shutDown(_ mode: ShutdownMode) {
        guard !stopped, let server, server.isRunning else { return }
        _ = FileManager.default.createFile(atPath: stopFile.path, contents: Data(mode.signal.utf8))
        server.waitUntilExit()
    }

    /// Starts the server again on the same cluster and port, after ``crash()``.
    public func restart() throws {
        guard !stopped else { throw Failure("the server was stopped for good") }
        try launch()
    }

    /// Made by ``stop()``: the watchdog then stops the server.
    private var stopFile: URL { folder.appendingPathComponent("stop") }

    /// A bash script that runs its arguments as the server and stops it (with the signal the
    /// file names, else SIGQUIT, PostgreSQL's immediate shutdown) when the file `stop` appears or process `parent` is gone. A file,
    /// not a signal: the script may start with the signals it would trap blocked (it inherits
    /// the mask of the thread that started it).
    private static func watchdog(parent: pid_t, stop: URL) -> String {
        """
        "$@" & server=$!
        while [ -d /proc/\(parent) ] && [ ! -e '\(stop.path)' ] && kill -0 $server 2>/dev/null; do sleep 0.1; done
        signal=$(cat '\(stop.path)' 2>/dev/null); kill -${signal:-QUIT} $server 2>/dev/null
        wait $server
        """
    }

    /// The server another process started on `port` (the parent of a test that runs itself
    /// as a child process): databases are made on it; ``stop()`` leaves it alone.
    public init(attachingTo port: Int, authority: URL? = nil) throws {
        guard let bin = Self.binFolder else { throw Failure(Self.unavailableReason ?? "PostgreSQL is not installed") }
        self.bin = bin
        owner = nil
        self.port = port
        parameters = Self.parameters(authority: authority)
        url = URL(string: "postgres://postgres@127.0.0.1:\(port)/postgres\(parameters)")!
        folder = FileManager.default.temporaryDirectory
        stopped = true
    }

    /// Stops the server at once (as a crash would) and deletes its folder.
    public func stop() {
        guard !stopped else { return }
        stopped = true
        if let server, server.isRunning {
            _ = FileManager.default.createFile(atPath: stopFile.path, contents: nil)  // the watchdog stops the server at once
            server.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: folder)
    }

    /// Gives `file` to the cluster's owner (when this process is root) with `mode`.
    private static func own(_ file: URL, by owner: String?, mode: mode_t) throws {
        if let owner, let entry = getpwnam(owner) {
            guard chown(file.path, entry.pointee.pw_uid, entry.pointee.pw_gid) == 0 else { throw Failure("can't give \(file.path) to \(owner)") }
        }
        guard chmod(file.path, mode) == 0 else { throw Failure("can't set the mode of \(file.path)") }
    }

    /// A database of its own on this server (`CREATE DATABASE`), as a URL.
    public func createDatabase(_ name: String = "t\(UUID().uuidString.prefix(8).lowercased())") throws -> URL {
        _ = try psql("CREATE DATABASE \"\(name)\"")
        return URL(string: "postgres://\(user)@127.0.0.1:\(port)/\(name)\(parameters)")!
    }

    /// The URL parameters of a server whose certificate `authority` signed: verified in full.
    private static func parameters(authority: URL?) -> String {
        authority.map { "?sslmode=verify-full&sslrootcert=\($0.path)" } ?? ""
    }

    /// Runs `sql` with `psql` and returns its unaligned, tuples-only output.
    public func psql(_ sql: String, database: String = "postgres") throws -> String {
        try run("psql", ["-h", "127.0.0.1", "-p", "\(port)", "-U", user, "-d", database, "-v", "ON_ERROR_STOP=1", "-qAtc", sql])
    }

    @discardableResult
    private func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        (process.executableURL, process.arguments) = command(tool, arguments)
        process.currentDirectoryURL = folder
        // Output to a file, not a pipe: the server `pg_ctl start` leaves running inherits the
        // descriptors, so a pipe would never reach its end.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("pg-output-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let output = try FileHandle(forWritingTo: log)
        process.standardOutput = output
        process.standardError = output
        try process.run()
        process.waitUntilExit()
        try? output.close()
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw Failure("\(tool) \(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(text)")
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The executable and arguments that run `tool`: as the cluster's owner (`setpriv`, which
    /// execs, so the process is the tool itself) when this process is root, psql as it is.
    private func command(_ tool: String, _ arguments: [String]) -> (URL, [String]) {
        let path = tool == "psql" ? "/usr/bin/psql" : bin.appendingPathComponent(tool).path
        guard let owner, tool != "psql" else { return (URL(fileURLWithPath: path), arguments) }
        return (URL(fileURLWithPath: "/usr/bin/setpriv"), ["--reuid=\(owner)", "--regid=\(owner)", "--init-groups", "--", path] + arguments)
    }

    public static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Failure("no free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// A server that couldn't be started or a command that failed, with the tools' output.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
