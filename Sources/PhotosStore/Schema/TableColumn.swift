/// The columns of one table, as an enum whose cases are the columns in table order (raw
/// values 0, 1, 2, ...) and whose ``table`` describes the rest. The one place a table's
/// columns are written: the DDL of both engines, selections, inserts, the journal's column
/// lists and the copy's come from here, and rows are read by column:
/// `row[AssetColumn.mediaType]` after selecting ``selection``.
package protocol TableColumn: RawRepresentable, CaseIterable, Hashable, Sendable
where RawValue == Int32, AllCases == [Self] {
    /// The table: name, keys, indexes; its columns are this enum's cases.
    static var table: TableDefinition { get }
    /// How the column is declared.
    var definition: ColumnDefinition { get }
}

extension TableColumn {
    /// The column's name.
    package var name: String { Self.table.columns[Int(rawValue)].name }

    /// `table.column`.
    package var qualified: StoreSQL { StoreSQL(unescaped: "\(Self.table.name).\(name)") }

    /// Every column, qualified, in table order: what ``ColumnReading``'s `row[column]` reads.
    /// More terms may follow (`row[after: Self.self, 0]` reads the first of them).
    package static var selection: StoreSQL { StoreSQL(unescaped: table.selection) }

    /// The table's columns from the first through `last`, qualified, in table order: what a
    /// record that needs only those reads (`row[column]` reads them as from ``selection``).
    package static func selection(through last: Self) -> StoreSQL {
        StoreSQL(unescaped: table.columns[...Int(last.rawValue)].map { "\(table.name).\($0.name)" }.joined(separator: ", "))
    }

    /// `INSERT INTO table (columns) VALUES (binds)` for the values `row` holds.
    package static func insert(_ row: TableRow<Self>) -> StoreSQL {
        let columns = row.values.map(\.column.name).joined(separator: ", ")
        let values = StoreSQL.joined(row.values.map { "\($0.value)" as StoreSQL }, separator: ", ")
        return "INSERT INTO \(unescaped: table.name) (\(unescaped: columns)) VALUES (\(values))"
    }

    /// `UPDATE table SET column = bind, ... WHERE condition` for the values `row` holds.
    package static func update(_ row: TableRow<Self>, where condition: StoreSQL) -> StoreSQL {
        let sets = StoreSQL.joined(row.values.map { "\(unescaped: $0.column.name) = \($0.value)" as StoreSQL }, separator: ", ")
        return "UPDATE \(unescaped: table.name) SET \(sets) WHERE \(condition)"
    }
}

/// The values of one row to write, by column, as GRDB's `PersistenceContainer` holds them:
/// `row[.uuid] = uuid`. Each value sits beside its column, so a list of columns and a list of
/// placeholders can't disagree.
package struct TableRow<Column: TableColumn> {
    package private(set) var values: [(column: Column, value: StoreValue)] = []

    package init() {}

    package subscript(column: Column) -> (any StoreValueConvertible)? {
        get { values.last { $0.column == column }?.value }
        set {
            let value = newValue?.storeValue ?? .null
            if let index = values.firstIndex(where: { $0.column == column }) {
                values[index].value = value
            } else {
                values.append((column, value))
            }
        }
    }

    /// Sets `column` when `value` is given (an edit's `nil` leaves the column as it is; a
    /// given `nil`, `.some(nil)`, writes `NULL`).
    package mutating func set<Value: StoreValueConvertible>(_ column: Column, ifGiven value: Value?) {
        if let value { self[column] = value }
    }

    /// Whether no value is set.
    package var isEmpty: Bool { values.isEmpty }
}

/// Rows holding the same values in the same columns are equal: writes that set the same values
/// can share one statement.
extension TableRow: Hashable {
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.values.elementsEqual(rhs.values) { $0.column == $1.column && $0.value == $1.value }
    }

    package func hash(into hasher: inout Hasher) {
        for (column, value) in values {
            hasher.combine(column)
            hasher.combine(value)
        }
    }
}
