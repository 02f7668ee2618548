import Foundation

/// The tree the predicate-format parser builds.
///
/// `NSPredicate(format:)` parses once, at construction, into this tree. Fetches bind its keys to
/// the fetched class (``PredicateKeyBinding``) and the store compiles the bound tree to
/// parameterised SQL; `evaluate(with:)` walks the same tree in memory. Positions are character
/// offsets into the format string, so errors can point at the offending token.
indirect enum PredicateNode: Sendable, Equatable {
    /// `TRUEPREDICATE`, `FALSEPREDICATE`, and `NSPredicate(value:)`.
    case constant(Bool)
    case and([PredicateNode])
    case or([PredicateNode])
    case not(PredicateNode)
    case comparison(PredicateComparison)
}

/// One comparison: `lhs op rhs`, with string options such as `[cd]`.
struct PredicateComparison: Sendable, Equatable {
    var lhs: PredicateOperand
    var op: PredicateOperator
    var rhs: PredicateOperand
    var options: PredicateStringOptions = []
    /// Offset of the operator in the format string.
    var position: Int = 0
}

enum PredicateOperator: String, Sendable, Equatable {
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    /// `x BETWEEN {a, b}`; the right-hand side is an aggregate or array of two values.
    case between = "BETWEEN"
    /// `x IN {a, b}` or `x IN %@` with an array; also `SELF IN %@` with objects.
    case `in` = "IN"
    case contains = "CONTAINS"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    /// `*` and `?` wildcards.
    case like = "LIKE"
}

/// `[c]`, `[d]` and `[cd]` after a string operator.
struct PredicateStringOptions: OptionSet, Sendable, Hashable {
    let rawValue: Int
    static let caseInsensitive = PredicateStringOptions(rawValue: 1)
    static let diacriticInsensitive = PredicateStringOptions(rawValue: 2)
}

indirect enum PredicateOperand: Sendable, Equatable {
    /// A key path such as `creationDate`, or `SELF`; `position` is its offset in the format.
    case key(String, position: Int)
    case value(PredicateValue)
    /// `(mediaSubtypes & 8)`: the bitwise and of two operands.
    case bitwiseAnd(PredicateOperand, PredicateOperand)
    /// `{a, b, c}` in the format string.
    case aggregate([PredicateOperand])
}

/// A constant in a predicate: a literal in the format or a substituted argument.
enum PredicateValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case date(Date)
    case array([PredicateValue])
    /// A `PHObject` passed as an argument (`SELF == %@`, `SELF IN %@`): its local identifier.
    case object(localIdentifier: String)
}
