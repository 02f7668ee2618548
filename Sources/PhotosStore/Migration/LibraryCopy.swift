import Foundation

/// What ``LibraryDatabase/copyLibrary(to:)`` copied and checked.
package struct LibraryCopyReport: Sendable {
    /// Rows per table, in copy order, each checked by a SHA-256 of every value read back.
    package var rows: [(table: String, count: Int)] = []
    /// Files linked (same file system) or copied into the destination's folder.
    package var linkedFiles = 0
    package var copiedFiles = 0
    package var bytes: Int64 = 0
    /// Originals whose SHA-256 was checked against the row's content hash.
    package var hashedFiles = 0
    /// The history position both libraries are at: change tokens of one work on the other.
    package var position: Int64 = 0
}

/// A table ``LibraryDatabase/copyLibrary(to:)`` copies (``LibrarySchema/tables``): its columns
/// (the same on both engines), read as their declared types, and its key, which orders the
/// rows and pages through them.
struct CopiedTable {
    let definition: TableDefinition

    var name: String { definition.name }
    var columns: [ColumnDefinition] { definition.columns }
    var key: [String] { definition.key }
    /// Whether the key is a row id whose high-water mark is carried over (ids are never reused).
    var identity: Bool { definition.hasIdentity }

    /// Every table, parents before children, as the foreign keys need.
    static let all = LibrarySchema.tables.map(CopiedTable.init)

    /// Rows read per statement.
    static let page = 500

    /// One row's values, read as the columns' types (an integer SQLite kept in a `REAL`
    /// column reads as a double on both sides).
    func values(_ row: any ColumnReading) -> [StoreValue] {
        columns.indices.map { index in
            let column = Int32(index)
            if row.isNull(column) { return .null }
            switch columns[index].type {
            case .integer: return .integer(row.int64(column))
            case .real: return .real(row.double(column))
            case .text: return .text(row.text(column))
            }
        }
    }

    /// Reads every row in key order, a page at a time, calling `body` with each page.
    func forEachPage(_ db: any StoreConnection, _ body: ([[StoreValue]]) throws -> Void) throws {
        let order = key.joined(separator: ", ")
        let keyIndexes = key.map { name in columns.firstIndex { $0.name == name }! }
        var after: [StoreValue]?
        while true {
            let condition: StoreSQL = after.map { values in
                "WHERE (\(unescaped: order)) > (\(StoreSQL.joined(values.map { "\($0)" }, separator: ", ")))"
            } ?? ""
            let page = try db.rows(
                """
                SELECT \(unescaped: definition.selection) FROM \(unescaped: name) \(condition) \
                ORDER BY \(unescaped: order) LIMIT \(literal: Self.page)
                """, values)
            if page.isEmpty { return }
            try body(page)
            after = keyIndexes.map { page[page.count - 1][$0] }
            if page.count < Self.page { return }
        }
    }

    /// Inserts `rows` with one statement.
    func insert(_ rows: [[StoreValue]], into db: any StoreConnection) throws {
        let columns = definition.columnNames.joined(separator: ", ")
        let tuples = rows.map { row in "(\(StoreSQL.joined(row.map { "\($0)" }, separator: ", ")))" as StoreSQL }
        try db.execute("INSERT INTO \(unescaped: name) (\(unescaped: columns)) VALUES \(StoreSQL.joined(tuples, separator: ", "))")
    }
}

/// A running SHA-256 over rows' values, the same for the same values on either engine.
struct RowDigest {
    private let digest = ContentHash.Digest()

    func add(_ rows: [[StoreValue]]) {
        var bytes: [UInt8] = []
        for row in rows {
            for value in row {
                switch value {
                case .null: bytes.append(0)
                case .integer(let number):
                    bytes.append(1)
                    withUnsafeBytes(of: number.littleEndian) { bytes.append(contentsOf: $0) }
                case .real(let number):
                    bytes.append(2)
                    withUnsafeBytes(of: number.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
                case .text(let text):
                    bytes.append(3)
                    withUnsafeBytes(of: Int64(text.utf8.count).littleEndian) { bytes.append(contentsOf: $0) }
                    bytes.append(contentsOf: text.utf8)
                }
            }
        }
        bytes.withUnsafeBytes { digest.update($0) }
    }

    func finish() -> String { digest.finish() }
}
