import Foundation
import PhotosStore

/// Evaluates a ``PredicateNode`` in memory; the store's SQL compiler mirrors these semantics.
///
/// Evaluation is two-valued: every comparison is true or false, never unknown.
///
/// | Case | Result |
/// |---|---|
/// | key the object doesn't have (``PredicateEvaluable`` returns `nil`) | the comparison is false, whatever the operator (`!=` too); `NOT` of it is true |
/// | `nil == nil` | true; `nil == x` for any other `x` is false; `!=` is always the negation of `==` (`nil != 5` is true) |
/// | `<` `<=` `>` `>=` `BETWEEN` with `nil` on either side | false (`5 < nil`, `nil < 5`, `nil <= nil`) |
/// | numbers: `.bool` (as 0 or 1), `.int`, `.double` | compared by value; two `.int`s exactly, any other pair as `Double`; NaN equals and orders with nothing |
/// | `.date` with `.date` | compared by `timeIntervalSince1970`, as the store keeps and compares them (two dates less than a microsecond apart may be equal) |
/// | `.date` with a number | the date's `timeIntervalSince1970` against the number (how the store keeps dates) |
/// | `.string` `==`/`!=` `.string` | the same bytes (after folding with `[c]`/`[d]`), as `NSString`'s `isEqual:` and SQL's `IS` |
/// | `.string` `<` `<=` `>` `>=` `.string` | UTF-8 byte order, like SQLite's `BINARY` collation (not Foundation's `compare`) |
/// | `[c]`, `[d]`, `[cd]` | both strings folded with `folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)` first; no effect on other values |
/// | `.object` with `.object` | equal when the local identifiers are; ordered by identifier bytes |
/// | `.string` with `.object` | the string against the object's local identifier, as two strings (`SELF IN %@` with identifiers) |
/// | `.array` with `.array` | `==` element by element with these rules; never ordered |
/// | any other mix (string vs number, date vs string, ...) | `==` false, `!=` true, orderings false |
/// | `x BETWEEN {a, b}` | `a <= x AND x <= b`, both ends inclusive; false unless the right side is exactly two values |
/// | `x IN {a, b}` / `x IN %@` | true when some element `== x` (so `nil IN {nil}` is true); with a string on the right, `x` is a substring of it; otherwise false |
/// | `x CONTAINS y` | `x` an array: some element `== y`; `x` a string: `y` is a substring after folding (the empty string always is); otherwise false |
/// | `BEGINSWITH`, `ENDSWITH` | prefix or suffix on strings (object identifiers count as strings), after folding; false for other values |
/// | `LIKE` | strings only: the whole string matches the pattern, `*` any run of `Character`s, `?` exactly one; no escapes |
/// | `a & b` | both integers (`.bool` as 0 or 1, `.double` truncated toward zero): bitwise and as `.int`; otherwise `nil` (`.null`) |
/// | `{a, b}` | an `.array` of its elements' values; false if any element names a missing key |
/// | `TRUEPREDICATE`, `FALSEPREDICATE`, `AND`, `OR`, `NOT` | as in logic; an empty `AND` is true, an empty `OR` false |
enum PredicateEvaluator {
    /// Whether `object` satisfies `node`. Never traps: a missing key makes its comparison false.
    static func evaluate(_ node: PredicateNode, on object: some PredicateEvaluable) -> Bool {
        switch node {
        case .constant(let value):
            return value
        case .and(let items):
            return items.allSatisfy { evaluate($0, on: object) }
        case .or(let items):
            return items.contains { evaluate($0, on: object) }
        case .not(let inner):
            return !evaluate(inner, on: object)
        case .comparison(let comparison):
            guard let lhs = value(of: comparison.lhs, on: object),
                let rhs = value(of: comparison.rhs, on: object)
            else { return false }
            return PredicateValue.test(lhs, comparison.op, rhs, options: comparison.options)
        }
    }

    /// The value of an operand, or `nil` when it names a key `object` doesn't have.
    static func value(of operand: PredicateOperand, on object: some PredicateEvaluable) -> PredicateValue? {
        switch operand {
        case .key(let key, _):
            return object.predicateValue(forKey: key)
        case .value(let value):
            return value
        case .bitwiseAnd(let lhs, let rhs):
            guard let lhs = value(of: lhs, on: object), let rhs = value(of: rhs, on: object) else { return nil }
            guard let a = lhs.bitwiseInteger, let b = rhs.bitwiseInteger else { return .null }
            return .int(a & b)
        case .aggregate(let items):
            var values: [PredicateValue] = []
            values.reserveCapacity(items.count)
            for item in items {
                guard let value = value(of: item, on: object) else { return nil }
                values.append(value)
            }
            return .array(values)
        }
    }
}

/// Whether `object` satisfies `node`: ``PredicateEvaluator/evaluate(_:on:)``.
func evaluate(_ node: PredicateNode, on object: some PredicateEvaluable) -> Bool {
    PredicateEvaluator.evaluate(node, on: object)
}

extension PredicateValue {
    /// `lhs op rhs` on two values, by the rules in ``PredicateEvaluator``.
    static func test(
        _ lhs: PredicateValue, _ op: PredicateOperator, _ rhs: PredicateValue, options: PredicateStringOptions
    ) -> Bool {
        switch op {
        case .equal:
            return equals(lhs, rhs, options: options)
        case .notEqual:
            return !equals(lhs, rhs, options: options)
        case .less:
            return order(lhs, rhs, options: options) == .orderedAscending
        case .lessOrEqual:
            return [.orderedAscending, .orderedSame].contains(order(lhs, rhs, options: options))
        case .greater:
            return order(lhs, rhs, options: options) == .orderedDescending
        case .greaterOrEqual:
            return [.orderedDescending, .orderedSame].contains(order(lhs, rhs, options: options))
        case .between:
            guard case .array(let bounds) = rhs, bounds.count == 2 else { return false }
            return test(lhs, .greaterOrEqual, bounds[0], options: options)
                && test(lhs, .lessOrEqual, bounds[1], options: options)
        case .in:
            switch rhs {
            case .array(let items): return items.contains { equals(lhs, $0, options: options) }
            case .string, .object: return textTest(.contains, rhs, lhs, options: options)
            default: return false
            }
        case .contains:
            if case .array(let items) = lhs { return items.contains { equals($0, rhs, options: options) } }
            return textTest(.contains, lhs, rhs, options: options)
        case .beginsWith, .endsWith, .like:
            return textTest(op, lhs, rhs, options: options)
        }
    }

    /// `==` with `nil == nil` true.
    static func equals(_ lhs: PredicateValue, _ rhs: PredicateValue, options: PredicateStringOptions) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null):
            return true
        case (.null, _), (_, .null):
            return false
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { equals($0, $1, options: options) }
        case (.array, _), (_, .array):
            return false
        default:
            if let a = lhs.comparableText, let b = rhs.comparableText {
                return PredicateText.test(.equal, a, b, options: options)
            }
            return numericOrder(lhs, rhs) == .orderedSame
        }
    }

    /// The order of two values, or `nil` when they can't be ordered (`nil`, arrays, mixed kinds).
    static func order(
        _ lhs: PredicateValue, _ rhs: PredicateValue, options: PredicateStringOptions
    ) -> ComparisonResult? {
        if let a = lhs.comparableText, let b = rhs.comparableText {
            let a = PredicateText.fold(a, options).utf8, b = PredicateText.fold(b, options).utf8
            if a.elementsEqual(b) { return .orderedSame }
            return a.lexicographicallyPrecedes(b) ? .orderedAscending : .orderedDescending
        }
        return numericOrder(lhs, rhs)
    }

    private static func numericOrder(_ lhs: PredicateValue, _ rhs: PredicateValue) -> ComparisonResult? {
        switch (lhs, rhs) {
        case (.int(let a), .int(let b)):
            return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
        case (.date(let a), .date(let b)):
            let x = a.timeIntervalSince1970, y = b.timeIntervalSince1970
            return x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
        default:
            guard let a = lhs.comparableNumber, let b = rhs.comparableNumber, !a.isNaN, !b.isNaN else { return nil }
            return a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
        }
    }

    private static func textTest(
        _ op: PredicateOperator, _ lhs: PredicateValue, _ rhs: PredicateValue, options: PredicateStringOptions
    ) -> Bool {
        guard let a = lhs.comparableText, let b = rhs.comparableText else { return false }
        return PredicateText.test(op, a, b, options: options)
    }

    /// Strings, and objects by their local identifier.
    fileprivate var comparableText: String? {
        switch self {
        case .string(let string): string
        case .object(let identifier): identifier
        default: nil
        }
    }

    /// Numbers, Booleans as 0 or 1, and dates as seconds since 1970.
    fileprivate var comparableNumber: Double? {
        switch self {
        case .bool(let value): value ? 1 : 0
        case .int(let value): Double(value)
        case .double(let value): value
        case .date(let value): value.timeIntervalSince1970
        default: nil
        }
    }

    /// An operand of `&`.
    fileprivate var bitwiseInteger: Int64? {
        switch self {
        case .bool(let value): value ? 1 : 0
        case .int(let value): value
        case .double(let value): value.isFinite ? Int64(exactly: value.rounded(.towardZero)) : nil
        default: nil
        }
    }
}

/// String tests: the store's `TextMatching`, so SQL and memory agree by construction.
enum PredicateText {
    static func fold(_ string: String, _ options: PredicateStringOptions) -> String {
        TextMatching.fold(string, options: options.store)
    }

    /// `CONTAINS`, `BEGINSWITH`, `ENDSWITH` and `LIKE` on two strings.
    static func test(_ op: PredicateOperator, _ lhs: String, _ rhs: String, options: PredicateStringOptions) -> Bool {
        let test: StoreTextTest =
            switch op {
            case .contains: .contains
            case .beginsWith: .beginsWith
            case .endsWith: .endsWith
            case .like: .like
            default: .equal
            }
        return TextMatching.test(test, lhs, rhs, options: options.store)
    }
}
