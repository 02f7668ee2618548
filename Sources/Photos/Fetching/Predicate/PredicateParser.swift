import Foundation

/// Recursive-descent parser for the predicate format grammar PhotoKit clients use.
///
/// ```
/// predicate  := or
/// or         := and (("OR" | "||") and)*
/// and        := not (("AND" | "&&") not)*
/// not        := ("NOT" | "!") not | primary
/// primary    := "TRUEPREDICATE" | "FALSEPREDICATE" | "(" predicate ")" | comparison
/// comparison := operand operator options? operand
/// operator   := == = != <> < <= =< > >= => BETWEEN IN CONTAINS BEGINSWITH ENDSWITH LIKE
/// options    := "[" ("c" | "d" | "cd" | "dc") "]"
/// operand    := term ("&" term)*
/// term       := literal | key | "SELF" | "(" operand ")" | "{" (operand ("," operand)*)? "}"
///             | "CAST" "(" number "," "NSDate" ")"
/// ```
///
/// A `(` at the start of a predicate is read as a parenthesised predicate first and, if that
/// fails or a comparison operator follows, again as the start of an operand, so both
/// `(a == 1 OR b == 2)` and `(mediaSubtypes & 4) != 0` parse. When both readings fail, the
/// error that got further into the format is reported. `AND`/`OR` chains become one n-ary
/// node; parentheses are not kept except as grouping.
struct PredicateParser {
    /// Nesting deeper than this is rejected rather than risking the stack on hostile input.
    static let maximumDepth = 100

    private let format: String
    private let tokens: [PredicateToken]
    private var index = 0
    private var depth = 0

    /// Parses `format`, substituting `arguments` for its format specifiers.
    static func parse(format: String, arguments: [Any]) throws(PHPredicateError) -> PredicateNode {
        var parser = PredicateParser(format: format, tokens: PredicateLexer.tokens(format: format, arguments: arguments))
        let node = try parser.parseOr()
        guard case .end = parser.current.kind else {
            throw parser.unexpected(parser.current, expected: "AND, OR or the end of the format")
        }
        return node
    }

    private init(format: String, tokens: [PredicateToken]) {
        self.format = format
        self.tokens = tokens
    }

    // MARK: - Tokens

    private var current: PredicateToken { tokens[index] }

    private mutating func advance() {
        switch current.kind {
        case .end, .invalid: return
        default: index += 1
        }
    }

    private func error(_ message: String, _ token: PredicateToken) -> PHPredicateError {
        PHPredicateError(message: message, token: token.text, position: token.position, format: format)
    }

    private func unexpected(_ token: PredicateToken, expected: String) -> PHPredicateError {
        switch token.kind {
        case .invalid(let error): return error
        case .end: return error("unexpected end of format, expected \(expected)", token)
        case .keyword(let keyword) where keyword.isUnsupported:
            return error("\(keyword.rawValue) is not supported by PhotoKit fetches", token)
        case .percent: return error("'%%' is a literal percent sign, which is not valid here", token)
        default: return error("unexpected token, expected \(expected)", token)
        }
    }

    private mutating func expect(_ kind: PredicateToken.Kind, _ spelling: String) throws(PHPredicateError) {
        guard current.kind == kind else { throw unexpected(current, expected: spelling) }
        advance()
    }

    private mutating func enterNesting() throws(PHPredicateError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("format nests too deeply", current) }
    }

    private var atOr: Bool {
        current.kind == .keyword(.or) || current.kind == .symbol(.or)
    }

    private var atAnd: Bool {
        current.kind == .keyword(.and) || current.kind == .symbol(.and)
    }

    private var atNot: Bool {
        current.kind == .keyword(.not) || current.kind == .symbol(.not)
    }

    /// Whether the current token continues an operand or starts a comparison's operator.
    private var atOperatorOrBitwiseAnd: Bool {
        switch current.kind {
        case .symbol(let symbol): symbol.comparison != nil || symbol == .bitwiseAnd
        case .keyword(let keyword): keyword.comparison != nil || keyword == .matches
        default: false
        }
    }

    // MARK: - Predicates

    private mutating func parseOr() throws(PHPredicateError) -> PredicateNode {
        var items = [try parseAnd()]
        while atOr {
            advance()
            items.append(try parseAnd())
        }
        return items.count == 1 ? items[0] : .or(items)
    }

    private mutating func parseAnd() throws(PHPredicateError) -> PredicateNode {
        var items = [try parseNot()]
        while atAnd {
            advance()
            items.append(try parseNot())
        }
        return items.count == 1 ? items[0] : .and(items)
    }

    private mutating func parseNot() throws(PHPredicateError) -> PredicateNode {
        guard atNot else { return try parsePrimary() }
        advance()
        try enterNesting()
        defer { depth -= 1 }
        return .not(try parseNot())
    }

    private mutating func parsePrimary() throws(PHPredicateError) -> PredicateNode {
        switch current.kind {
        case .keyword(.truePredicate):
            advance()
            return .constant(true)
        case .keyword(.falsePredicate):
            advance()
            return .constant(false)
        case .leftParen:
            let start = index
            let groupError: PHPredicateError
            do throws(PHPredicateError) {
                advance()
                try enterNesting()
                defer { depth -= 1 }
                let inner = try parseOr()
                try expect(.rightParen, "')'")
                guard atOperatorOrBitwiseAnd else { return inner }
                groupError = unexpected(current, expected: "AND, OR or ')'")
            } catch {
                groupError = error
            }
            index = start
            do throws(PHPredicateError) {
                return .comparison(try parseComparison())
            } catch {
                throw error.position > groupError.position ? error : groupError
            }
        default:
            return .comparison(try parseComparison())
        }
    }

    private mutating func parseComparison() throws(PHPredicateError) -> PredicateComparison {
        let lhs = try parseOperand()
        let operatorToken = current
        let op: PredicateOperator
        switch operatorToken.kind {
        case .symbol(let symbol) where symbol.comparison != nil:
            op = symbol.comparison!
        case .keyword(let keyword) where keyword.comparison != nil:
            op = keyword.comparison!
        default:
            throw unexpected(operatorToken, expected: "a comparison operator")
        }
        advance()
        let options = try parseOptions()
        let rhs = try parseOperand()
        if op == .between {
            let count: Int? =
                switch rhs {
                case .aggregate(let items): items.count
                case .value(.array(let items)): items.count
                case .value: 0
                case .key, .bitwiseAnd: nil
                }
            if let count, count != 2 {
                throw error("BETWEEN expects an aggregate of two values, got \(count)", operatorToken)
            }
        }
        return PredicateComparison(lhs: lhs, op: op, rhs: rhs, options: options, position: operatorToken.position)
    }

    /// `[c]`, `[d]`, `[cd]` after an operator.
    private mutating func parseOptions() throws(PHPredicateError) -> PredicateStringOptions {
        guard current.kind == .leftBracket else { return [] }
        advance()
        let token = current
        guard case .key(let letters) = token.kind, !letters.isEmpty else {
            throw unexpected(token, expected: "string options such as 'cd'")
        }
        var options: PredicateStringOptions = []
        for letter in letters.lowercased() {
            switch letter {
            case "c": options.insert(.caseInsensitive)
            case "d": options.insert(.diacriticInsensitive)
            default: throw error("unknown string option, expected c or d", token)
            }
        }
        advance()
        try expect(.rightBracket, "']'")
        return options
    }

    // MARK: - Operands

    private mutating func parseOperand() throws(PHPredicateError) -> PredicateOperand {
        var operand = try parseTerm()
        while current.kind == .symbol(.bitwiseAnd) {
            advance()
            operand = .bitwiseAnd(operand, try parseTerm())
        }
        return operand
    }

    private mutating func parseTerm() throws(PHPredicateError) -> PredicateOperand {
        let token = current
        switch token.kind {
        case .value(let value):
            advance()
            return .value(value)
        case .key(let key):
            advance()
            if current.kind == .leftParen {
                throw error("functions are not supported by PhotoKit fetches", token)
            }
            return .key(key, position: token.position)
        case .keyword(.self):
            advance()
            return .key("SELF", position: token.position)
        case .keyword(.yes), .keyword(.true):
            advance()
            return .value(.bool(true))
        case .keyword(.no), .keyword(.false):
            advance()
            return .value(.bool(false))
        case .keyword(.nil), .keyword(.null):
            advance()
            return .value(.null)
        case .keyword(.cast):
            return try parseCast()
        case .leftParen:
            advance()
            try enterNesting()
            defer { depth -= 1 }
            let inner = try parseOperand()
            try expect(.rightParen, "')'")
            return inner
        case .leftBrace:
            advance()
            try enterNesting()
            defer { depth -= 1 }
            var items: [PredicateOperand] = []
            if current.kind != .rightBrace {
                items.append(try parseOperand())
                while current.kind == .comma {
                    advance()
                    items.append(try parseOperand())
                }
            }
            try expect(.rightBrace, "',' or '}'")
            return .aggregate(items)
        default:
            throw unexpected(token, expected: "an operand")
        }
    }

    /// `CAST(number, "NSDate")`: a date, as seconds since 1 January 2001 (how Apple's
    /// `predicateFormat` writes dates, and how ``PredicateNode/description`` does).
    private mutating func parseCast() throws(PHPredicateError) -> PredicateOperand {
        advance()
        try expect(.leftParen, "'('")
        let seconds: Double
        switch current.kind {
        case .value(.int(let value)): seconds = Double(value)
        case .value(.double(let value)): seconds = value
        default: throw unexpected(current, expected: "a number of seconds since 2001")
        }
        advance()
        try expect(.comma, "','")
        guard case .value(.string(let type)) = current.kind else {
            throw unexpected(current, expected: "\"NSDate\"")
        }
        guard type == "NSDate" else {
            throw error("CAST to \(type) is not supported by PhotoKit fetches", current)
        }
        advance()
        try expect(.rightParen, "')'")
        return .value(.date(Date(timeIntervalSinceReferenceDate: seconds)))
    }
}
