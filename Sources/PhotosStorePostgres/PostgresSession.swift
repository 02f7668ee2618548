package import Foundation
import Logging
import NIOCore
import NIOPosix
import PhotosLocking
package import PhotosStore
package import PostgresNIO

/// One PostgreSQL connection used synchronously, as the store's callers are: each call sends
/// its statement and waits for the answer on the calling thread (`EventLoopFuture.wait()`),
/// never on one of the event loop's threads. One session runs one statement at a time (a lock
/// orders callers), so a transaction's statements go through the session that began it.
package final class PostgresSession: Sendable {
    private let connection: PostgresConnection
    private let order = Mutex(())
    static let logger = Logger(label: "photokit.postgres")

    private init(connection: PostgresConnection) {
        self.connection = connection
    }

    /// Connects to the database a `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` URL names.
    /// - Throws: `StoreError.cannotOpen` naming the URL (without its password) and the reason.
    package static func connect(to url: URL) throws(StoreError) -> PostgresSession {
        let configuration = try PostgresLocation(url).configuration
        do {
            let connection = try PostgresConnection.connect(
                on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration, id: 1, logger: logger
            ).wait()
            return PostgresSession(connection: connection)
        } catch {
            throw StoreError(.cannotOpen, "can't connect to the PostgreSQL database \(PostgresLocation.redacted(url)): \(Self.reason(error))")
        }
    }

    /// Runs one statement and returns its rows; `failure` names what was being done.
    @discardableResult
    package func query(_ query: PostgresQuery, _ failure: @autoclosure () -> String) throws(StoreError) -> [PostgresRow] {
        try run(query, failure()).rows
    }

    /// Runs one statement and returns its rows and command tag (rows affected).
    func run(_ query: PostgresQuery, _ failure: @autoclosure () -> String) throws(StoreError) -> PostgresQueryResult {
        do {
            return try order.withLock { _ in
                try connection.query(query, logger: Self.logger).wait()
            }
        } catch {
            throw StoreError(.database, "\(failure()): \(Self.reason(error))")
        }
    }

    /// Whether the connection has closed (the server went away, or ``close()``): a closed
    /// session is never reused.
    var isClosed: Bool { connection.isClosed }

    /// Calls `handler` with each notification's payload on `channel`, after `LISTEN` (see
    /// ``PostgresChangeListener``).
    func listen(_ channel: String, handler: @escaping @Sendable (String) -> Void) throws(StoreError) {
        connection.addListener(channel: channel) { _, notification in handler(notification.payload) }
        try query(PostgresQuery(unsafeSQL: "LISTEN \(channel)"), "listening for the library's changes")
    }

    /// Runs `closed` once the connection has closed, for whatever reason.
    func whenClosed(_ closed: @escaping @Sendable () -> Void) {
        connection.closeFuture.whenComplete { _ in closed() }
    }

    /// Runs `body` in one transaction (`BEGIN` … `COMMIT`, `ROLLBACK` when it throws).
    package func transaction<T>(_ failure: String, _ body: () throws(StoreError) -> T) throws(StoreError) -> T {
        try query("BEGIN", failure)
        do {
            let value = try body()
            try query("COMMIT", failure)
            return value
        } catch {
            _ = try? query("ROLLBACK", failure)
            throw error
        }
    }

    /// Closes the connection.
    package func close() {
        _ = try? connection.close().wait()
    }

    /// The server's message for a PostgreSQL error (`PSQLError` prints only its code), else the error.
    static func reason(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                let detail = error.serverInfo?[.detail].map { " (\($0))" } ?? ""
                return "\(message)\(detail)"
            }
            if let underlying = error.underlying { return "\(error.code): \(underlying)" }
            return "\(error.code)"
        }
        return "\(error)"
    }
}

/// Where a PostgreSQL library is: a `postgres://` (or `postgresql://`) URL.
struct PostgresLocation {
    let configuration: PostgresConnection.Configuration

    init(_ url: URL) throws(StoreError) {
        guard let scheme = url.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
            throw StoreError(.cannotOpen, "\(Self.redacted(url)) is not a postgres:// URL")
        }
        guard let host = url.host(percentEncoded: false), !host.isEmpty else {
            throw StoreError(.cannotOpen, "\(Self.redacted(url)) names no host")
        }
        let database = url.path(percentEncoded: false).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        guard !database.isEmpty else {
            throw StoreError(.cannotOpen, "\(Self.redacted(url)) names no database (postgres://USER@HOST:PORT/DATABASE)")
        }
        let user = url.user(percentEncoded: false) ?? ProcessInfo.processInfo.environment["USER"] ?? "postgres"
        configuration = PostgresConnection.Configuration(
            host: host, port: url.port ?? 5432, username: user, password: url.password(percentEncoded: false), database: database,
            tls: .disable)
    }

    /// The URL as text with its password replaced by `***`, for messages.
    static func redacted(_ url: URL) -> String {
        guard url.password != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.password = "***"
        return components.string ?? url.absoluteString
    }
}
