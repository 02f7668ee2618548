import GRDB
import GRDBSQLite

/// A GRDB connection is the SQLite store's ``StoreConnection``: statements are compiled once
/// per connection and reused (``Database/cachedStatement(sql:)``), and rows are decoded in
/// place from the stepped statement, with no `Row` copied out.
///
/// Compiling a statement that writes `asset`, `albumAsset` or `collection` compiles the
/// journal's triggers with it, which costs far more than running it (GRDB's authorizer visits
/// every column the triggers read): the cache matters for writes too.
extension Database: StoreConnection {
    package var dialect: SQLDialect { .sqlite }
    package var statementsAreRoundTrips: Bool { false }

    @discardableResult
    package func execute(_ statement: StoreSQL) throws -> Int {
        let (sql, binds) = statement.rendered(for: .sqlite)
        try cachedStatement(sql: sql).execute(arguments: StatementArguments(binds.map(\.databaseValue)))
        return changesCount
    }

    package func rows<Record>(_ statement: StoreSQL, _ decode: (any ColumnReading) throws -> Record) throws -> [Record] {
        let (sql, binds) = statement.rendered(for: .sqlite)
        let compiled = try cachedStatement(sql: sql)
        try compiled.setArguments(StatementArguments(binds.map(\.databaseValue)))
        let handle = compiled.sqliteStatement
        defer { sqlite3_reset(handle) }
        let columns = StatementColumns(statement: handle)
        var records: [Record] = []
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_ROW: records.append(try decode(columns))
            case SQLITE_DONE: return records
            case let status:
                throw StoreError(.database, "Reading the library failed (\(status)): \(String(cString: sqlite3_errmsg(sqliteConnection))) in \(sql)")
            }
        }
    }

    package func insert(_ statement: StoreSQL) throws -> Int64 {
        try execute(statement)
        return lastInsertedRowID
    }
}

extension StoreValue {
    var databaseValue: DatabaseValue {
        switch self {
        case .null: .null
        case .integer(let value): value.databaseValue
        case .real(let value): value.databaseValue
        case .text(let value): value.databaseValue
        }
    }
}
