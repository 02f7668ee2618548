import Foundation
import GRDBSQLite
import PhotosLocking

/// Reads rows by id on plain read-only SQLite connections, for the calls a fetch result makes
/// per object (`object(at:)`, enumeration batches).
///
/// GRDB's `DatabasePool.read` hops onto a dispatch queue, takes a reader from its pool and
/// wraps the body in a transaction: about 40 µs a call on the benchmark machine, more than the
/// query itself. A single `SELECT` is atomic on its own, so these reads need none of that: a
/// connection is taken from a small idle list, its cached statement is bound and stepped, and
/// the columns are decoded in place. Writes and multi-statement reads stay on GRDB.
final class DirectReader: Sendable {
    private let path: String
    private let idle = Mutex<[DirectConnection]>([])
    /// Connections kept open when idle; more are opened under contention and closed after.
    private static let keptIdle = 4

    /// Each connection's `mmap_size`.
    private let memoryMap: Int

    init(path: String, memoryMap: Int) {
        self.path = path
        self.memoryMap = memoryMap
    }

    deinit {
        idle.withLock { $0.removeAll() }
    }

    /// Runs `body` on a connection no other thread is using.
    func withConnection<T>(_ body: (DirectConnection) throws(StoreError) -> T) throws(StoreError) -> T {
        let connection: DirectConnection
        if let reused = idle.withLock({ $0.popLast() }) {
            connection = reused
        } else {
            connection = try DirectConnection(path: path, memoryMap: memoryMap)
        }
        defer {
            idle.withLock { connections in
                if connections.count < Self.keptIdle { connections.append(connection) }
            }
        }
        return try body(connection)
    }
}

/// One read-only SQLite connection and its prepared statements. Used by one thread at a time:
/// ``DirectReader`` hands it out and takes it back.
final class DirectConnection: @unchecked Sendable {
    // @unchecked Sendable: only ever used by the thread that took it from the reader.
    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]
    /// The statement prepared or found last.
    private var last: (sql: String, statement: OpaquePointer)?

    init(path: String, memoryMap: Int) throws(StoreError) {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(handle)
            throw StoreError(.cannotOpen, "Can't open the library database \(path) for reading: \(message)")
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, Int32(LibraryDatabase.busyTimeout * 1000))
        // Map the file (unless the library was opened with no map): a read touches pages in
        // place instead of copying them with pread.
        sqlite3_exec(handle, "PRAGMA mmap_size = \(memoryMap)", nil, nil, nil)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs `sql` with `bind` setting its parameters and `row` called for each result row.
    func query(
        _ sql: String, bind: (OpaquePointer) -> Void, row: (StatementColumns) -> Void
    ) throws(StoreError) {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        bind(statement)
        let columns = StatementColumns(statement: statement)
        while true {
            switch sqlite3_step(statement) {
            case SQLITE_ROW: row(columns)
            case SQLITE_DONE: return
            case let status:
                throw StoreError(.database, "Reading the library failed (\(status)): \(String(cString: sqlite3_errmsg(handle))) in \(sql)")
            }
        }
    }

    private func prepared(_ sql: String) throws(StoreError) -> OpaquePointer {
        // The same statement again (a fetch result's reads by id): compared, not hashed, since
        // hashing a selection of 31 columns cost ~3,400 instructions a read.
        if let last, last.sql == sql { return last.statement }
        if let statement = statements[sql] {
            last = (sql, statement)
            return statement
        }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
            let statement
        else {
            throw StoreError(.database, "Can't prepare \(sql): \(String(cString: sqlite3_errmsg(handle)))")
        }
        statements[sql] = statement
        last = (sql, statement)
        return statement
    }
}

/// The current row of a stepped SQLite statement, read by column index.
struct StatementColumns: ColumnReading {
    let statement: OpaquePointer

    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }
    func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }
    func double(_ index: Int32) -> Double { sqlite3_column_double(statement, index) }

    func value(_ index: Int32) -> StoreValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: .integer(int64(index))
        case SQLITE_FLOAT: .real(double(index))
        case SQLITE_TEXT: .text(text(index))
        default: .null
        }
    }

    func text(_ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}

/// Binding a statement's values to a prepared statement of a ``DirectConnection``.
enum DirectBind {
    /// `SQLITE_TRANSIENT`: SQLite copies the text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    static func values(_ statement: OpaquePointer, _ values: [StoreValue]) {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .null: sqlite3_bind_null(statement, index)
            case .integer(let integer): sqlite3_bind_int64(statement, index, integer)
            case .real(let real): sqlite3_bind_double(statement, index, real)
            case .text(let text): sqlite3_bind_text(statement, index, text, -1, transient)
            }
        }
    }
}
