/// Where SQLite's and PostgreSQL's SQL differ, the fragment each engine takes. Everything
/// else the store writes is SQL both accept (`COALESCE`, `ON CONFLICT`, `CASE`, ...).
package enum SQLDialect: Sendable, Hashable {
    case sqlite
    case postgres

    /// The type of a JSON array's elements.
    package enum ElementType: Sendable {
        case integer
        case real
        case text
    }

    /// A subquery giving the elements of the JSON array bound at one `?` (see
    /// ``StoreValue/jsonArray(_:)-swift.type.method``), for `x IN (...)`: one placeholder for
    /// any number of keys.
    package func jsonElements(_ type: ElementType) -> String {
        switch (self, type) {
        case (.sqlite, _): "SELECT value FROM json_each(?)"
        case (.postgres, .integer): "SELECT json_array_elements_text(?::json)::bigint"
        case (.postgres, .real): "SELECT json_array_elements_text(?::json)::double precision"
        case (.postgres, .text): "SELECT json_array_elements_text(?::json)"
        }
    }

    /// A table of the elements of the JSON array of integers bound at one `?`, with their
    /// order: columns `value` (the element) and `key` (ascending in array order).
    package var orderedElements: String {
        switch self {
        case .sqlite: "json_each(?)"
        case .postgres: "(SELECT e.value::bigint AS value, e.key FROM json_array_elements_text(?::json) WITH ORDINALITY AS e(value, key))"
        }
    }

    /// A comparison that treats `NULL` as a value: true when `lhs` and `rhs` differ.
    package func isDistinct(_ lhs: String, _ rhs: String) -> String {
        switch self {
        case .sqlite: "\(lhs) IS NOT \(rhs)"
        case .postgres: "\(lhs) IS DISTINCT FROM \(rhs)"
        }
    }

    /// A comparison that treats `NULL` as a value: true when `lhs` and `rhs` are equal.
    package func isNotDistinct(_ lhs: String, _ rhs: String) -> String {
        switch self {
        case .sqlite: "\(lhs) IS \(rhs)"
        case .postgres: "\(lhs) IS NOT DISTINCT FROM \(rhs)"
        }
    }

    /// An `ORDER BY` term that sorts `NULL` as SQLite does: before every value ascending,
    /// after every value descending (PostgreSQL's default is the reverse).
    package func orderTerm(_ expression: String, ascending: Bool) -> String {
        switch (self, ascending) {
        case (.sqlite, true): expression
        case (.sqlite, false): "\(expression) DESC"
        case (.postgres, true): "\(expression) NULLS FIRST"
        case (.postgres, false): "\(expression) DESC NULLS LAST"
        }
    }

    // MARK: - The change journal

    /// The library's position: the id of the newest change committed, as the transaction sees
    /// it. SQLite reads `change`'s `AUTOINCREMENT` counter; PostgreSQL's sequences ignore
    /// transactions, so it keeps the position in a row that commits with the change.
    package var positionQuery: String {
        switch self {
        case .sqlite: "SELECT seq FROM sqlite_sequence WHERE name = 'change'"
        case .postgres: "SELECT position FROM libraryPosition"
        }
    }

    /// Inserts the `change` row a change block writes (arguments: date, process id), returning
    /// its id. On PostgreSQL the id is the position row advanced by one: its row lock orders
    /// the commits of every instance, so positions commit in order.
    package var openChange: String {
        switch self {
        case .sqlite: "INSERT INTO change (date, processID) VALUES (?, ?)"
        case .postgres:
            """
            WITH next AS (UPDATE libraryPosition SET position = position + 1 RETURNING position)
            INSERT INTO change (id, date, processID) SELECT next.position, ?, ? FROM next
            """
        }
    }

    /// ``openChange`` and ``openJournalCursor`` in one statement, returning the id, where a
    /// statement is a round trip made while holding the write lock (PostgreSQL; nil on
    /// SQLite, whose statements cost no round trip).
    package var openChangeAndJournalCursor: String? {
        switch self {
        case .sqlite: nil
        case .postgres:
            """
            WITH next AS (UPDATE libraryPosition SET position = position + 1 RETURNING position),
            opened AS (INSERT INTO change (id, date, processID) SELECT next.position, ?, ? FROM next RETURNING id)
            SELECT id, set_config('photokit.change', id::text, true) FROM opened
            """
        }
    }

    /// ``closeJournalCursor``, the removal of a change that touched nothing and the commit's
    /// announcement in one statement (arguments: its id three times): PostgreSQL's `NOTIFY`
    /// on ``postgresChangeChannel`` with the new position, which the server sends when (and
    /// only if) the transaction commits (nil on SQLite, whose signal file is written after).
    package var closeJournalCursorAndEmptyChange: String? {
        switch self {
        case .sqlite: nil
        case .postgres:
            """
            WITH emptied AS (DELETE FROM change WHERE id = ? AND NOT EXISTS (SELECT 1 FROM changedObject WHERE changeID = ?))
            SELECT set_config('photokit.change', '', true), pg_notify('\(Self.postgresChangeChannel)', ?::text)
            """
        }
    }

    /// The `NOTIFY` channel commits are announced on (PostgreSQL).
    package static let postgresChangeChannel = "photokit_changes"

    /// Names the change the journal's triggers record into (argument: its id), until
    /// ``closeJournalCursor``: a temporary table on SQLite, a transaction-local setting on
    /// PostgreSQL.
    package var openJournalCursor: String {
        switch self {
        case .sqlite: "INSERT INTO temp.journalCursor (changeID) VALUES (?)"
        case .postgres: "SELECT set_config('photokit.change', ?::text, true)"
        }
    }

    package var closeJournalCursor: String {
        switch self {
        case .sqlite: "DELETE FROM temp.journalCursor"
        case .postgres: "SELECT set_config('photokit.change', '', true)"
        }
    }
}
