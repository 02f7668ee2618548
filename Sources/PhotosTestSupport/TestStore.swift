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
            if let port = ProcessInfo.processInfo.environment[portVariable].flatMap(Int.init) {
                let attached = Result { try ThrowawayPostgres(attachingTo: port) }
                server = attached
                return attached
            }
            let started = Result { try ThrowawayPostgres(maxConnections: 500) }
            server = started
            if case .success(let running) = started { setenv(portVariable, String(running.port), 1) }
            atexit { TestStore.stopServer() }
            return started
        }.get()
    }

    private static func stopServer() {
        if case .success(let server) = server.withLock({ $0 }) { server.stop() }
    }
}
