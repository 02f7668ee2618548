import GRDB
import GRDBSQLite

extension Database {
    /// Runs `sql` on this GRDB connection and decodes each row in place with `decode`, as
    /// ``DirectConnection/query(_:bind:row:)`` does (records have one decoder for both).
    func decodedRows<Record>(
        _ sql: String, arguments: StatementArguments, _ decode: (StatementColumns) -> Record
    ) throws -> [Record] {
        let statement = try cachedStatement(sql: sql)
        try statement.setArguments(arguments)
        let handle = statement.sqliteStatement
        defer { sqlite3_reset(handle) }
        let columns = StatementColumns(statement: handle)
        var records: [Record] = []
        while true {
            switch sqlite3_step(handle) {
            case SQLITE_ROW: records.append(decode(columns))
            case SQLITE_DONE: return records
            case let status:
                throw StoreError(.database, "Reading the library failed (\(status)): \(String(cString: sqlite3_errmsg(sqliteConnection))) in \(sql)")
            }
        }
    }
}
