import NIOCore
import PhotosLocking
import PostgresNIO

/// The statements one connection has prepared on the server, by their text: a statement run
/// `prepare_threshold` times on a connection (5) is prepared there (a named statement, parsed
/// and planned once), and from then on runs as `Bind`/`Execute` only, which costs the server
/// less than half of a parse, analysis and plan each time (pgbench on a row read of the
/// store's: 176 µs an unnamed statement, 74 µs prepared). At most `prepared_max` (100) a
/// connection; the least recently used is closed for a new one. psycopg's names and defaults.
///
/// Everything here runs on the connection's event loop, in the order the session put its
/// statements there: a statement is prepared after it ran unnamed (the `Parse` goes after it,
/// its failure only means the statement stays unnamed), and runs prepared from the first use
/// after the server said it was, so the session's order of statements is never changed.
///
/// Linux note: libpq leaves preparing to its caller (`PQprepare`); this is what psycopg and
/// the JDBC driver do for their callers.
final class PostgresPreparedStatements: Sendable {
    /// A statement's text with its binds as postgres-nio's legacy values, which a prepared
    /// statement's `Execute` takes.
    struct Preparable: Sendable {
        let sql: String
        let values: [PostgresData]
    }

    private struct State {
        var prepared: [String: (statement: PreparedQuery, used: UInt64)] = [:]
        /// Unnamed runs of statements not prepared yet (cleared when it grows past a bound:
        /// texts that carry their values, ids inlined, would otherwise pile up).
        var runs: [String: Int] = [:]
        var preparing: Set<String> = []
        var clock: UInt64 = 0
    }

    private let state = Mutex(State())
    let threshold: Int
    let maximum: Int

    init(threshold: Int, maximum: Int) {
        self.threshold = threshold
        self.maximum = maximum
    }

    /// The statement prepared for `sql`, if it is (and marks it used).
    func prepared(_ sql: String) -> PreparedQuery? {
        state.withLock { state in
            guard var entry = state.prepared[sql] else { return nil }
            state.clock &+= 1
            entry.used = state.clock
            state.prepared[sql] = entry
            return entry.statement
        }
    }

    /// Counts an unnamed run of `sql` on `connection`; at the threshold, prepares it there
    /// (closing the least recently used one when `maximum` are).
    func ranUnnamed(_ sql: String, on connection: PostgresConnection) {
        guard maximum > 0 else { return }
        let (prepare, evicted) = state.withLock { state -> (Bool, PreparedQuery?) in
            guard !state.preparing.contains(sql) else { return (false, nil) }
            if state.runs.count > 4 * maximum + 64 { state.runs.removeAll(keepingCapacity: true) }
            let runs = (state.runs[sql] ?? 0) + 1
            guard runs >= threshold else {
                state.runs[sql] = runs
                return (false, nil)
            }
            state.runs[sql] = nil
            state.preparing.insert(sql)
            var evicted: PreparedQuery?
            if state.prepared.count + state.preparing.count > maximum,
               let oldest = state.prepared.min(by: { $0.value.used < $1.value.used }) {
                state.prepared[oldest.key] = nil
                evicted = oldest.value.statement
            }
            return (true, evicted)
        }
        // Closed after its last use was put on the connection: nothing runs it again.
        evicted?.deallocate().whenComplete { _ in }
        guard prepare else { return }
        connection.prepare(query: sql).whenComplete { [state] outcome in
            state.withLock { state in
                state.preparing.remove(sql)
                guard case .success(let statement) = outcome else { return }
                state.clock &+= 1
                state.prepared[sql] = (statement, state.clock)
            }
        }
    }

    /// How many statements are prepared (for tests).
    var count: Int { state.withLock { $0.prepared.count } }

    // MARK: - One cache a connection

    private static let byConnection = Mutex<[ObjectIdentifier: PostgresPreparedStatements]>([:])

    /// The cache of `connection`, made on its first session and dropped when it closes.
    static func of(_ connection: PostgresConnection, threshold: Int, maximum: Int) -> PostgresPreparedStatements {
        let key = ObjectIdentifier(connection)
        let (cache, made) = byConnection.withLock { caches -> (PostgresPreparedStatements, Bool) in
            if let cache = caches[key] { return (cache, false) }
            let cache = PostgresPreparedStatements(threshold: threshold, maximum: maximum)
            caches[key] = cache
            return (cache, true)
        }
        if made {
            connection.closeFuture.whenComplete { _ in
                byConnection.withLock { caches in
                    if caches[key] === cache { caches[key] = nil }
                }
            }
        }
        return cache
    }
}
