package import Foundation

/// One connection to a library's database, inside a read or a write transaction, whichever
/// engine holds the library: SQLite through GRDB (`Database`) or PostgreSQL.
///
/// The store's logic (change blocks, the journal, moments, access tokens, fetches) is written
/// once against this protocol, so both engines give the same answers. Statements use `?`
/// placeholders and the SQL both engines accept; where they differ, ``dialect`` writes the
/// fragment (JSON arrays of keys, null-safe comparisons, the library's position). SQLite's
/// planner hints may stay in the text (`INDEXED BY name`, `CROSS JOIN` to fix a join order):
/// engines without them drop them.
package protocol StoreConnection {
    /// The engine's SQL spelling.
    var dialect: SQLDialect { get }

    /// Runs one statement and returns how many rows it inserted, updated or deleted.
    @discardableResult
    func execute(_ sql: String, _ arguments: SQLArguments) throws -> Int

    /// Runs a query and decodes each row with `decode`, in the order the query returns them.
    func rows<Record>(_ sql: String, _ arguments: SQLArguments, _ decode: (any ColumnReading) throws -> Record) throws -> [Record]

    /// Runs one `INSERT` of one row into a table whose key is `id`, and returns the new id.
    func insert(_ sql: String, _ arguments: SQLArguments) throws -> Int64

    /// The first column of a query's rows as integers, in order: a fetch's ids. An engine
    /// that pays per row sent (PostgreSQL) returns them as one array value.
    func int64Column(_ sql: String, _ arguments: SQLArguments) throws -> [Int64]
}

extension StoreConnection {
    package func int64Column(_ sql: String, _ arguments: SQLArguments) throws -> [Int64] {
        try rows(sql, arguments) { $0.int64(0) }
    }

    @discardableResult
    package func execute(_ sql: String) throws -> Int {
        try execute(sql, [])
    }

    /// The first row of a query, decoded; `nil` when it returns none.
    package func row<Record>(_ sql: String, _ arguments: SQLArguments = [], _ decode: (any ColumnReading) throws -> Record) throws -> Record? {
        try rows(sql, arguments, decode).first
    }

    /// The first column of the first row as an integer; `nil` for no row or `NULL`.
    package func int64(_ sql: String, _ arguments: SQLArguments = []) throws -> Int64? {
        try row(sql, arguments) { $0.optionalInt64(0) } ?? nil
    }

    package func int(_ sql: String, _ arguments: SQLArguments = []) throws -> Int? {
        try int64(sql, arguments).map(Int.init)
    }

    package func double(_ sql: String, _ arguments: SQLArguments = []) throws -> Double? {
        try row(sql, arguments) { $0.optionalDouble(0) } ?? nil
    }

    package func text(_ sql: String, _ arguments: SQLArguments = []) throws -> String? {
        try row(sql, arguments) { $0.optionalText(0) } ?? nil
    }

    /// Whether the query returns a row whose first column is true (non-zero).
    package func bool(_ sql: String, _ arguments: SQLArguments = []) throws -> Bool? {
        try row(sql, arguments) { $0.isNull(0) ? nil : $0.bool(0) } ?? nil
    }

    /// The first column of every row, as integers (`NULL`s skipped).
    package func int64s(_ sql: String, _ arguments: SQLArguments = []) throws -> [Int64] {
        try rows(sql, arguments) { $0.optionalInt64(0) }.compactMap { $0 }
    }

    /// The first column of every row, as text (`NULL`s skipped).
    package func texts(_ sql: String, _ arguments: SQLArguments = []) throws -> [String] {
        try rows(sql, arguments) { $0.optionalText(0) }.compactMap { $0 }
    }
}

/// The current row of a query, read by column index (from 0).
package protocol ColumnReading {
    func isNull(_ index: Int32) -> Bool
    /// An integer column (a boolean reads as 0 or 1); 0 for `NULL`.
    func int64(_ index: Int32) -> Int64
    /// A number column; 0 for `NULL`.
    func double(_ index: Int32) -> Double
    /// A text column; "" for `NULL`.
    func text(_ index: Int32) -> String
    /// A column as whichever value it holds (a sort key's term).
    func value(_ index: Int32) -> StoreValue
}

extension ColumnReading {
    package func int(_ index: Int32) -> Int { Int(int64(index)) }
    package func bool(_ index: Int32) -> Bool { int64(index) != 0 }
    package func optionalInt(_ index: Int32) -> Int? { isNull(index) ? nil : int(index) }
    package func optionalInt64(_ index: Int32) -> Int64? { isNull(index) ? nil : int64(index) }
    package func optionalDouble(_ index: Int32) -> Double? { isNull(index) ? nil : double(index) }
    package func optionalText(_ index: Int32) -> String? { isNull(index) ? nil : text(index) }
    package func optionalBool(_ index: Int32) -> Bool? { isNull(index) ? nil : bool(index) }
    /// A date stored as seconds since 1970.
    package func date(_ index: Int32) -> Date? { optionalDouble(index).map(Date.init(timeIntervalSince1970:)) }
}
