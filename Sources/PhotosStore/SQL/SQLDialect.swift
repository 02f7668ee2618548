/// The engines a ``StoreSQL`` statement is rendered for. Statements are written once; the few
/// fragments the engines spell differently are ``StoreSQL/either(sqlite:postgres:)`` values,
/// made by the builders below, so no statement is rewritten at run time.
package enum SQLDialect: Sendable, Hashable {
    case sqlite
    case postgres
}

extension StoreSQL {
    /// The type of a JSON array's elements.
    package enum ElementType: Sendable {
        case integer
        case real
        case text
    }

    /// A subquery giving the elements of `json`, a JSON array bound as one value
    /// (``StoreValue/jsonArray(_:)-swift.type.method``), for `x IN (...)`: one bind for any
    /// number of keys.
    package static func jsonElements(json: String, _ type: ElementType) -> StoreSQL {
        switch type {
        case .integer: .either(sqlite: "SELECT value FROM json_each(\(json))", postgres: "SELECT json_array_elements_text(\(json)::json)::bigint")
        case .real:
            .either(
                sqlite: "SELECT value FROM json_each(\(json))",
                postgres: "SELECT json_array_elements_text(\(json)::json)::double precision")
        case .text: .either(sqlite: "SELECT value FROM json_each(\(json))", postgres: "SELECT json_array_elements_text(\(json)::json)")
        }
    }

    /// A subquery giving the ids, for `x IN (...)`.
    package static func elements(_ ids: some Collection<Int64>) -> StoreSQL {
        jsonElements(json: StoreValue.jsonArray(ids), .integer)
    }

    /// A subquery giving the strings, for `x IN (...)`.
    package static func elements(_ texts: [String]) -> StoreSQL {
        jsonElements(json: StoreValue.jsonArray(texts.map(StoreValue.text)), .text)
    }

    /// A table of the ids with their order: columns `value` (the id) and `key` (ascending in
    /// the list's order).
    package static func orderedElements(_ ids: [Int64]) -> StoreSQL {
        let json = StoreValue.jsonArray(ids)
        return .either(
            sqlite: "json_each(\(json))",
            postgres: "(SELECT e.value::bigint AS value, e.key FROM json_array_elements_text(\(json)::json) WITH ORDINALITY AS e(value, key))")
    }

    /// A comparison that treats `NULL` as a value: true when `lhs` and `rhs` differ.
    package static func isDistinct(_ lhs: StoreSQL, _ rhs: StoreSQL) -> StoreSQL {
        .either(sqlite: "\(lhs) IS NOT \(rhs)", postgres: "\(lhs) IS DISTINCT FROM \(rhs)")
    }

    /// A comparison that treats `NULL` as a value: true when `lhs` and `rhs` are equal.
    package static func isNotDistinct(_ lhs: StoreSQL, _ rhs: StoreSQL) -> StoreSQL {
        .either(sqlite: "\(lhs) IS \(rhs)", postgres: "\(lhs) IS NOT DISTINCT FROM \(rhs)")
    }

    /// An `ORDER BY` term that sorts `NULL` as SQLite does: before every value ascending,
    /// after every value descending (PostgreSQL's default is the reverse).
    package static func orderTerm(_ expression: StoreSQL, ascending: Bool) -> StoreSQL {
        ascending
            ? .either(sqlite: expression, postgres: "\(expression) NULLS FIRST")
            : .either(sqlite: "\(expression) DESC", postgres: "\(expression) DESC NULLS LAST")
    }
}
