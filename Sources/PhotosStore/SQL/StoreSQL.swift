/// A statement or a fragment of one, with its bound values in place, written once and rendered
/// for each engine: SQLite gets `?` placeholders, PostgreSQL `$1`, `$2`, ...
///
/// Write statements as string interpolations. An interpolated value is a bind, appended with
/// its placeholder, so the two can't drift apart (postgres-nio's `PostgresQuery` interpolation
/// does the same):
///
/// ```swift
/// try db.execute("UPDATE asset SET isFavorite = \(isFavorite) WHERE id = \(id)")
/// ```
///
/// An interpolated `StoreSQL` is spliced in with its binds; planner hints that only SQLite
/// reads are values too (``hint(_:)``), and so is a fragment the engines spell differently
/// (``either(sqlite:postgres:)``). Nothing rewrites the text at run time: what an engine
/// runs is ``rendered(for:)``.
///
/// Text that is not a value (an identifier, a generated column list, an integer literal a
/// partial index must see) goes in with ``StringInterpolation/appendInterpolation(unescaped:)``
/// or ``StringInterpolation/appendInterpolation(literal:)``.
package struct StoreSQL: Sendable, Hashable, ExpressibleByStringInterpolation {
    fileprivate indirect enum Piece: Sendable, Hashable {
        case text(String)
        case bind(StoreValue)
        case either(sqlite: [Piece], postgres: [Piece])
        /// A value bound later (``binding(_:)``).
        case parameter(Int)
        /// A planner setting for the statement alone (``plannerSetting(_:_:)``): no text.
        case setting(name: String, value: String)
    }

    fileprivate var pieces: [Piece]

    fileprivate init(pieces: [Piece]) {
        self.pieces = pieces
    }

    package init(stringLiteral value: String) {
        pieces = value.isEmpty ? [] : [.text(value)]
    }

    package init(stringInterpolation: StringInterpolation) {
        pieces = stringInterpolation.pieces
    }

    /// Text written as it is: an identifier, a column list made from a table's description.
    package init(unescaped text: String) {
        pieces = text.isEmpty ? [] : [.text(text)]
    }

    /// Whether nothing is written.
    package var isEmpty: Bool { pieces.isEmpty }

    package struct StringInterpolation: StringInterpolationProtocol, Sendable {
        fileprivate var pieces: [Piece] = []

        package init(literalCapacity: Int, interpolationCount: Int) {
            pieces.reserveCapacity(interpolationCount * 2 + 1)
        }

        package mutating func appendLiteral(_ literal: String) {
            guard !literal.isEmpty else { return }
            if case .text(var text)? = pieces.last {
                // Taken out of the array first, so the text is appended to in place.
                pieces.removeLast()
                text += literal
                pieces.append(.text(text))
            } else {
                pieces.append(.text(literal))
            }
        }

        /// A bound value: `?` or `$n`, and the value.
        package mutating func appendInterpolation(_ value: some StoreValueConvertible) {
            pieces.append(.bind(value.storeValue))
        }

        /// A bound value that may be `NULL`.
        package mutating func appendInterpolation<Value: StoreValueConvertible>(_ value: Value?) {
            pieces.append(.bind(value?.storeValue ?? .null))
        }

        /// A fragment, with its binds.
        package mutating func appendInterpolation(_ fragment: StoreSQL) {
            for piece in fragment.pieces {
                if case .text(let text) = piece { appendLiteral(text) } else { pieces.append(piece) }
            }
        }

        /// Text written as it is (never a value from outside the store).
        package mutating func appendInterpolation(unescaped text: String) {
            appendLiteral(text)
        }

        /// An integer written into the text rather than bound: a term a partial index must
        /// see as it is (`(asset.sourceType & 1) != 0`), a flag in a trigger.
        package mutating func appendInterpolation(literal value: Int) {
            appendLiteral(String(value))
        }
    }

    /// `fragments` joined by `separator`, with their binds in order.
    package static func joined(_ fragments: some Sequence<StoreSQL>, separator: String) -> StoreSQL {
        var result = StoreSQL(pieces: [])
        var first = true
        for fragment in fragments {
            if !first { result.append(StoreSQL(unescaped: separator)) }
            result.append(fragment)
            first = false
        }
        return result
    }

    /// Appends a fragment and its binds.
    package mutating func append(_ fragment: StoreSQL) {
        var interpolation = StringInterpolation(literalCapacity: 0, interpolationCount: 0)
        interpolation.pieces = pieces
        interpolation.appendInterpolation(fragment)
        pieces = interpolation.pieces
    }

    package static func + (lhs: StoreSQL, rhs: StoreSQL) -> StoreSQL {
        var result = lhs
        result.append(rhs)
        return result
    }

    package static func += (lhs: inout StoreSQL, rhs: StoreSQL) {
        lhs.append(rhs)
    }

    // MARK: - Parameters

    /// A value given later with ``binding(_:)``: a statement built once serves many reads that
    /// differ only in it (a diff's probes, one row each). The `index`th value given fills it.
    package static func parameter(_ index: Int) -> StoreSQL {
        StoreSQL(pieces: [.parameter(index)])
    }

    /// The statement with its ``parameter(_:)``s bound to `values`.
    package func binding(_ values: [StoreValue]) -> StoreSQL {
        func fill(_ pieces: [Piece]) -> [Piece] {
            pieces.map { piece in
                switch piece {
                case .parameter(let index): .bind(values[index])
                case .either(let sqlite, let postgres): .either(sqlite: fill(sqlite), postgres: fill(postgres))
                case .text, .bind, .setting: piece
                }
            }
        }
        return StoreSQL(pieces: fill(pieces))
    }

    // MARK: - Per engine

    /// A fragment the engines spell differently; each renders its own, with its binds.
    package static func either(sqlite: StoreSQL, postgres: StoreSQL) -> StoreSQL {
        StoreSQL(pieces: [.either(sqlite: sqlite.pieces, postgres: postgres.pieces)])
    }

    /// A fragment only SQLite writes (PostgreSQL writes nothing).
    package static func sqliteOnly(_ fragment: StoreSQL) -> StoreSQL {
        either(sqlite: fragment, postgres: "")
    }

    /// A planner hint. SQLite's planner takes hints in the SQL text; PostgreSQL's has none, so
    /// it reads the statement without them.
    package enum Hint: Sendable {
        /// `INDEXED BY name` after a table: SQLite reads that index.
        case indexedBy(String)
        /// `CROSS JOIN` in place of `JOIN`: SQLite keeps the tables' order as written.
        case crossJoin
    }

    /// A setting of PostgreSQL's planner for the statement that holds this fragment, written
    /// nowhere in its text: PostgreSQL runs the statement in a transaction of its own after
    /// `SET LOCAL name = value` (``plannerSettings``), SQLite ignores it. Where PostgreSQL's
    /// default costs pick a plan measured to be slower (see ``AssetQuery``'s album fetch).
    package static func plannerSetting(_ name: String, _ value: String) -> StoreSQL {
        StoreSQL(pieces: [.setting(name: name, value: value)])
    }

    /// The planner settings the statement holds (``plannerSetting(_:_:)``), in order.
    package var plannerSettings: [(name: String, value: String)] {
        func walk(_ pieces: [Piece]) -> [(name: String, value: String)] {
            pieces.flatMap { piece -> [(name: String, value: String)] in
                switch piece {
                case .setting(let name, let value): [(name, value)]
                case .either(_, let postgres): walk(postgres)
                case .text, .bind, .parameter: []
                }
            }
        }
        return walk(pieces)
    }

    /// A planner hint: SQLite writes it; PostgreSQL writes the plain form (nothing for
    /// `INDEXED BY`, `JOIN` for `CROSS JOIN`).
    package static func hint(_ hint: Hint) -> StoreSQL {
        switch hint {
        case .indexedBy(let name): sqliteOnly(StoreSQL(unescaped: " INDEXED BY \(name)"))
        case .crossJoin: either(sqlite: "CROSS JOIN", postgres: "JOIN")
        }
    }

    /// The statement as `dialect` runs it: its text with `?` (SQLite) or `$n` (PostgreSQL)
    /// placeholders, and the values bound to them, in order.
    package func rendered(for dialect: SQLDialect) -> (sql: String, binds: [StoreValue]) {
        var renderer = Renderer(dialect: dialect)
        renderer.render(pieces)
        return (renderer.sql, renderer.binds)
    }

    /// The statement with its values, as a key: two statements of one text with other values
    /// (a search's words) are two keys.
    package func key(for dialect: SQLDialect) -> String {
        let (sql, binds) = rendered(for: dialect)
        return binds.isEmpty ? sql : sql + "\u{0}" + binds.map { "\($0)" }.joined(separator: "\u{0}")
    }

    /// Walks the pieces for an engine; `write` receives each text and each bind in order, so
    /// an engine can append them to its own statement type (PostgreSQL's `PostgresQuery`).
    package func render(for dialect: SQLDialect, text: (String) -> Void, bind: (StoreValue) -> Void) {
        func walk(_ pieces: [Piece]) {
            for piece in pieces {
                switch piece {
                case .text(let value): text(value)
                case .setting: break
                case .bind(let value): bind(value)
                case .either(let sqlite, let postgres): walk(dialect == .sqlite ? sqlite : postgres)
                case .parameter(let index): preconditionFailure("Parameter \(index) was not bound (StoreSQL.binding)")
                }
            }
        }
        walk(pieces)
    }

    private struct Renderer {
        let dialect: SQLDialect
        var sql = ""
        var binds: [StoreValue] = []

        mutating func render(_ pieces: [Piece]) {
            for piece in pieces {
                switch piece {
                case .text(let text): sql += text
                case .setting: break
                case .bind(let value):
                    binds.append(value)
                    sql += dialect == .sqlite ? "?" : "$\(binds.count)"
                case .either(let sqlite, let postgres): render(dialect == .sqlite ? sqlite : postgres)
                case .parameter(let index): preconditionFailure("Parameter \(index) was not bound (StoreSQL.binding)")
                }
            }
        }
    }
}

extension StoreSQL: CustomStringConvertible {
    /// The SQLite rendering, for messages and tests.
    package var description: String { rendered(for: .sqlite).sql }
}
