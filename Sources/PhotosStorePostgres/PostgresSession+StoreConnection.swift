import Foundation
import PhotosLocking
package import PhotosStore
import PostgresNIO

/// A PostgreSQL session is a ``StoreConnection``: the store's statements, written with `?`
/// placeholders, run with `$1`, `$2`, ... (``PostgresPlaceholders``); rows are read through
/// ``PostgresColumns``.
extension PostgresSession: StoreConnection {
    package var dialect: SQLDialect { .postgres }

    @discardableResult
    package func execute(_ sql: String, _ arguments: SQLArguments) throws -> Int {
        try run(Self.query(sql, arguments), "running \(sql)").metadata.rows ?? 0
    }

    package func rows<Record>(
        _ sql: String, _ arguments: SQLArguments, _ decode: (any ColumnReading) throws -> Record
    ) throws -> [Record] {
        try query(Self.query(sql, arguments), "reading \(sql)").map { row in
            try decode(PostgresColumns(row: row.makeRandomAccess()))
        }
    }

    package func insert(_ sql: String, _ arguments: SQLArguments) throws -> Int64 {
        guard let id = try rows(sql + " RETURNING id", arguments, { $0.int64(0) }).first else {
            throw StoreError(.database, "\(sql) inserted no row")
        }
        return id
    }

    /// The ids in one `bigint[]` (`SELECT ARRAY(query)`, which keeps the query's order): one
    /// row of 12 bytes an id instead of a row message an id, which costs ~3 µs each to
    /// receive and decode. Falls back to rows when the column is not a `bigint`.
    package func int64Column(_ sql: String, _ arguments: SQLArguments) throws -> [Int64] {
        let wrapped = try query(Self.query("SELECT ARRAY(\(sql))", arguments), "reading \(sql)")
        guard let cell = wrapped.first?.makeRandomAccess()[0] else { return [] }
        if let ids = try? cell.decode([Int64].self) { return ids }
        return try rows(sql, arguments) { $0.int64(0) }
    }

    /// The statement with PostgreSQL placeholders and its arguments bound.
    static func query(_ sql: String, _ arguments: SQLArguments) -> PostgresQuery {
        var binds = PostgresBindings(capacity: arguments.values.count)
        for value in arguments.values {
            switch value {
            case .null: binds.appendNull()
            case .integer(let integer): binds.append(integer)
            case .real(let real): binds.append(real)
            case .text(let text): binds.append(text)
            }
        }
        return PostgresQuery(unsafeSQL: PostgresPlaceholders.translate(sql), binds: binds)
    }
}

/// The store's SQL as PostgreSQL takes it: SQLite's `?` and `?N` placeholders become `$N`, and
/// SQLite's planner hints go (`INDEXED BY name` is dropped, `CROSS JOIN ... ON` is a plain
/// `JOIN`). Quoted text and identifiers and comments are copied as they are. Translations
/// are kept: the store runs few distinct statements, many times.
enum PostgresPlaceholders {
    private static let translated = Mutex<[String: String]>([:])

    static func translate(_ sql: String) -> String {
        if let known = translated.withLock({ $0[sql] }) { return known }
        let result = withoutHints(rewrite(sql))
        translated.withLock { cache in
            if cache.count > 4096 { cache.removeAll() }
            cache[sql] = result
        }
        return result
    }

    /// Drops `INDEXED BY name` and turns `CROSS JOIN` into `JOIN` (the store writes neither
    /// inside quotes).
    static func withoutHints(_ sql: String) -> String {
        guard sql.contains("INDEXED BY") || sql.contains("CROSS JOIN") else { return sql }
        return sql.replacing(#/ INDEXED BY [A-Za-z_][A-Za-z0-9_]*/#, with: "").replacing("CROSS JOIN", with: "JOIN")
    }

    static func rewrite(_ sql: String) -> String {
        let characters = Array(sql.unicodeScalars)
        var output = String.UnicodeScalarView()
        var next = 1
        var index = 0
        while index < characters.count {
            let character = characters[index]
            switch character {
            case "'", "\"":
                // Copy through the closing quote (a doubled quote stays inside).
                output.append(character)
                index += 1
                while index < characters.count {
                    output.append(characters[index])
                    if characters[index] == character {
                        if index + 1 < characters.count && characters[index + 1] == character {
                            output.append(characters[index + 1])
                            index += 2
                            continue
                        }
                        break
                    }
                    index += 1
                }
                index += 1
            case "-" where index + 1 < characters.count && characters[index + 1] == "-":
                while index < characters.count && characters[index] != "\n" {
                    output.append(characters[index])
                    index += 1
                }
            case "?":
                var digits = ""
                var end = index + 1
                while end < characters.count, characters[end].properties.numericType != nil, characters[end].isASCII {
                    digits.unicodeScalars.append(characters[end])
                    end += 1
                }
                if digits.isEmpty {
                    output.append(contentsOf: "$\(next)".unicodeScalars)
                    next += 1
                } else {
                    output.append(contentsOf: "$\(digits)".unicodeScalars)
                }
                index = end
            default:
                output.append(character)
                index += 1
            }
        }
        return String(output)
    }
}

/// One row of a PostgreSQL result, read by column index as the store's records read SQLite's:
/// booleans as 0 and 1, numbers of any width as integers or reals, `NULL` as 0 or "".
struct PostgresColumns: ColumnReading {
    let row: PostgresRandomAccessRow

    func isNull(_ index: Int32) -> Bool {
        row[Int(index)].bytes == nil
    }

    func int64(_ index: Int32) -> Int64 {
        let cell = row[Int(index)]
        guard cell.bytes != nil else { return 0 }
        switch cell.dataType {
        case .int8, .int4, .int2: return (try? cell.decode(Int64.self)) ?? 0
        case .bool: return (try? cell.decode(Bool.self)) == true ? 1 : 0
        case .float8, .float4: return Int64((try? cell.decode(Double.self)) ?? 0)
        default: return (try? cell.decode(String.self)).flatMap { Int64($0) ?? Double($0).map { Int64($0) } } ?? 0
        }
    }

    func double(_ index: Int32) -> Double {
        let cell = row[Int(index)]
        guard cell.bytes != nil else { return 0 }
        switch cell.dataType {
        case .float8, .float4: return (try? cell.decode(Double.self)) ?? 0
        case .int8, .int4, .int2, .bool: return Double(int64(index))
        default: return (try? cell.decode(String.self)).flatMap { Double($0) } ?? 0
        }
    }

    func text(_ index: Int32) -> String {
        let cell = row[Int(index)]
        guard cell.bytes != nil else { return "" }
        return (try? cell.decode(String.self)) ?? ""
    }

    func value(_ index: Int32) -> StoreValue {
        let cell = row[Int(index)]
        guard cell.bytes != nil else { return .null }
        switch cell.dataType {
        case .int8, .int4, .int2, .bool: return .integer(int64(index))
        case .float8, .float4, .numeric: return .real(double(index))
        default: return .text(text(index))
        }
    }
}
