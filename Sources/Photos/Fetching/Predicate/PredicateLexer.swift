/// Splits a predicate format into tokens and binds format specifiers to their arguments.
///
/// The lexer reads Unicode scalars, so a string literal may start with a combining mark, and
/// reports positions as `Character` offsets from the start of the format. It never throws: a
/// malformed token becomes a final `.invalid` token, so errors surface in the order the parser
/// reaches them. Arguments are consumed left to right, one per specifier (none for `%%`);
/// specifiers inside quoted strings are literal text, as in Apple's grammar.
struct PredicateLexer {
    private let format: String
    private let scalars: [Unicode.Scalar]
    /// `characterOffsets[i]` is the `Character` offset of scalar `i`; one extra entry for the end.
    private let characterOffsets: [Int]
    private var arguments: PredicateArgumentList
    private var index = 0

    init(format: String, arguments: [Any]) {
        self.format = format
        var scalars: [Unicode.Scalar] = []
        var offsets: [Int] = []
        var characterCount = 0
        for character in format {
            for scalar in character.unicodeScalars {
                scalars.append(scalar)
                offsets.append(characterCount)
            }
            characterCount += 1
        }
        offsets.append(characterCount)
        self.scalars = scalars
        self.characterOffsets = offsets
        self.arguments = PredicateArgumentList(arguments)
    }

    /// All tokens, ending with `.end` or with the first `.invalid` token.
    static func tokens(format: String, arguments: [Any]) -> [PredicateToken] {
        var lexer = PredicateLexer(format: format, arguments: arguments)
        var tokens: [PredicateToken] = []
        while true {
            let token = lexer.next()
            tokens.append(token)
            switch token.kind {
            case .end, .invalid: return tokens
            default: continue
            }
        }
    }

    // MARK: - Scanning

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private func peek(_ offset: Int = 1) -> Unicode.Scalar? {
        index + offset < scalars.count ? scalars[index + offset] : nil
    }

    private func text(from start: Int) -> String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<index])
        return String(view)
    }

    private func token(_ kind: PredicateToken.Kind, from start: Int) -> PredicateToken {
        PredicateToken(kind: kind, text: text(from: start), position: characterOffsets[start])
    }

    private func invalid(_ message: String, token: String, at start: Int) -> PredicateToken {
        let error = PHPredicateError(
            message: message, token: token, position: characterOffsets[start], format: format)
        return PredicateToken(kind: .invalid(error), text: token, position: characterOffsets[start])
    }

    private mutating func next() -> PredicateToken {
        while let scalar = current, scalar.properties.isWhitespace { index += 1 }
        let start = index
        guard let scalar = current else {
            return PredicateToken(kind: .end, text: "", position: characterOffsets[index])
        }
        switch scalar {
        case "(": index += 1; return token(.leftParen, from: start)
        case ")": index += 1; return token(.rightParen, from: start)
        case "{": index += 1; return token(.leftBrace, from: start)
        case "}": index += 1; return token(.rightBrace, from: start)
        case "[": index += 1; return token(.leftBracket, from: start)
        case "]": index += 1; return token(.rightBracket, from: start)
        case ",": index += 1; return token(.comma, from: start)
        case "\"", "'": return quotedString()
        case "%": return formatSpecifier()
        case "#": return escapedKey()
        case "$":
            index += 1
            while let next = current, Self.isIdentifierPart(next) { index += 1 }
            return invalid("variables are not supported by PhotoKit fetches", token: text(from: start), at: start)
        case "@":
            return collectionOperator()
        case "." where peek() == "@":
            // `assets.@count`
            index += 1
            return collectionOperator()
        case "-" where peek().map(Self.isDigit) == true || (peek() == "." && peek(2).map(Self.isDigit) == true):
            return number()
        case "-", "+", "*", "/":
            index += 1
            return invalid("arithmetic is not supported by PhotoKit fetches", token: text(from: start), at: start)
        default:
            if Self.isDigit(scalar) || (scalar == "." && peek().map(Self.isDigit) == true) { return number() }
            if Self.isIdentifierStart(scalar) { return word() }
            if Self.operatorScalars.contains(scalar) { return symbol() }
            index += 1
            return invalid("unexpected character", token: text(from: start), at: start)
        }
    }

    private mutating func collectionOperator() -> PredicateToken {
        let start = index
        index += 1
        while let next = current, Self.isIdentifierPart(next) { index += 1 }
        return invalid("collection operators are not supported by PhotoKit fetches", token: text(from: start), at: start)
    }

    // MARK: - Words and keys

    static func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

    static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isAlphabetic
    }

    static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        isIdentifierStart(scalar) || scalar.properties.numericType != nil
    }

    /// Reads `name` or `name.name...`.
    private mutating func keyPath() {
        while true {
            while let next = current, Self.isIdentifierPart(next) { index += 1 }
            guard current == ".", let after = peek(), Self.isIdentifierStart(after) else { return }
            index += 1
        }
    }

    private mutating func word() -> PredicateToken {
        let start = index
        keyPath()
        let word = text(from: start)
        if let keyword = PredicateKeyword(word: word) { return token(.keyword(keyword), from: start) }
        return token(.key(Self.normalizedKey(word)), from: start)
    }

    /// `#name` names a key even when `name` is a reserved word.
    private mutating func escapedKey() -> PredicateToken {
        let start = index
        index += 1
        guard let next = current, Self.isIdentifierStart(next) else {
            return invalid("expected a key after '#'", token: "#", at: start)
        }
        keyPath()
        return token(.key(String(text(from: start).dropFirst())), from: start)
    }

    /// `SELF` in any case is `SELF`; `SELF.title` is `title`.
    static func normalizedKey(_ key: String) -> String {
        if key.uppercased() == "SELF" { return "SELF" }
        if let dot = key.firstIndex(of: "."), key[..<dot].uppercased() == "SELF" {
            return String(key[key.index(after: dot)...])
        }
        return key
    }

    // MARK: - Symbols

    private static let operatorScalars: Set<Unicode.Scalar> = ["=", "!", "<", ">", "&", "|", "~", "^"]
    private static let symbolsByLength = PredicateSymbol.allCases.sorted { $0.rawValue.count > $1.rawValue.count }

    /// A run of operator characters, split into known symbols by longest match (`&&!` is `&&`
    /// then `!`); a run that can't be split is an unknown operator, reported whole (`=~`).
    private mutating func symbol() -> PredicateToken {
        let start = index
        var end = index
        while end < scalars.count, Self.operatorScalars.contains(scalars[end]) { end += 1 }
        var run = String.UnicodeScalarView()
        run.append(contentsOf: scalars[start..<end])
        var rest = Substring(String(run))
        var parts: [PredicateSymbol] = []
        while !rest.isEmpty {
            guard let symbol = Self.symbolsByLength.first(where: { rest.hasPrefix($0.rawValue) }) else {
                index = end
                return invalid("unknown operator", token: String(run), at: start)
            }
            parts.append(symbol)
            rest = rest.dropFirst(symbol.rawValue.count)
        }
        index += parts[0].rawValue.unicodeScalars.count
        return token(.symbol(parts[0]), from: start)
    }

    // MARK: - Numbers

    private mutating func number() -> PredicateToken {
        let start = index
        if current == "-" { index += 1 }
        let digitsStart = index
        if current == "0", let radixMark = peek(), let radix = ["x": 16, "X": 16, "o": 8, "O": 8, "b": 2, "B": 2][radixMark] {
            index += 2
            let bodyStart = index
            while let next = current, Self.isIdentifierPart(next) { index += 1 }
            let body = text(from: bodyStart)
            guard !body.isEmpty, let magnitude = UInt64(body, radix: radix) else {
                return invalid("malformed number", token: text(from: start), at: start)
            }
            let negative = digitsStart != start
            if negative ? magnitude > UInt64(Int64.max) + 1 : magnitude > UInt64(Int64.max) {
                return invalid("number out of range", token: text(from: start), at: start)
            }
            let value = negative ? Int64(truncatingIfNeeded: 0 &- magnitude) : Int64(magnitude)
            return token(.value(.int(value)), from: start)
        }
        var isFloat = false
        while let next = current, Self.isDigit(next) { index += 1 }
        if current == ".", peek().map(Self.isDigit) == true {
            isFloat = true
            index += 1
            while let next = current, Self.isDigit(next) { index += 1 }
        }
        if current == "e" || current == "E" {
            let sign = peek() == "+" || peek() == "-" ? 1 : 0
            if peek(1 + sign).map(Self.isDigit) == true {
                isFloat = true
                index += 1 + sign
                while let next = current, Self.isDigit(next) { index += 1 }
            }
        }
        if let next = current, Self.isIdentifierPart(next) || next == "." {
            while let next = current, Self.isIdentifierPart(next) || next == "." { index += 1 }
            return invalid("malformed number", token: text(from: start), at: start)
        }
        let literal = text(from: start)
        if isFloat {
            guard let value = Double(literal), value.isFinite else {
                return invalid("number out of range", token: literal, at: start)
            }
            return token(.value(.double(value)), from: start)
        }
        guard let value = Int64(literal) else {
            return invalid("number out of range", token: literal, at: start)
        }
        return token(.value(.int(value)), from: start)
    }

    // MARK: - Strings

    private static let escapes: [Unicode.Scalar: Unicode.Scalar] = [
        "n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", "'": "'", "\"": "\"",
        "a": "\u{07}", "b": "\u{08}", "f": "\u{0C}", "v": "\u{0B}",
    ]

    private mutating func quotedString() -> PredicateToken {
        let start = index
        let quote = scalars[index]
        index += 1
        var value = String.UnicodeScalarView()
        while let scalar = current {
            if scalar == quote {
                index += 1
                return token(.value(.string(String(value))), from: start)
            }
            guard scalar == "\\" else {
                value.append(scalar)
                index += 1
                continue
            }
            let escapeStart = index
            index += 1
            guard let escaped = current else { break }
            index += 1
            if let replacement = Self.escapes[escaped] {
                value.append(replacement)
            } else if escaped == "u" {
                let hexStart = index
                while index < scalars.count, index - hexStart < 4, scalars[index].properties.isASCIIHexDigit { index += 1 }
                guard index - hexStart == 4, let code = UInt32(text(from: hexStart), radix: 16),
                    let decoded = Unicode.Scalar(code)
                else {
                    return invalid("malformed \\u escape", token: text(from: escapeStart), at: escapeStart)
                }
                value.append(decoded)
            } else {
                return invalid("unknown escape sequence", token: text(from: escapeStart), at: escapeStart)
            }
        }
        index = scalars.count
        return invalid("unterminated string", token: String(quote), at: start)
    }

    // MARK: - Format specifiers

    private mutating func formatSpecifier() -> PredicateToken {
        let start = index
        index += 1
        if current == "%" {
            index += 1
            return token(.percent, from: start)
        }
        var modifier = ""
        while let next = current, "hlqLztj".unicodeScalars.contains(next), modifier.count < 2 {
            modifier.unicodeScalars.append(next)
            index += 1
        }
        guard let conversion = current else {
            return invalid("unsupported format specifier", token: text(from: start), at: start)
        }
        index += 1
        let written = text(from: start)
        guard let specifier = PredicateFormatSpecifier(modifier: modifier, conversion: conversion) else {
            return invalid("unsupported format specifier", token: written, at: start)
        }
        let position = characterOffsets[start]
        switch arguments.bind(specifier, written: written, position: position, format: format) {
        case .success(.key(let key)): return token(.key(Self.normalizedKey(key)), from: start)
        case .success(.value(let value)): return token(.value(value), from: start)
        case .failure(let error): return PredicateToken(kind: .invalid(error), text: written, position: position)
        }
    }
}
