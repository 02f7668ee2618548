import Foundation

/// Compiles a ``StoreFilter`` to an SQL boolean expression, its values bound where they stand.
///
/// Values are always bound, never pasted into the SQL text. Under a `NOT`, comparisons that
/// may meet `NULL` are wrapped in `COALESCE(…, FALSE)` so SQL's three-valued logic gives the
/// same answer as in-memory predicate evaluation; outside a `NOT`, `NULL` already acts as
/// false in a `WHERE` clause, and the bare comparison keeps indexes usable.
enum SQLFilterCompiler {
    /// Lists longer than this are bound as one JSON array instead of one value each.
    static let inlineListLimit = 32

    static func compile(_ filter: StoreFilter) -> StoreSQL {
        compile(filter, negated: false)
    }

    /// Nested `AND`s in an `AND` (and `OR`s in an `OR`) as one list: a predicate parsed as
    /// `a AND b AND c` arrives as `(a AND b) AND c`.
    static func flattened(_ parts: [StoreFilter], and: Bool) -> [StoreFilter] {
        var flat: [StoreFilter] = []
        var pending = parts.reversed() as [StoreFilter]
        while let part = pending.popLast() {
            switch part {
            case .and(let inner) where and: pending.append(contentsOf: inner.reversed())
            case .or(let inner) where !and: pending.append(contentsOf: inner.reversed())
            default: flat.append(part)
            }
        }
        return flat
    }

    /// Terms joined as a balanced tree of parentheses: SQLite parses `a OR b OR c ...` one
    /// level deeper per term and refuses past 1,000 levels ("Expression tree is too large");
    /// halves nest only log₂(n) deep.
    private static func balanced(_ terms: ArraySlice<StoreSQL>, joinedBy separator: String) -> StoreSQL {
        if terms.count <= 64 { return "(\(StoreSQL.joined(terms, separator: separator)))" }
        let middle = terms.startIndex + terms.count / 2
        return "(\(balanced(terms[..<middle], joinedBy: separator))\(unescaped: separator)\(balanced(terms[middle...], joinedBy: separator)))"
    }

    private static func compile(_ filter: StoreFilter, negated: Bool) -> StoreSQL {
        switch filter {
        case .constant(let value):
            return value ? "TRUE" : "FALSE"
        case .and(let parts):
            guard !parts.isEmpty else { return "TRUE" }
            return balanced(ArraySlice(flattened(parts, and: true).map { compile($0, negated: negated) }), joinedBy: " AND ")
        case .or(let parts):
            guard !parts.isEmpty else { return "FALSE" }
            return balanced(ArraySlice(flattened(parts, and: false).map { compile($0, negated: negated) }), joinedBy: " OR ")
        case .not(let inner):
            return "(NOT \(compile(inner, negated: !negated)))"
        case .compare(let lhs, let op, let rhs):
            let sql: StoreSQL
            let nonNullValue = [lhs, rhs].contains { if case .value(let value) = $0 { value != .null } else { false } }
            switch op {
            case .equal where nonNullValue && !negated:
                // `=` where it means the same: PostgreSQL's indexes serve `=`, not `IS NOT DISTINCT FROM`.
                sql = .either(sqlite: "(\(operand(lhs)) IS \(operand(rhs)))", postgres: "(\(operand(lhs)) = \(operand(rhs)))")
            case .equal: sql = "(\(StoreSQL.isNotDistinct(operand(lhs), operand(rhs))))"
            case .notEqual: sql = "(\(StoreSQL.isDistinct(operand(lhs), operand(rhs))))"
            default: sql = "(\(operand(lhs)) \(unescaped: op.rawValue) \(operand(rhs)))"
            }
            let canBeNull = op != .equal && op != .notEqual && (lhs.canBeNull || rhs.canBeNull)
            return negated && canBeNull ? "COALESCE(\(sql), FALSE)" : sql
        case .text(let lhs, let test, let rhs, let options):
            // The ph_text_* functions return 0, never NULL, for missing values.
            return "\(unescaped: test.rawValue)(\(operand(lhs)), \(operand(rhs)), \(literal: options.rawValue))"
        case .between(let value, let lower, let upper):
            let sql: StoreSQL = "(\(operand(value)) BETWEEN \(operand(lower)) AND \(operand(upper)))"
            let canBeNull = value.canBeNull || lower.canBeNull || upper.canBeNull
            return negated && canBeNull ? "COALESCE(\(sql), FALSE)" : sql
        case .isIn(let value, let list):
            return membership(value, list, negated: negated)
        }
    }

    private static func membership(_ value: StoreOperand, _ list: [StoreValue], negated: Bool) -> StoreSQL {
        let nonNull = list.filter { $0 != .null }
        let matchesNull = nonNull.count != list.count
        guard !nonNull.isEmpty else { return matchesNull ? "(\(operand(value)) IS NULL)" : "(FALSE)" }
        let lhs = operand(value)
        var sql: StoreSQL
        if nonNull.count <= inlineListLimit {
            sql = "\(lhs) IN (\(StoreSQL.joined(nonNull.map { "\($0)" }, separator: ", ")))"
        } else {
            let type: StoreSQL.ElementType =
                if nonNull.allSatisfy({ if case .text = $0 { true } else { false } }) { .text }
                else if nonNull.allSatisfy({ if case .integer = $0 { true } else { false } }) { .integer }
                else { .real }
            sql = "\(lhs) IN (\(StoreSQL.jsonElements(json: StoreValue.jsonArray(nonNull), type)))"
        }
        if matchesNull {
            sql = "(\(lhs) IS NULL OR \(sql))"
        } else if negated && value.canBeNull {
            sql = "COALESCE(\(sql), FALSE)"
        }
        return "(\(sql))"
    }

    private static func operand(_ operand: StoreOperand) -> StoreSQL {
        switch operand {
        case .field(let field): field.sql
        case .value(let value): "\(value)"
        case .bitwiseAnd(let lhs, let rhs): "(\(self.operand(lhs)) & \(self.operand(rhs)))"
        case .folded(let inner, let options): "ph_text_fold(\(self.operand(inner)), \(literal: options.rawValue))"
        }
    }
}

extension StoreOperand {
    var canBeNull: Bool {
        switch self {
        case .field(let field): field.isNullable
        case .value(let value): value == .null
        case .bitwiseAnd(let lhs, let rhs): lhs.canBeNull || rhs.canBeNull
        case .folded(let inner, _): inner.canBeNull
        }
    }
}

extension StoreValue {
    /// A JSON array of integers, for ``StoreSQL/jsonElements(json:_:)``.
    static func jsonArray(_ values: some Collection<Int64>) -> String {
        var json = "["
        json.reserveCapacity(values.count * 8 + 2)
        for (offset, value) in values.enumerated() {
            if offset > 0 { json += "," }
            json += String(value)
        }
        return json + "]"
    }

    /// A JSON array of the values, for ``StoreSQL/jsonElements(json:_:)``.
    static func jsonArray(_ values: [StoreValue]) -> String {
        let items = values.map { value -> String in
            switch value {
            case .null: "null"
            case .integer(let value): String(value)
            case .real(let value): value.isFinite ? "\(value)" : "null"
            case .text(let value): jsonString(value)
            }
        }
        return "[" + items.joined(separator: ",") + "]"
    }

    static func jsonString(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
