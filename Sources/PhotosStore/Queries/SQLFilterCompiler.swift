import Foundation

/// Compiles a ``StoreFilter`` to an SQL boolean expression and its arguments.
///
/// Values are always bound (`?`), never pasted into the SQL text. Under a `NOT`, comparisons
/// that may meet `NULL` are wrapped in `COALESCE(…, FALSE)` so SQL's three-valued logic gives the
/// same answer as in-memory predicate evaluation; outside a `NOT`, `NULL` already acts as
/// false in a `WHERE` clause, and the bare comparison keeps indexes usable.
struct SQLFilterCompiler {
    /// The bound values, in the order of the `?`s.
    private(set) var values: [StoreValue] = []
    var arguments: SQLArguments { SQLArguments(values) }
    let dialect: SQLDialect

    init(dialect: SQLDialect) {
        self.dialect = dialect
    }

    /// Lists longer than this are bound as one JSON array instead of one argument each.
    static let inlineListLimit = 32

    mutating func compile(_ filter: StoreFilter) -> String {
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
    private func balanced(_ terms: [String], joinedBy separator: String) -> String {
        if terms.count <= 64 { return "(" + terms.joined(separator: separator) + ")" }
        let middle = terms.count / 2
        return "(" + balanced(Array(terms[..<middle]), joinedBy: separator) + separator
            + balanced(Array(terms[middle...]), joinedBy: separator) + ")"
    }

    private mutating func compile(_ filter: StoreFilter, negated: Bool) -> String {
        switch filter {
        case .constant(let value):
            return value ? "TRUE" : "FALSE"
        case .and(let parts):
            guard !parts.isEmpty else { return "TRUE" }
            return balanced(Self.flattened(parts, and: true).map { compile($0, negated: negated) }, joinedBy: " AND ")
        case .or(let parts):
            guard !parts.isEmpty else { return "FALSE" }
            return balanced(Self.flattened(parts, and: false).map { compile($0, negated: negated) }, joinedBy: " OR ")
        case .not(let inner):
            return "(NOT " + compile(inner, negated: !negated) + ")"
        case .compare(let lhs, let op, let rhs):
            let sql: String
            let nonNullValue = [lhs, rhs].contains { if case .value(let value) = $0 { value != .null } else { false } }
            switch op {
            case .equal where dialect == .postgres && nonNullValue && !negated:
                // `=` where it means the same: PostgreSQL's indexes serve `=`, not `IS NOT DISTINCT FROM`.
                sql = "(\(operand(lhs)) = \(operand(rhs)))"
            case .equal: sql = "(\(dialect.isNotDistinct(operand(lhs), operand(rhs))))"
            case .notEqual: sql = "(\(dialect.isDistinct(operand(lhs), operand(rhs))))"
            default: sql = "(\(operand(lhs)) \(op.rawValue) \(operand(rhs)))"
            }
            let canBeNull = op != .equal && op != .notEqual && (lhs.canBeNull || rhs.canBeNull)
            return negated && canBeNull ? "COALESCE(\(sql), FALSE)" : sql
        case .text(let lhs, let test, let rhs, let options):
            // The ph_text_* functions return 0, never NULL, for missing values.
            return "\(test.rawValue)(\(operand(lhs)), \(operand(rhs)), \(options.rawValue))"
        case .between(let value, let lower, let upper):
            let sql = "(\(operand(value)) BETWEEN \(operand(lower)) AND \(operand(upper)))"
            let canBeNull = value.canBeNull || lower.canBeNull || upper.canBeNull
            return negated && canBeNull ? "COALESCE(\(sql), FALSE)" : sql
        case .isIn(let value, let list):
            return membership(value, list, negated: negated)
        }
    }

    /// Each time the value's SQL is written binds its arguments again (a masked key,
    /// `(mediaSubtypes & ?)`, appears twice when the list holds `nil`, and not at all when the
    /// list is empty), so the `?`s and the arguments stay in step.
    private mutating func membership(_ value: StoreOperand, _ list: [StoreValue], negated: Bool) -> String {
        let nonNull = list.filter { $0 != .null }
        let matchesNull = nonNull.count != list.count
        guard !nonNull.isEmpty else { return matchesNull ? "(\(operand(value)) IS NULL)" : "(FALSE)" }
        let isNull = matchesNull ? "\(operand(value)) IS NULL" : ""
        let lhs = operand(value)
        var sql: String
        if nonNull.count <= Self.inlineListLimit {
            values += nonNull
            sql = "\(lhs) IN (\(Array(repeating: "?", count: nonNull.count).joined(separator: ", ")))"
        } else {
            values.append(.text(StoreValue.jsonArray(nonNull)))
            let type: SQLDialect.ElementType =
                if nonNull.allSatisfy({ if case .text = $0 { true } else { false } }) { .text }
                else if nonNull.allSatisfy({ if case .integer = $0 { true } else { false } }) { .integer }
                else { .real }
            sql = "\(lhs) IN (\(dialect.jsonElements(type)))"
        }
        if matchesNull {
            sql = "(\(isNull) OR \(sql))"
        } else if negated && value.canBeNull {
            sql = "COALESCE(\(sql), FALSE)"
        }
        return "(\(sql))"
    }

    private mutating func operand(_ operand: StoreOperand) -> String {
        switch operand {
        case .field(let field):
            return field.sql
        case .value(let value):
            values.append(value)
            return "?"
        case .bitwiseAnd(let lhs, let rhs):
            return "(\(self.operand(lhs)) & \(self.operand(rhs)))"
        case .folded(let inner, let options):
            return "ph_text_fold(\(self.operand(inner)), \(options.rawValue))"
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
    /// A JSON array of integers, for ``SQLDialect/jsonElements(_:)``.
    static func jsonArray(_ values: some Collection<Int64>) -> String {
        var json = "["
        json.reserveCapacity(values.count * 8 + 2)
        for (offset, value) in values.enumerated() {
            if offset > 0 { json += "," }
            json += String(value)
        }
        return json + "]"
    }

    /// A JSON array of the values, for ``SQLDialect/jsonElements(_:)``.
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
