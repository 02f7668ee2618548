import Foundation
import NIOCore
package import PhotosStore
import PostgresNIO

/// A PostgreSQL session is a ``StoreConnection``: each ``StoreSQL`` statement is rendered into
/// postgres-nio's own `PostgresQuery` interpolation, which appends each bind and its `$n`
/// together; rows are read through ``PostgresColumns``.
extension PostgresSession: StoreConnection {
    package var dialect: SQLDialect { .postgres }
    package var statementsAreRoundTrips: Bool { true }

    @discardableResult
    package func execute(_ statement: StoreSQL) throws -> Int {
        let query = Self.query(statement)
        return try run(query, "running \(query.sql)").rowsAffected ?? 0
    }

    /// Sends `statement` without waiting for its answer (``PostgresSession/send(_:values:)``).
    func send(_ statement: StoreSQL) {
        let (query, values) = Self.preparable(statement)
        send(query, values: values)
    }

    /// Sent without waiting (``PostgresSession/send(_:)``): the next statement's answer comes
    /// after its, and carries its failure.
    package func executeAhead(_ statement: StoreSQL) throws {
        send(statement)
    }

    /// Sent without waiting (``PostgresSession/sendForAnswer(_:values:)``): its row is read
    /// when the caller asks, by then usually in with the next statement's answer.
    package func rowAhead<Record>(_ statement: StoreSQL, _ decode: @escaping (any ColumnReading) throws -> Record) throws -> RowAhead<Record> {
        let (query, values) = Self.preparable(statement)
        let answer = sendForAnswer(query, values: values)
        return RowAhead {
            guard let row = try answer("reading \(query.sql)").first else { return nil }
            return try decode(PostgresColumns(row: row.makeRandomAccess()))
        }
    }

    /// Sent without waiting, as ``rowAhead(_:_:)``: every row is read when the caller asks.
    package func rowsAhead<Record>(_ statement: StoreSQL, _ decode: @escaping (any ColumnReading) throws -> Record) throws -> RowAhead<[Record]> {
        let (query, values) = Self.preparable(statement)
        let answer = sendForAnswer(query, values: values)
        return RowAhead {
            try answer("reading \(query.sql)").map { row in try decode(PostgresColumns(row: row.makeRandomAccess())) }
        }
    }

    package func rows<Record>(_ statement: StoreSQL, _ decode: (any ColumnReading) throws -> Record) throws -> [Record] {
        let (query, values) = Self.preparable(statement)
        return try self.query(query, "reading \(query.sql)", values: values).map { row in
            try decode(PostgresColumns(row: row.makeRandomAccess()))
        }
    }

    package func insert(_ statement: StoreSQL) throws -> Int64 {
        guard let id = try rows(statement + " RETURNING id", { $0.int64(0) }).first else {
            throw StoreError(.database, "\(statement) inserted no row")
        }
        return id
    }

    /// The ids in one `bigint[]` (`SELECT ARRAY(query)`, which keeps the query's order): one
    /// row of 12 bytes an id instead of a row message an id, which costs ~3 µs each to
    /// receive and decode. Falls back to rows when the column is not a `bigint`.
    package func int64Column(_ statement: StoreSQL) throws -> [Int64] {
        let (array, values) = Self.preparable("SELECT ARRAY(\(statement))")
        let wrapped = try query(array, "reading \(array.sql)", values: values)
        guard let row = wrapped.first?.makeRandomAccess() else { return [] }
        let cell = PostgresColumns.cell(row, 0)
        if let ids = Self.int64Array(cell) { return ids }
        return try rows(statement) { $0.int64(0) }
    }

    /// The elements of a `bigint[]` cell in PostgreSQL's binary array format, read straight
    /// from its bytes (a 20-byte header, then a 4-byte length and 8 bytes per element): a
    /// fetch of 833,068 ids decodes in a few milliseconds, where postgres-nio's generic array
    /// decoding costs tens. Nil for anything else (another type, text format, a `NULL`
    /// element, more than one dimension).
    static func int64Array(_ cell: PostgresCell) -> [Int64]? {
        guard cell.dataType == .int8Array, cell.format == .binary, var bytes = cell.bytes else { return nil }
        guard let dimensions = bytes.readInteger(as: Int32.self), bytes.readInteger(as: Int32.self) != nil,
            bytes.readInteger(as: UInt32.self) == PostgresDataType.int8.rawValue
        else { return nil }
        if dimensions == 0 { return [] }
        guard dimensions == 1, let count = bytes.readInteger(as: Int32.self), count >= 0, bytes.readInteger(as: Int32.self) != nil,
            bytes.readableBytes == Int(count) * 12
        else { return nil }
        let values = bytes.withUnsafeReadableBytes { raw -> [Int64]? in
            var valid = true
            let values = [Int64](unsafeUninitializedCapacity: Int(count)) { buffer, initialized in
                for index in 0..<Int(count) {
                    let offset = index * 12
                    guard Int32(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self)) == 8 else {
                        valid = false
                        break
                    }
                    buffer[index] = Int64(bigEndian: raw.loadUnaligned(fromByteOffset: offset + 4, as: Int64.self))
                    initialized = index + 1
                }
            }
            return valid ? values : nil
        }
        return values
    }

    /// ``int64Column(_:)`` and the library's position in one statement, outside any
    /// transaction: a statement sees one state of the database, so the two agree. Falls back
    /// to a read transaction of two statements when the column is not a `bigint`.
    ///
    /// A statement with planner settings (``StoreSQL/plannerSetting(_:_:)``) runs in a
    /// transaction of its own after `SET LOCAL` of each (sent ahead with its `BEGIN`).
    func idsAndPosition(_ statement: StoreSQL) throws -> (ids: [Int64], position: Int64) {
        try idsAndPosition(parts: [statement])
    }

    /// ``idsAndPosition(_:)`` of several statements whose ids, concatenated, are the answer
    /// (`ARRAY(…) || ARRAY(…)`, one statement).
    func idsAndPosition(parts: [StoreSQL]) throws -> (ids: [Int64], position: Int64) {
        let settings = parts.flatMap(\.plannerSettings)
        guard settings.isEmpty else {
            return try transaction(begin: "BEGIN") {
                sendSettings(settings)
                return try idsAndPosition(withoutSettings: parts)
            }
        }
        return try idsAndPosition(withoutSettings: parts)
    }

    /// `SET LOCAL` of each planner setting, sent ahead (in a transaction).
    func sendSettings(_ settings: [(name: String, value: String)]) {
        for (name, value) in settings {
            send("SET LOCAL \(unescaped: name) = \(unescaped: value)" as StoreSQL)
        }
    }

    private func idsAndPosition(withoutSettings parts: [StoreSQL]) throws -> (ids: [Int64], position: Int64) {
        let (combined, values) = Self.idsAndPositionQuery(parts)
        if let answer = try Self.idsAndPosition(in: query(combined, "reading \(combined.sql)", values: values)) {
            return answer
        }
        return try withPosition { try parts.flatMap { try int64Column($0) } }
    }

    /// What `read` reads and the library's position, in one read-only transaction that sees
    /// one state of the library: the fallback of the one-statement reads.
    func withPosition<T>(_ read: () throws -> T) throws -> (T, Int64) {
        try transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
            (try read(), try rows("SELECT position FROM libraryPosition") { $0.int64(0) }.first ?? 0)
        }
    }

    /// `SELECT ARRAY(part) || ARRAY(part) …, position`: the parts' ids, concatenated, in one
    /// `bigint[]`, and the library's position, in one statement.
    private static func idsAndPositionQuery(_ parts: [StoreSQL]) -> (PostgresQuery, [PostgresData]) {
        let arrays = StoreSQL.joined(parts.map { "ARRAY(\($0))" }, separator: " || ")
        return preparable("SELECT \(arrays), (SELECT position FROM libraryPosition)")
    }

    /// The answer of ``idsAndPositionQuery(_:)``; nil when the ids are not a `bigint[]`.
    private static func idsAndPosition(in rows: [PostgresRow]) throws -> (ids: [Int64], position: Int64)? {
        guard let row = rows.first?.makeRandomAccess(), let ids = int64Array(PostgresColumns.cell(row, 0)) else { return nil }
        return (ids, try PostgresColumns.cell(row, 1).decode(Int64.self))
    }

    /// Sends the parts' ids and the library's position (``idsAndPositionQuery(_:)``) without
    /// waiting, in one statement outside any transaction: the function returned reads them (a
    /// half of a fetch read on two connections at once). The parts carry no planner settings.
    func idsAndPositionAhead(_ parts: [StoreSQL]) -> () throws -> (ids: [Int64], position: Int64) {
        let (query, values) = Self.idsAndPositionQuery(parts)
        let answer = sendForAnswer(query, values: values)
        return {
            guard let read = try Self.idsAndPosition(in: answer("reading \(query.sql)")) else {
                throw StoreError(.database, "reading \(query.sql): no bigint[] came back")
            }
            return read
        }
    }

    /// The statement as postgres-nio's query, and its binds as a prepared statement takes them
    /// (``PostgresPreparedStatements``). Each bind of a value carries its type in the text
    /// (`$1::int8`, `::float8`, `::text`; a `NULL` none): a statement prepared by its text
    /// has the types the unnamed one was sent with.
    static func preparable(_ statement: StoreSQL) -> (PostgresQuery, [PostgresData]) {
        var interpolation = PostgresQuery.StringInterpolation(literalCapacity: 256, interpolationCount: 8)
        var values: [PostgresData] = []
        statement.render(for: .postgres) { text in
            interpolation.appendLiteral(text)
        } bind: { value in
            switch value {
            case .null:
                interpolation.appendInterpolation(Optional<String>.none)
                values.append(.null)
            case .integer(let integer):
                interpolation.appendInterpolation(integer)
                interpolation.appendLiteral("::int8")
                values.append(PostgresData(int64: integer))
            case .real(let real):
                interpolation.appendInterpolation(real)
                interpolation.appendLiteral("::float8")
                values.append(PostgresData(double: real))
            case .text(let text):
                interpolation.appendInterpolation(text)
                interpolation.appendLiteral("::text")
                values.append(PostgresData(string: text))
            }
        }
        return (PostgresQuery(stringInterpolation: interpolation), values)
    }

    /// The statement as postgres-nio's query: its text and binds appended through
    /// `PostgresQuery.StringInterpolation`, which numbers each bind's `$n` as it appends it.
    static func query(_ statement: StoreSQL) -> PostgresQuery {
        var interpolation = PostgresQuery.StringInterpolation(literalCapacity: 256, interpolationCount: 8)
        statement.render(for: .postgres) { text in
            interpolation.appendLiteral(text)
        } bind: { value in
            switch value {
            case .null: interpolation.appendInterpolation(Optional<String>.none)
            case .integer(let integer): interpolation.appendInterpolation(integer)
            case .real(let real): interpolation.appendInterpolation(real)
            case .text(let text): interpolation.appendInterpolation(text)
            }
        }
        return PostgresQuery(stringInterpolation: interpolation)
    }
}

/// One row of a PostgreSQL result, read by column index as the store's records read SQLite's:
/// booleans as 0 and 1, numbers of any width as integers or reals, `NULL` as 0 or "".
struct PostgresColumns: ColumnReading {
    let row: PostgresRandomAccessRow

    /// The cell at `index`, in the binary format every answer of the extended protocol comes
    /// in: postgres-nio's prepared statements (`PreparedQuery`) keep the text format their
    /// `Describe` reported, although their `Bind` asks for binary, as every statement's does.
    static func cell(_ row: PostgresRandomAccessRow, _ index: Int) -> PostgresCell {
        let cell = row[index]
        guard cell.format != .binary else { return cell }
        return PostgresCell(bytes: cell.bytes, dataType: cell.dataType, format: .binary, columnName: cell.columnName, columnIndex: cell.columnIndex)
    }

    private func cell(_ index: Int32) -> PostgresCell {
        Self.cell(row, Int(index))
    }

    func isNull(_ index: Int32) -> Bool {
        row[Int(index)].bytes == nil
    }

    func int64(_ index: Int32) -> Int64 {
        let cell = self.cell(index)
        guard cell.bytes != nil else { return 0 }
        switch cell.dataType {
        case .int8, .int4, .int2: return (try? cell.decode(Int64.self)) ?? 0
        case .bool: return (try? cell.decode(Bool.self)) == true ? 1 : 0
        case .float8, .float4: return Int64((try? cell.decode(Double.self)) ?? 0)
        default: return (try? cell.decode(String.self)).flatMap { Int64($0) ?? Double($0).map { Int64($0) } } ?? 0
        }
    }

    func double(_ index: Int32) -> Double {
        let cell = self.cell(index)
        guard cell.bytes != nil else { return 0 }
        switch cell.dataType {
        case .float8, .float4: return (try? cell.decode(Double.self)) ?? 0
        case .int8, .int4, .int2, .bool: return Double(int64(index))
        default: return (try? cell.decode(String.self)).flatMap { Double($0) } ?? 0
        }
    }

    func text(_ index: Int32) -> String {
        let cell = self.cell(index)
        guard cell.bytes != nil else { return "" }
        return (try? cell.decode(String.self)) ?? ""
    }

    func value(_ index: Int32) -> StoreValue {
        let cell = self.cell(index)
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int8, .int4, .int2, .bool: return .integer(int64(index))
        case .float8, .float4, .numeric: return .real(double(index))
        default: return .text(text(index))
        }
    }
}
