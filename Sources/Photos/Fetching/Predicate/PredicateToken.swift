/// One token of a predicate format string, as ``PredicateLexer`` produces it.
///
/// Format specifiers are bound to their arguments while lexing, so `%@` arrives here as a
/// `.value` and `%K` as a `.key`; the parser never sees the argument list.
struct PredicateToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A key path as written (`creationDate`, `a.b`, `#IN`), or substituted by `%K`.
        case key(String)
        case keyword(PredicateKeyword)
        /// A literal, or a substituted `%@`, `%d`, `%f`, `%s`, ... argument.
        case value(PredicateValue)
        case symbol(PredicateSymbol)
        case leftParen, rightParen, leftBrace, rightBrace, leftBracket, rightBracket, comma
        /// `%%`: a literal percent sign, which is not an operand in any supported expression.
        case percent
        /// The lexer stopped here; the parser throws this error when it reaches the token.
        case invalid(PHPredicateError)
        case end
    }

    var kind: Kind
    /// The token as written in the format (`%@` for a substituted argument).
    var text: String
    /// Character offset of the token in the format.
    var position: Int
}

/// Operators spelled with punctuation.
enum PredicateSymbol: String, Sendable, Equatable, CaseIterable {
    case equal = "=="
    case singleEqual = "="
    case notEqual = "!="
    case lessGreater = "<>"
    case lessOrEqual = "<="
    case equalLess = "=<"
    case less = "<"
    case greaterOrEqual = ">="
    case equalGreater = "=>"
    case greater = ">"
    case and = "&&"
    case or = "||"
    case not = "!"
    case bitwiseAnd = "&"

    /// The comparison this symbol spells, if it is one.
    var comparison: PredicateOperator? {
        switch self {
        case .equal, .singleEqual: .equal
        case .notEqual, .lessGreater: .notEqual
        case .less: .less
        case .lessOrEqual, .equalLess: .lessOrEqual
        case .greater: .greater
        case .greaterOrEqual, .equalGreater: .greaterOrEqual
        case .and, .or, .not, .bitwiseAnd: nil
        }
    }
}

/// Reserved words of the predicate format grammar (case-insensitive). A key spelled like one
/// must be escaped with `#` (`#size`).
enum PredicateKeyword: String, Sendable, Equatable, CaseIterable {
    case and = "AND"
    case or = "OR"
    case not = "NOT"
    case truePredicate = "TRUEPREDICATE"
    case falsePredicate = "FALSEPREDICATE"
    case yes = "YES"
    case `true` = "TRUE"
    case no = "NO"
    case `false` = "FALSE"
    case `nil` = "NIL"
    case null = "NULL"
    case `self` = "SELF"
    case between = "BETWEEN"
    case `in` = "IN"
    case contains = "CONTAINS"
    case beginsWith = "BEGINSWITH"
    case endsWith = "ENDSWITH"
    case like = "LIKE"
    case cast = "CAST"
    // Reserved by Apple's grammar but not supported by PhotoKit fetches.
    case any = "ANY"
    case all = "ALL"
    case some = "SOME"
    case none = "NONE"
    case subquery = "SUBQUERY"
    case matches = "MATCHES"
    case function = "FUNCTION"
    case first = "FIRST"
    case last = "LAST"
    case size = "SIZE"
    case anyKey = "ANYKEY"
    case fetch = "FETCH"

    init?(word: String) {
        self.init(rawValue: word.uppercased())
    }

    /// The comparison this keyword spells, if it is one.
    var comparison: PredicateOperator? {
        switch self {
        case .between: .between
        case .in: .in
        case .contains: .contains
        case .beginsWith: .beginsWith
        case .endsWith: .endsWith
        case .like: .like
        default: nil
        }
    }

    /// Whether PhotoKit fetches reject this word wherever it appears.
    var isUnsupported: Bool {
        switch self {
        case .any, .all, .some, .none, .subquery, .matches, .function, .first, .last, .size,
            .anyKey, .fetch:
            true
        default: false
        }
    }
}
