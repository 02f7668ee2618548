package import Foundation

/// One connection to a library's database, inside a read or a write transaction, whichever
/// engine holds the library: SQLite through GRDB (`Database`) or PostgreSQL.
///
/// The store's logic (change blocks, the journal, moments, access tokens, fetches) is written
/// once against this protocol, so both engines give the same answers. Statements are
/// ``StoreSQL`` values: their binds travel with them, and each engine renders them in its
/// own spelling (``StoreSQL/rendered(for:)``).
package protocol StoreConnection {
    /// The engine's SQL spelling.
    var dialect: SQLDialect { get }

    /// Whether each statement is a round trip to a server (PostgreSQL), so reading many rows
    /// in one statement beats many reads of one (SQLite's cost microseconds each).
    var statementsAreRoundTrips: Bool { get }

    /// Runs one statement and returns how many rows it inserted, updated or deleted.
    @discardableResult
    func execute(_ statement: StoreSQL) throws -> Int

    /// Runs a query and decodes each row with `decode`, in the order the query returns them.
    func rows<Record>(_ statement: StoreSQL, _ decode: (any ColumnReading) throws -> Record) throws -> [Record]

    /// Runs a statement whose answer the caller doesn't need (an `UPDATE` whose row count
    /// nobody reads): an engine whose statements are round trips may send it and go on, its
    /// failure then thrown by the next statement of the transaction (PostgreSQL); SQLite runs
    /// it at once.
    func executeAhead(_ statement: StoreSQL) throws

    /// Runs a query whose first row the caller reads later, with ``RowAhead/get()``: an engine
    /// whose statements are round trips (PostgreSQL) sends it and goes on, and its answer comes
    /// in with the next statement the caller waits for; SQLite runs it at once.
    func rowAhead<Record>(_ statement: StoreSQL, _ decode: @escaping (any ColumnReading) throws -> Record) throws -> RowAhead<Record>

    /// ``rowAhead(_:_:)`` for every row of the query: the rows are read later, together.
    func rowsAhead<Record>(_ statement: StoreSQL, _ decode: @escaping (any ColumnReading) throws -> Record) throws -> RowAhead<[Record]>

    /// Runs one `INSERT` of one row into a table whose key is `id`, and returns the new id.
    func insert(_ statement: StoreSQL) throws -> Int64

    /// The first column of a query's rows as integers, in order: a fetch's ids. An engine
    /// that pays per row sent (PostgreSQL) returns them as one array value.
    func int64Column(_ statement: StoreSQL) throws -> [Int64]
}

extension StoreConnection {
    package func executeAhead(_ statement: StoreSQL) throws {
        try execute(statement)
    }

    package func rowAhead<Record>(_ statement: StoreSQL, _ decode: @escaping (any ColumnReading) throws -> Record) throws -> RowAhead<Record> {
        let row = try row(statement, decode)
        return RowAhead { row }
    }

    package func rowsAhead<Record>(_ statement: StoreSQL, _ decode: @escaping (any ColumnReading) throws -> Record) throws -> RowAhead<[Record]> {
        let rows = try rows(statement, decode)
        return RowAhead { rows }
    }

    package func int64Column(_ statement: StoreSQL) throws -> [Int64] {
        try rows(statement) { $0.int64(0) }
    }

    /// The first row of a query, decoded; `nil` when it returns none.
    package func row<Record>(_ statement: StoreSQL, _ decode: (any ColumnReading) throws -> Record) throws -> Record? {
        try rows(statement, decode).first
    }

    /// The first column of the first row as an integer; `nil` for no row or `NULL`.
    package func int64(_ statement: StoreSQL) throws -> Int64? {
        try row(statement) { $0.optionalInt64(0) } ?? nil
    }

    package func int(_ statement: StoreSQL) throws -> Int? {
        try int64(statement).map(Int.init)
    }

    package func double(_ statement: StoreSQL) throws -> Double? {
        try row(statement) { $0.optionalDouble(0) } ?? nil
    }

    package func text(_ statement: StoreSQL) throws -> String? {
        try row(statement) { $0.optionalText(0) } ?? nil
    }

    /// Whether the query returns a row whose first column is true (non-zero).
    package func bool(_ statement: StoreSQL) throws -> Bool? {
        try row(statement) { $0.isNull(0) ? nil : $0.bool(0) } ?? nil
    }

    /// The first column of every row, as integers (`NULL`s skipped).
    package func int64s(_ statement: StoreSQL) throws -> [Int64] {
        try rows(statement) { $0.optionalInt64(0) }.compactMap { $0 }
    }

    /// The first column of every row, as text (`NULL`s skipped).
    package func texts(_ statement: StoreSQL) throws -> [String] {
        try rows(statement) { $0.optionalText(0) }.compactMap { $0 }
    }
}

/// The current row of a query, read by column index (from 0), or by a table's column when the
/// query selected the table's columns first, in order (``TableColumn/selection``):
/// `row[AssetColumn.mediaType]`.
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

    // MARK: Columns by name
    //
    // A table's column, in a row selected with the table's ``TableColumn/selection`` (or a
    // ``TableColumn/selection(through:)``) first: `row[AssetColumn.mediaType]`, read as the
    // type the context asks. One overload per type, rather than a protocol the value types
    // adopt: record decoding is the per-object path of every fetch result, and these compile
    // to the index read itself. `NULL` reads as 0, "" or the 1970 epoch, or as `nil`.

    package subscript<Column: TableColumn>(_ column: Column) -> Int64 { int64(column.rawValue) }
    package subscript<Column: TableColumn>(_ column: Column) -> Int { int(column.rawValue) }
    package subscript<Column: TableColumn>(_ column: Column) -> Double { double(column.rawValue) }
    package subscript<Column: TableColumn>(_ column: Column) -> Bool { bool(column.rawValue) }
    package subscript<Column: TableColumn>(_ column: Column) -> String { text(column.rawValue) }
    /// A date stored as seconds since 1970.
    package subscript<Column: TableColumn>(_ column: Column) -> Date { Date(timeIntervalSince1970: double(column.rawValue)) }
    package subscript<Column: TableColumn>(_ column: Column) -> Int64? { optionalInt64(column.rawValue) }
    package subscript<Column: TableColumn>(_ column: Column) -> Int? { optionalInt(column.rawValue) }
    package subscript<Column: TableColumn>(_ column: Column) -> Double? { optionalDouble(column.rawValue) }
    package subscript<Column: TableColumn>(_ column: Column) -> Bool? { optionalBool(column.rawValue) }
    package subscript<Column: TableColumn>(_ column: Column) -> String? { optionalText(column.rawValue) }
    package subscript<Column: TableColumn>(_ column: Column) -> Date? { date(column.rawValue) }

    /// The `index`th term after the table's columns, in a row selected as
    /// ``TableColumn/selection`` followed by more terms (a joined column, a count):
    /// `row[after: ResourceColumn.self, 0]`.
    package subscript<Column: TableColumn>(after table: Column.Type, _ index: Int32) -> String {
        text(Int32(Column.table.columns.count) + index)
    }

    package subscript<Column: TableColumn>(after table: Column.Type, _ index: Int32) -> Int? {
        optionalInt(Int32(Column.table.columns.count) + index)
    }

    package subscript<Column: TableColumn>(after table: Column.Type, _ index: Int32) -> String? {
        optionalText(Int32(Column.table.columns.count) + index)
    }

    package subscript<Column: TableColumn>(after table: Column.Type, _ index: Int32) -> Double {
        double(Int32(Column.table.columns.count) + index)
    }
}

/// The first row of a query sent ahead (``StoreConnection/rowAhead(_:_:)``): read, decoded and
/// kept on the first ``get()``, which blocks only if the answer isn't in yet. Not thread-safe:
/// used on the connection's own thread inside the transaction that sent it, or behind a lock
/// (``StoreSnapshot``'s first read).
package final class RowAhead<Record> {
    private var answer: (() throws -> Record?)?
    private var outcome: Result<Record?, any Error>?

    package init(_ answer: @escaping () throws -> Record?) {
        self.answer = answer
    }

    /// The row (`nil` when the query returned none), or the query's failure.
    package func get() throws -> Record? {
        if let outcome { return try outcome.get() }
        let read = Result { try answer?() ?? nil }
        (outcome, answer) = (read, nil)
        return try read.get()
    }
}
