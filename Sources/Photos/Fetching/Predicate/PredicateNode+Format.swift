import Foundation

/// Prints a ``PredicateNode`` back to the predicate format grammar.
///
/// `PredicateParser.parse(format: node.description, arguments: [])` gives back `node` (key and
/// operator positions aside) for every tree the parser can produce, which the round-trip tests
/// check. A few values have no literal and print approximately: a date prints as
/// `CAST(<seconds since 2001>, "NSDate")` (Apple's spelling, which the parser reads back), an
/// argument array `.array` as an aggregate `{...}`, an `.object` as its quoted local
/// identifier, and a non-finite `Double` as Swift writes it (which doesn't parse).
extension PredicateNode: CustomStringConvertible {
    var description: String {
        switch self {
        case .constant(let value):
            return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .and(let items):
            return items.isEmpty ? "TRUEPREDICATE" : items.map(\.grouped).joined(separator: " AND ")
        case .or(let items):
            return items.isEmpty ? "FALSEPREDICATE" : items.map(\.grouped).joined(separator: " OR ")
        case .not(let inner):
            return "NOT " + inner.grouped
        case .comparison(let comparison):
            return comparison.description
        }
    }

    /// Parenthesised when compound, so it reads the same inside a larger predicate.
    private var grouped: String {
        switch self {
        case .and(let items) where items.count > 1: "(\(description))"
        case .or(let items) where items.count > 1: "(\(description))"
        default: description
        }
    }
}

extension PredicateComparison: CustomStringConvertible {
    var description: String {
        var options = ""
        if self.options.contains(.caseInsensitive) { options += "c" }
        if self.options.contains(.diacriticInsensitive) { options += "d" }
        if !options.isEmpty { options = "[\(options)]" }
        return "\(lhs) \(op.rawValue)\(options) \(rhs)"
    }
}

extension PredicateOperand: CustomStringConvertible {
    var description: String {
        switch self {
        case .key(let key, _):
            return key != "SELF" && PredicateKeyword(word: key) != nil ? "#" + key : key
        case .value(let value):
            return value.description
        case .bitwiseAnd(let lhs, let rhs):
            return "(\(lhs) & \(rhs))"
        case .aggregate(let items):
            return "{" + items.map(\.description).joined(separator: ", ") + "}"
        }
    }
}

extension PredicateValue: CustomStringConvertible {
    var description: String {
        switch self {
        case .null: "nil"
        case .bool(let value): value ? "YES" : "NO"
        case .int(let value): String(value)
        case .double(let value): "\(value)"
        case .string(let value): Self.quoted(value)
        case .date(let value): "CAST(\(value.timeIntervalSinceReferenceDate), \"NSDate\")"
        case .array(let items): "{" + items.map(\.description).joined(separator: ", ") + "}"
        case .object(let identifier): Self.quoted(identifier)
        }
    }

    /// A double-quoted string literal with `\`, `"` and control characters escaped.
    static func quoted(_ string: String) -> String {
        var out = String.UnicodeScalarView()
        out.append("\"")
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out.append(contentsOf: "\\\"".unicodeScalars)
            case "\\": out.append(contentsOf: "\\\\".unicodeScalars)
            case "\n": out.append(contentsOf: "\\n".unicodeScalars)
            case "\r": out.append(contentsOf: "\\r".unicodeScalars)
            case "\t": out.append(contentsOf: "\\t".unicodeScalars)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out.append(contentsOf: ("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).unicodeScalars)
                } else {
                    out.append(scalar)
                }
            }
        }
        out.append("\"")
        return String(out)
    }
}
