import Foundation
import PhotosLocking

/// Which database engine ``TemporaryLibrary`` puts its libraries on: SQLite, or PostgreSQL when
/// the environment has `PHOTOKIT_TEST_STORE=postgres`. The behaviour suites run once on each
/// (`make test`): the same test code, both engines. Tests of what only SQLite has (its file,
/// its query plans, its backups) are enabled on SQLite only, with ``isSQLite``.
public enum TestStore {
    /// Whether this test process puts its libraries on PostgreSQL.
    public static let isPostgres = ProcessInfo.processInfo.environment["PHOTOKIT_TEST_STORE"] == "postgres"

    /// Whether this test process puts its libraries on SQLite (the default).
    public static var isSQLite: Bool { !isPostgres }

    /// Names the port of the process's server, for the child processes it starts.
    private static let portVariable = "PHOTOKIT_TEST_POSTGRES_PORT"
    /// Names the file of the authority that signed its certificate.
    private static let authorityVariable = "PHOTOKIT_TEST_POSTGRES_CA"

    /// Thrown by PostgreSQL-only helpers on SQLite.
    struct NotPostgres: Error {}

    private static let server = Mutex<Result<ThrowawayPostgres, any Error>?>(nil)

    /// The process's throwaway PostgreSQL server, started on first use and stopped at exit;
    /// `nil` on SQLite. Each library gets a database of its own on it.
    static func postgres() throws -> ThrowawayPostgres? {
        guard isPostgres else { return nil }
        return try server.withLock { server -> Result<ThrowawayPostgres, any Error> in
            if let server { return server }
            // A test that runs itself as a child process (an exit test) uses its parent's server.
            let environment = ProcessInfo.processInfo.environment
            if let port = environment[portVariable].flatMap(Int.init) {
                let authority = environment[authorityVariable].map { URL(fileURLWithPath: $0) }
                let attached = Result { try ThrowawayPostgres(attachingTo: port, authority: authority) }
                server = attached
                return attached
            }
            // With TLS on, every library's connection verified in full (sslmode=verify-full), as
            // a deployment across a network connects.
            let started = Result { () throws -> (ThrowawayPostgres, TestCertificates) in
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-tls-\(UUID().uuidString.prefix(8))")
                let certificates = try TestCertificates(in: folder, serverNames: ["localhost", "127.0.0.1"])
                return (try ThrowawayPostgres(maxConnections: 500, tls: certificates), certificates)
            }
            let running = started.map(\.0)
            server = running
            if case .success(let (running, certificates)) = started {
                setenv(portVariable, String(running.port), 1)
                setenv(authorityVariable, certificates.authority.path, 1)
            }
            atexit { TestStore.stopServer() }
            return running
        }.get()
    }

    private static func stopServer() {
        if case .success(let server) = server.withLock({ $0 }) { server.stop() }
    }
}
