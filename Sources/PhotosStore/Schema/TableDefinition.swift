/// The SQLite schema's versions, one per migration, oldest first (`LibraryMigrations`): a
/// column, a table or an index says which one added it, so each migration's statements are
/// rendered from the one description of the tables.
package enum SchemaVersion: Int, Sendable, Comparable, CaseIterable {
    case v1 = 1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11, v12, v13, v14, v15, v16, v17, v18, v19, v20, v21, v22, v23, v24, v25, v26

    /// The migration's identifier, as GRDB's migrator records it.
    package var migrationName: String {
        switch self {
        case .v1: "v1"
        case .v2: "v2-change-journal"
        case .v3: "v3-content-hash-camera"
        case .v4: "v4-content-signature"
        case .v5: "v5-content-version"
        case .v6: "v6-access-tokens"
        case .v7: "v7-access-sessions"
        case .v8: "v8-video-renditions"
        case .v9: "v9-ids-never-reused"
        case .v10: "v10-render-failures"
        case .v11: "v11-visible-asset-indexes"
        case .v12: "v12-referenced-file-times"
        case .v13: "v13-moments-by-start"
        case .v14: "v14-import-batches"
        case .v15: "v15-people"
        case .v16: "v16-owners"
        case .v17: "v17-shared-albums"
        case .v18: "v18-partners"
        case .v19: "v19-share-links"
        case .v20: "v20-owner-indexes"
        case .v21: "v21-journal-owners"
        case .v22: "v22-descriptions"
        case .v23: "v23-search"
        case .v24: "v24-local-time-indexes"
        case .v25: "v25-search-lookups"
        case .v26: "v26-search-lengths"
        }
    }

    package static func < (lhs: SchemaVersion, rhs: SchemaVersion) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// One column of a table, as ``TableDefinition`` renders it for each engine: SQLite's
/// `INTEGER`, `REAL` and `TEXT` are PostgreSQL's `BIGINT` (flags stay integers, so one
/// predicate compiler serves both), `DOUBLE PRECISION` (dates are seconds since 1970, compared
/// alike) and `TEXT COLLATE "C"` (byte order, SQLite's `BINARY`).
///
/// Written as GRDB writes its `ColumnDefinition`s: `.text.notNull().unique()`.
package struct ColumnDefinition: Sendable {
    package enum SQLType: Sendable {
        case integer, real, text
    }

    /// What a change to the column means to the change journal (`JournalTriggers`).
    package enum Journal: Sendable {
        /// Not journaled by itself.
        case none
        /// A property the object shows: a change is an update.
        case property
        /// The pixels: a change is an update and a content change (an edit, a revert).
        case content
    }

    package enum Key: Sendable {
        case none
        /// `PRIMARY KEY`.
        case primary
        /// The table's row id, never reused: SQLite's `INTEGER PRIMARY KEY` (with
        /// `AUTOINCREMENT` where the table says so), PostgreSQL's identity column.
        case identity
    }

    /// What `ON DELETE` does to a row whose reference goes.
    package enum DeleteAction: String, Sendable {
        case cascade = "CASCADE"
        case setNull = "SET NULL"
    }

    /// The column's name (the case's name in its ``TableColumn`` enum).
    package internal(set) var name = ""
    package let type: SQLType
    package private(set) var isNotNull = false
    /// The default, as SQL text (`0`, `1`).
    package private(set) var defaultValue: String?
    package private(set) var isUnique = false
    package private(set) var key = Key.none
    package private(set) var reference: (table: String, onDelete: DeleteAction)?
    package private(set) var journal = Journal.none
    /// The migration that added the column (to a table made before it).
    package private(set) var added = SchemaVersion.v1

    package init(_ type: SQLType) {
        self.type = type
    }

    package static var integer: ColumnDefinition { ColumnDefinition(.integer) }
    package static var real: ColumnDefinition { ColumnDefinition(.real) }
    package static var text: ColumnDefinition { ColumnDefinition(.text) }
    /// The row id: `INTEGER PRIMARY KEY`, an identity column on PostgreSQL.
    package static var identity: ColumnDefinition {
        var column = ColumnDefinition(.integer)
        column.key = .identity
        return column
    }

    package func notNull() -> ColumnDefinition { with { $0.isNotNull = true } }
    package func defaults(to value: Int) -> ColumnDefinition { with { $0.defaultValue = String(value) } }
    package func unique() -> ColumnDefinition { with { $0.isUnique = true } }
    package func primaryKey() -> ColumnDefinition { with { $0.key = .primary } }
    package func references(_ table: String, onDelete action: DeleteAction) -> ColumnDefinition {
        with { $0.reference = (table, action) }
    }
    /// A change to the column journals the object as updated (``Journal/property``) or as
    /// updated with new content (``Journal/content``).
    package func journaled(_ journal: Journal) -> ColumnDefinition { with { $0.journal = journal } }
    /// Added by `version`'s migration (`ALTER TABLE ... ADD COLUMN`).
    package func added(in version: SchemaVersion) -> ColumnDefinition { with { $0.added = version } }

    private func with(_ change: (inout ColumnDefinition) -> Void) -> ColumnDefinition {
        var copy = self
        change(&copy)
        return copy
    }

    /// The column's declaration in `CREATE TABLE` or `ADD COLUMN`.
    func sql(_ dialect: SQLDialect, autoincrement: Bool) -> String {
        var parts = [name]
        switch (dialect, key) {
        case (.sqlite, .identity): parts.append(autoincrement ? "INTEGER PRIMARY KEY AUTOINCREMENT" : "INTEGER PRIMARY KEY")
        case (.postgres, .identity): parts.append("BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY")
        case (_, .primary): parts += [type.sql(dialect), "PRIMARY KEY"]
        case (_, .none): parts.append(type.sql(dialect))
        }
        if isNotNull { parts.append("NOT NULL") }
        if let defaultValue { parts.append("DEFAULT \(defaultValue)") }
        if isUnique { parts.append("UNIQUE") }
        if let reference { parts.append("REFERENCES \(reference.table)(id) ON DELETE \(reference.onDelete.rawValue)") }
        return parts.joined(separator: " ")
    }
}

extension ColumnDefinition.SQLType {
    func sql(_ dialect: SQLDialect) -> String {
        switch (self, dialect) {
        case (.integer, .sqlite): "INTEGER"
        case (.real, .sqlite): "REAL"
        case (.text, .sqlite): "TEXT"
        case (.integer, .postgres): "BIGINT"
        case (.real, .postgres): "DOUBLE PRECISION"
        case (.text, .postgres): #"TEXT COLLATE "C""#
        }
    }
}

/// An index of a table, rendered for each engine.
package struct IndexDefinition: Sendable {
    /// One indexed column.
    package enum Term: Sendable {
        /// Compared for equality (or sorted where no `NULL` can be): the same on both engines.
        case key(String)
        /// Sorted as the store's `ORDER BY` sorts (`StoreSQL.orderTerm`): PostgreSQL says
        /// `NULLS FIRST` ascending, `DESC NULLS LAST` descending, as SQLite sorts `NULL`.
        case sorted(String, descending: Bool = false)
        /// A column SQLite's index carries without being told (the row id, or a `WITHOUT
        /// ROWID` table's key), which PostgreSQL's must name to serve the same order.
        case implicit(String, descending: Bool = false)

        func sql(_ dialect: SQLDialect) -> String? {
            switch (self, dialect) {
            case (.key(let name), _): name
            case (.sorted(let name, let descending), .sqlite): descending ? "\(name) DESC" : name
            case (.implicit, .sqlite): nil
            case (.sorted(let name, let descending), .postgres), (.implicit(let name, let descending), .postgres):
                descending ? "\(name) DESC NULLS LAST" : "\(name) NULLS FIRST"
            }
        }
    }

    package let name: String
    package let terms: [Term]
    /// A partial index's `WHERE`, the same text on both engines.
    package let condition: String?
    package let isUnique: Bool
    package let added: SchemaVersion

    package init(_ name: String, _ terms: [Term], where condition: String? = nil, unique: Bool = false, added: SchemaVersion = .v1) {
        self.name = name
        self.terms = terms
        self.condition = condition
        self.isUnique = unique
        self.added = added
    }

    /// `CREATE [UNIQUE] INDEX name ON table(terms) [WHERE condition]`.
    package func sql(on table: String, _ dialect: SQLDialect) -> String {
        let columns = terms.compactMap { $0.sql(dialect) }.joined(separator: ", ")
        return "CREATE \(isUnique ? "UNIQUE " : "")INDEX \(name) ON \(table)(\(columns))" + (condition.map { " WHERE \($0)" } ?? "")
    }
}

/// A table of the library, described once: its columns (a ``TableColumn`` enum), its keys and
/// indexes, and the migration that made it. Both engines' DDL, the store's column lists
/// (selections, inserts, the journal's, the copy's) are rendered from it, as GRDB renders its
/// `TableDefinition`s.
package struct TableDefinition: Sendable {
    package let name: String
    /// In table order (the order of the enum's cases, which is the order migrations added them).
    package let columns: [ColumnDefinition]
    /// A key of several columns (`PRIMARY KEY (a, b)`); a one-column key is the column's own.
    package let primaryKey: [String]
    /// `UNIQUE (a, b)` constraints.
    package let uniqueKeys: [[String]]
    /// SQLite's `WITHOUT ROWID`.
    package let withoutRowID: Bool
    /// From which version SQLite's row id is `AUTOINCREMENT` (nil: never).
    package let autoincrement: SchemaVersion?
    package let indexes: [IndexDefinition]
    package let added: SchemaVersion
    /// `table.a, table.b, ...`: every column, in table order.
    package let selection: String

    package init<Column: TableColumn>(
        _ name: String, columns: Column.Type, primaryKey: [String] = [], unique uniqueKeys: [[String]] = [],
        withoutRowID: Bool = false, autoincrement: SchemaVersion? = nil, indexes: [IndexDefinition] = [],
        added: SchemaVersion = .v1
    ) {
        self.name = name
        self.columns = Column.allCases.enumerated().map { offset, column in
            precondition(Int(column.rawValue) == offset, "\(Column.self): the cases' raw values must count from 0 in order")
            var definition = column.definition
            definition.name = String(describing: column)
            return definition
        }
        self.primaryKey = primaryKey
        self.uniqueKeys = uniqueKeys
        self.withoutRowID = withoutRowID
        self.autoincrement = autoincrement
        self.indexes = indexes
        self.added = added
        selection = self.columns.map { "\(name).\($0.name)" }.joined(separator: ", ")
    }

    /// The column named `name`.
    package func column(named name: String) -> ColumnDefinition {
        guard let column = columns.first(where: { $0.name == name }) else {
            preconditionFailure("The \(self.name) table has no column \(name)")
        }
        return column
    }

    /// The columns' names, in table order.
    package var columnNames: [String] { columns.map(\.name) }

    /// The key rows are ordered and paged by: the one-column key, else ``primaryKey``.
    package var key: [String] {
        if let column = columns.first(where: { $0.key != .none }) { return [column.name] }
        return primaryKey
    }

    /// Whether the key is a row id never reused (whose high-water mark a copy carries over).
    package var hasIdentity: Bool { columns.contains { $0.key == .identity } }

    /// `CREATE TABLE` with the columns that exist at `version`.
    package func createSQL(_ dialect: SQLDialect, asOf version: SchemaVersion) -> String {
        let autoincrement = self.autoincrement.map { $0 <= version } ?? false
        var lines = columns.filter { $0.added <= version }.map { $0.sql(dialect, autoincrement: autoincrement) }
        if !primaryKey.isEmpty { lines.append("PRIMARY KEY (\(primaryKey.joined(separator: ", ")))") }
        lines += uniqueKeys.map { "UNIQUE (\($0.joined(separator: ", ")))" }
        let suffix = dialect == .sqlite && withoutRowID ? " WITHOUT ROWID" : ""
        return "CREATE TABLE \(name) (\n    " + lines.joined(separator: ",\n    ") + "\n)" + suffix
    }

    /// `ALTER TABLE ... ADD COLUMN` for each column `version` added.
    package func addColumnsSQL(_ dialect: SQLDialect, addedIn version: SchemaVersion) -> [String] {
        guard added < version else { return [] }
        return columns.filter { $0.added == version }.map { "ALTER TABLE \(name) ADD COLUMN \($0.sql(dialect, autoincrement: false))" }
    }

    /// The index named `name`.
    package func index(_ name: String) -> IndexDefinition {
        guard let index = indexes.first(where: { $0.name == name }) else {
            preconditionFailure("The \(self.name) table has no index \(name)")
        }
        return index
    }

    /// The names of the columns journaled as `journal` (content columns count as properties
    /// too), in table order.
    package func journaledColumns(_ journal: ColumnDefinition.Journal) -> [String] {
        switch journal {
        case .none: columns.filter { $0.journal == .none }.map(\.name)
        case .property: columns.filter { $0.journal != .none }.map(\.name)
        case .content: columns.filter { $0.journal == .content }.map(\.name)
        }
    }
}
