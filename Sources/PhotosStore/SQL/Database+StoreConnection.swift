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

    @discardableResult
    package func execute(_ sql: String, _ arguments: SQLArguments) throws -> Int {
        try cachedStatement(sql: sql).execute(arguments: arguments.grdb)
        return changesCount
    }

    package func rows<Record>(
        _ sql: String, _ arguments: SQLArguments, _ decode: (any ColumnReading) throws -> Record
    ) throws -> [Record] {
        let statement = try cachedStatement(sql: sql)
        try statement.setArguments(arguments.grdb)
        let handle = statement.sqliteStatement
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

    package func insert(_ sql: String, _ arguments: SQLArguments) throws -> Int64 {
        try execute(sql, arguments)
        return lastInsertedRowID
    }
}

extension SQLArguments {
    var grdb: StatementArguments {
        StatementArguments(values.map(\.databaseValue))
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
