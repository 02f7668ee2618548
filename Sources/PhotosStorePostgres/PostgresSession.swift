package import Foundation
import Logging
import NIOCore
import NIOPosix
import PhotosLocking
package import PhotosStore
package import PostgresNIO

/// One PostgreSQL connection used synchronously, as the store's callers are: each call sends
/// its statement and blocks the calling thread until the answer is in (``EventLoopFuture/blockingResult()``).
/// Connections run on event loops of their own (``eventLoops``), so a caller may block on any
/// thread, one of a server's event loops included, without waiting for itself. One session runs one statement at a time (a lock
/// orders callers), so a transaction's statements go through the session that began it.
package final class PostgresSession: Sendable {
    private let connection: PostgresConnection
    private let order = Mutex(())
    /// How long a statement's answer is waited for before the connection is given up
    /// (``PostgresConnectionSettings/answerTimeout``).
    private let answerTimeout: TimeInterval
    /// Where the statements it sends are counted (its engine's), if anywhere.
    private let counter: StatementCounter?
    static let logger = Logger(label: "photokit.postgres")

    /// The event loops every session's connection runs on: the store's own, never a server's
    /// (`MultiThreadedEventLoopGroup.singleton`, which Hummingbird runs requests on), since a
    /// request blocked on its own loop would wait forever. Two threads: the wire work per
    /// statement is small next to the server's round trip.
    static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 2)

    /// Whether the connection was made with TLS required (for `sslmode=allow`'s choice).
    let isEncrypted: Bool

    /// Gives a pooled connection back to its pool (``PostgresSessionPool``), once; `nil` for a
    /// connection of the session's own.
    private let lease: PostgresSessionPool.Lease?
    /// The statements prepared on the connection (kept as long as it is open, across leases).
    let prepared: PostgresPreparedStatements

    private init(connection: PostgresConnection, settings: PostgresConnectionSettings, counter: StatementCounter?, encrypted: Bool) {
        self.connection = connection
        self.counter = counter
        answerTimeout = settings.answerTimeout
        isEncrypted = encrypted
        lease = nil
        prepared = .of(connection, threshold: settings.prepareThreshold, maximum: settings.preparedMaximum)
    }

    /// A session on a connection leased from the pool: ``giveBack()`` returns it.
    init(leased connection: PostgresConnection, lease: PostgresSessionPool.Lease, settings: PostgresConnectionSettings, counter: StatementCounter?) {
        self.connection = connection
        self.counter = counter
        answerTimeout = settings.answerTimeout
        self.lease = lease
        isEncrypted = false
        prepared = .of(connection, threshold: settings.prepareThreshold, maximum: settings.preparedMaximum)
    }

    /// Returns a pooled session's connection to its pool (a closed one is dropped there); closes
    /// a session of its own. The session is not used again.
    func giveBack() {
        if let lease {
            if fault.withLock({ $0 }) == nil { lease.giveBack() } else { lease.release() }
        } else {
            close()
        }
    }

    /// Connects to the database a `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` URL names,
    /// with libpq's parameters, variables and password file (``PostgresConnectionSettings``).
    /// - Throws: `StoreError.cannotOpen` naming where (never the password) and the reason.
    package static func connect(to url: URL) throws(StoreError) -> PostgresSession {
        try connect(PostgresConnectionSettings(url: url))
    }

    /// Connects as `settings` say: each of their attempts in turn (`sslmode=allow` has two).
    package static func connect(_ settings: PostgresConnectionSettings, counting counter: StatementCounter? = nil) throws(StoreError) -> PostgresSession {
        var failure: (any Error)?
        for configuration in try settings.configurations() {
            do {
                // The TCP connection within connect_timeout (postgres-nio's), and the whole
                // handshake too: a network that stalls after the connection doesn't hang here.
                let connecting = PostgresConnection.connect(on: eventLoops.next(), configuration: configuration, id: 1, logger: logger)
                let connection: PostgresConnection
                do {
                    connection = try connecting.blockingResult(timeout: settings.connectTimeout, what: "connection")
                } catch let timeout as AnswerTimeout {
                    // One that completes after all is closed: nobody waits for it.
                    connecting.whenSuccess { late in late.close().whenComplete { _ in } }
                    throw timeout
                }
                return PostgresSession(connection: connection, settings: settings, counter: counter, encrypted: configuration.tls.isEnforced)
            } catch {
                failure = error
            }
        }
        let password = settings.passwordFromFile.map { " (password from \($0.path))" } ?? ""
        let error = failure ?? CancellationError()
        // A server that isn't there (or says it is starting or stopping) may be back later;
        // one that refuses the user or the certificate won't.
        throw StoreError(
            Self.isUnavailability(error) ? .unavailable : .cannotOpen,
            "can't connect to the PostgreSQL database \(settings.description)\(password): \(Self.reason(error))")
    }

    /// Runs one statement and returns its rows; `failure` names what was being done.
    @discardableResult
    package func query(_ query: PostgresQuery, _ failure: @autoclosure () -> String, values: [PostgresData]? = nil) throws(StoreError) -> [PostgresRow] {
        try run(query, failure(), values: values).rows
    }

    /// How many statements ran on an event loop's thread (a server's, which blocked every
    /// connection of that loop for a round trip): each is a bug, reported on standard error.
    static let statementsOnEventLoops = Atomic<Int>(0)

    /// Reports a statement sent from an event loop's thread (the first 100 of a process).
    private static func auditThread(_ query: PostgresQuery) {
        guard MultiThreadedEventLoopGroup.currentEventLoop != nil else { return }
        let count = statementsOnEventLoops.add(1, ordering: .relaxed).newValue
        guard count <= 100 else { return }
        let statement = query.sql.split(whereSeparator: \.isWhitespace).joined(separator: " ").prefix(100)
        FileHandle.standardError.write(Data("PhotoKit: a PostgreSQL statement ran on an event loop, blocking its connections: \(statement)\n".utf8))
    }

    /// Puts `query` on the connection's loop, checked and counted (`waited`: the caller blocks
    /// for its answer): the query sent and its callback registered in one task there (from
    /// another thread, each is a wake-up of the loop, and each wake-up costs about as much as
    /// the server's answer on a busy machine). The connection runs its statements in the order
    /// they reach its loop; callers hold ``order`` around this.
    ///
    /// With `values` (the binds as a prepared statement takes them), the statement runs as the
    /// connection's prepared one once it has run unnamed often enough (``PostgresPreparedStatements``);
    /// its answer then has no rows-affected count, which only ``run(_:_:values:)``'s callers
    /// that pass no values read.
    private func enqueue(
        _ query: PostgresQuery, values: [PostgresData]?, waited: Bool, _ completion: @escaping @Sendable (Result<Answer, any Error>) -> Void
    ) {
        Self.auditThread(query)
        counter?.count.add(1, ordering: .relaxed)
        if waited { counter?.waits.add(1, ordering: .relaxed) }
        let (connection, prepared) = (connection, prepared)
        connection.eventLoop.execute {
            // Closed since the caller looked (the server went away): answered at once, where a
            // statement written to a closing connection may never be.
            guard !connection.isClosed else { return completion(.failure(PostgresError.connectionClosed)) }
            self.written.add(1, ordering: .relaxed)
            guard let values else {
                connection.query(query, logger: Self.logger).whenComplete { completion($0.map(Answer.init)) }
                return
            }
            if let statement = prepared.prepared(query.sql) {
                let rows = Mutex([PostgresRow]())
                statement.execute(values) { row in rows.withLock { $0.append(row) } }.whenComplete { outcome in
                    completion(outcome.map { Answer(rows: rows.withLock { $0 }, rowsAffected: nil) })
                }
            } else {
                connection.query(query, logger: Self.logger).whenComplete { completion($0.map(Answer.init)) }
                prepared.ranUnnamed(query.sql, on: connection)
            }
        }
    }

    /// A statement's rows, and how many rows it changed when known.
    struct Answer: Sendable {
        let rows: [PostgresRow]
        let rowsAffected: Int?

        init(rows: [PostgresRow], rowsAffected: Int?) {
            self.rows = rows
            self.rowsAffected = rowsAffected
        }

        init(_ result: PostgresQueryResult) {
            self.init(rows: result.rows, rowsAffected: result.metadata.rows)
        }
    }

    /// Sends a statement whose answer the caller doesn't need now (a transaction's `BEGIN`):
    /// the connection runs it before the next statement, which the caller waits for instead,
    /// so the calling thread blocks once for both. A failure of the statement sent is thrown
    /// by that next ``run(_:_:)``.
    func send(_ query: PostgresQuery, values: [PostgresData]? = nil) {
        let failures = sentFailures
        order.withLock { _ in
            enqueue(query, values: values, waited: false) { outcome in
                if case .failure(let error) = outcome { failures.withLock { $0 = $0 ?? error } }
            }
        }
    }

    /// Sends `query` (a read-only transaction's `COMMIT`) and gives the session back once it is
    /// answered, closed when it failed; the caller doesn't wait for it. Any earlier failure of
    /// a statement sent ahead closes it too.
    func finishThenGiveBack(_ query: PostgresQuery) {
        let (connection, lease, failures) = (connection, lease, sentFailures)
        order.withLock { _ in
            enqueue(query, values: nil, waited: false) { outcome in
                let failed = failures.withLock { $0 != nil }
                if case .success = outcome, !failed, let lease {
                    lease.giveBack()
                    return
                }
                // Never reused: closed without blocking (this is the connection's loop).
                connection.close().whenComplete { _ in lease?.release() }
            }
        }
    }

    /// The first failure of a statement ``send(_:)`` sent, not yet thrown.
    private let sentFailures = Mutex<(any Error)?>(nil)

    /// Runs one statement and returns its rows and, for a statement given no `values` (never
    /// prepared), the rows it changed.
    func run(_ query: PostgresQuery, _ failure: @autoclosure () -> String, values: [PostgresData]? = nil) throws(StoreError) -> Answer {
        do {
            return try order.withLock { _ in
                // A query sent on a connection the server has closed may never be answered.
                guard !connection.isClosed else {
                    found(.closed)
                    throw StoreError(.unavailable, "the connection to the server is closed")
                }
                precondition(!connection.eventLoop.inEventLoop, "a PostgreSQL session was used from its own event loop")
                let answer = Result { try self.answerLater(query, values: values, waited: true)() }
                // Statements sent before this one were answered before it: the first
                // failure among them is the cause of whatever this one says.
                if let earlier = sentFailures.withLock({ failed in defer { failed = nil }; return failed }) { throw earlier }
                return try answer.get()
            }
        } catch {
            throw failed(error, failure())
        }
    }

    /// Sends `query` for an answer read later: the connection runs it before the next
    /// statement, and the function returned gives its rows (blocking only if they aren't in
    /// yet, at most ``answerTimeout``) or throws its failure, as ``run(_:_:values:)`` would.
    /// Until read, a failure is also thrown by the next statement run, as with ``send(_:values:)``.
    func sendForAnswer(_ query: PostgresQuery, values: [PostgresData]? = nil) -> (_ failure: String) throws(StoreError) -> [PostgresRow] {
        let failures = sentFailures
        let answer = order.withLock { _ in
            answerLater(query, values: values, waited: false) { error in failures.withLock { $0 = $0 ?? error } }
        }
        return { [self] failure throws(StoreError) in
            do {
                return try answer().rows
            } catch {
                // Thrown here: the next statement need not throw it again.
                failures.withLock { $0 = nil }
                throw failed(error, failure)
            }
        }
    }

    /// Puts `query` on the connection (``enqueue(_:values:waited:_:)``) and returns the wait for
    /// its answer: at most ``answerTimeout``, then ``AnswerTimeout``. `failing` hears a failure
    /// as it comes in.
    private func answerLater(
        _ query: PostgresQuery, values: [PostgresData]?, waited: Bool, failing: (@Sendable (any Error) -> Void)? = nil
    ) -> () throws -> Answer {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<Answer, any Error>?>(nil)
        enqueue(query, values: values, waited: waited) { outcome in
            if case .failure(let error) = outcome { failing?(error) }
            result.withLock { $0 = outcome }
            done.signal()
        }
        let timeout = answerTimeout
        return {
            guard done.wait(timeout: .now() + timeout) == .success else { throw AnswerTimeout(what: "answer", seconds: timeout) }
            return try result.withLock { $0! }.get()
        }
    }

    /// A statement's failure as the store reports it, `failure` naming what was being done; a
    /// connection the server ended is marked so it is not handed out again.
    private func failed(_ error: any Error, _ failure: String) -> StoreError {
        if let error = error as? StoreError { return StoreError(error.code, "\(failure): \(error.message)") }
        if let message = Self.missingRow(error) { return StoreError(.missingObject, message) }
        if let timeout = error as? AnswerTimeout {
            // The network or the server stalled: this connection is given up (a late answer
            // would belong to no one), and the caller hears it is unavailable.
            found(.stalled)
            connection.close().whenComplete { _ in }
            return StoreError(.unavailable, "\(failure): \(timeout.description)")
        }
        let unavailable = Self.isUnavailability(error)
        if unavailable {
            // The server is going or gone: this connection is not handed out again.
            found(.closed)
            connection.close().whenComplete { _ in }
        }
        return StoreError(unavailable ? .unavailable : .database, "\(failure): \(Self.reason(error))")
    }

    /// Statements handed to the connection (not those refused because it had closed).
    private let written = Atomic<Int>(0)

    /// Whether no statement of this session reached the connection: a failure then left
    /// nothing on the server, and the work can run again on another connection.
    var wroteNothing: Bool { written.load(ordering: .relaxed) == 0 }

    /// How a statement found the connection unusable (``run(_:_:values:)``), the first time:
    /// such a session's connection goes back to the pool's client, never to its shelf.
    private enum Fault { case closed, stalled }
    private let fault = Mutex<Fault?>(nil)

    private func found(_ new: Fault) {
        fault.withLock { $0 = $0 ?? new }
    }

    /// Whether a statement failed because the connection closed under it (the server ended
    /// it), not because an answer was late (`answer_timeout`: the network or the server stalled).
    var lostItsConnection: Bool { fault.withLock { $0 } == .closed }

    /// Whether `error` says the server can't be reached now rather than that it refused: no
    /// connection (refused, reset, timed out, closed), or a server that is starting, stopping
    /// or restarting (SQLSTATE class 08, 57P01-57P03).
    static func isUnavailability(_ error: any Error) -> Bool {
        if error is ChannelError || error is IOError || error is AnswerTimeout { return true }
        // A prepared statement runs through postgres-nio's older API, which reports the same
        // events as `PostgresError`.
        if let error = error as? PostgresError {
            switch error {
            case .connectionClosed: return true
            case .server(let server): return isUnavailability(sqlState: server.fields[.sqlState] ?? "")
            case .protocol: return false
            }
        }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .connectionError, .serverClosedConnection, .clientClosedConnection, .uncleanShutdown, .poolClosed: return true
        case .server: return isUnavailability(sqlState: error.serverInfo?[.sqlState] ?? "")
        default:
            return false
        }
    }

    /// Connection exceptions (class 08), and the server shutting down or restarting (57P01-03).
    private static func isUnavailability(sqlState state: String) -> Bool {
        state.hasPrefix("08") || ["57P01", "57P02", "57P03"].contains(state)
    }

    /// Whether the connection has closed (the server went away, or ``close()``): a closed
    /// session is never reused.
    var isClosed: Bool { connection.isClosed }

    /// Calls `handler` with each notification's payload on `channel`, after `LISTEN` (see
    /// ``PostgresChangeListener``).
    func listen(_ channel: String, handler: @escaping @Sendable (String) -> Void) throws(StoreError) {
        connection.addListener(channel: channel) { _, notification in handler(notification.payload) }
        // `LISTEN` takes an identifier, which can't be bound; the channel is the store's constant.
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

    /// Closes the connection (a pooled one is then given back, and the pool drops it).
    package func close() {
        _ = try? connection.close().blockingResult()
        lease?.release()
    }

    /// The server's message when `error` is `photokit_missing`'s (SQLSTATE PH404,
    /// `PostgresJournalSchema.missingRowState`): what a change names isn't there. Reported as
    /// the store's missing object, in the words the store uses when it reads the rows itself.
    static func missingRow(_ error: any Error) -> String? {
        let (state, message): (String?, String?)
        if let error = error as? PSQLError {
            (state, message) = (error.serverInfo?[.sqlState], error.serverInfo?[.message])
        } else if case .server(let server)? = error as? PostgresError {
            (state, message) = (server.fields[.sqlState], server.fields[.message])
        } else {
            return nil
        }
        return state == PostgresJournalSchema.missingRowState ? message : nil
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
        if let error = error as? PostgresError {
            switch error {
            case .server(let server): return server.fields[.message] ?? "\(server)"
            case .connectionClosed: return "the connection to the server is closed"
            case .protocol(let message): return "protocol error: \(message)"
            }
        }
        return "\(error)"
    }
}

extension EventLoopFuture where Value: Sendable {
    /// Blocks the calling thread until the future completes and returns its value; with a
    /// `timeout`, throws ``AnswerTimeout`` once it has passed without one.
    ///
    /// `wait()` refuses to run on any event loop thread; this runs on any thread but the
    /// future's own loop (the sessions' loops are the store's alone, ``PostgresSession/eventLoops``).
    func blockingResult(timeout: TimeInterval? = nil, what: String = "answer") throws -> Value {
        precondition(!eventLoop.inEventLoop, "a PostgreSQL session was used from its own event loop")
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<Value, any Error>?>(nil)
        whenComplete { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        if let timeout {
            guard done.wait(timeout: .now() + timeout) == .success else { throw AnswerTimeout(what: what, seconds: timeout) }
        } else {
            done.wait()
        }
        return try result.withLock { $0! }.get()
    }
}

/// No answer from the database within the time allowed (a network or a server that stalled).
struct AnswerTimeout: Error, CustomStringConvertible {
    let what: String
    let seconds: TimeInterval
    var description: String { "no \(what) from the database within \(Int(seconds)) s" }
}
