import Foundation
@testable import Photos
import Testing

@Suite("Predicate format errors")
struct PredicateErrorTests {
    typealias F = PredicateFixtures

    /// Expects parsing `format` to fail at `token`, found at its `occurrence`th appearance
    /// (Character offset), with a message containing `message`.
    private func expectError(
        _ format: String, _ arguments: [Any] = [], token: String, occurrence: Int = 1, message: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var searchStart = format.startIndex
        var position = -1
        for _ in 0..<occurrence {
            guard let range = format.range(of: token, range: searchStart..<format.endIndex) else { break }
            position = format.distance(from: format.startIndex, to: range.lowerBound)
            searchStart = range.upperBound
        }
        if token.isEmpty { position = format.count }
        do {
            let node = try PredicateParser.parse(format: format, arguments: arguments)
            Issue.record("parsed \(format) as \(node)", sourceLocation: sourceLocation)
        } catch {
            #expect(error.token == token, sourceLocation: sourceLocation)
            #expect(error.position == position, sourceLocation: sourceLocation)
            #expect(error.format == format, sourceLocation: sourceLocation)
            #expect(error.message.contains(message), "\(error.message)", sourceLocation: sourceLocation)
        }
    }

    @Test("The description names the token, its position and the format")
    func description() {
        let error = F.error("mediaType == 1)")
        #expect(error?.description == #"unexpected token, expected AND, OR or the end of the format: ')' at position 14 in "mediaType == 1)""#)
    }

    @Test("Unexpected tokens")
    func unexpectedTokens() {
        expectError("mediaType == 1)", token: ")", message: "unexpected token")
        expectError("mediaType == 1 title == 2", token: "title", message: "expected AND, OR")
        expectError("mediaType 1", token: "1", message: "expected a comparison operator")
        expectError("mediaType == == 1", token: "==", occurrence: 2, message: "expected an operand")
        expectError("== 1", token: "==", message: "expected an operand")
        expectError("a == 1 AND", token: "", message: "unexpected end of format")
        expectError("mediaType ==", token: "", message: "unexpected end of format")
        expectError("", token: "", message: "unexpected end of format")
        expectError("   ", token: "", message: "unexpected end of format")
        expectError("(a == 1", token: "", message: "unexpected end of format")
        expectError("a IN {1, 2", token: "", message: "expected ',' or '}'")
        expectError("a IN {1 2}", token: "2", message: "expected ',' or '}'")
        expectError("a IN {1,}", token: "}", message: "expected an operand")
        expectError("a == 1 AND ()", token: ")", message: "expected an operand")
        expectError("a ==[c 'x'", token: "'x'", message: "expected ']'")
        expectError("a ==[] 'x'", token: "]", message: "string options")
        expectError("TRUEPREDICATE == 1", token: "==", message: "expected AND, OR")
        expectError("a == 1 ; b == 2", token: ";", message: "unexpected character")
        expectError("a == 1 AND NOT", token: "", message: "unexpected end of format")
    }

    @Test("When both readings of '(' fail, the error further into the format wins")
    func backtrackingReportsTheFurthestError() {
        expectError("(a == 1) == 2", token: "==", occurrence: 2, message: "expected AND, OR or ')'")
        expectError("(mediaSubtypes & 4) != ", token: "", message: "unexpected end of format")
        expectError("(a == )", token: ")", message: "expected an operand")
        expectError("((a & 1) AND b == 2)", token: "AND", message: "expected a comparison operator")
    }

    @Test("Unterminated strings, bad escapes and malformed numbers")
    func lexicalErrors() {
        expectError(#"title == "abc"#, token: "\"", message: "unterminated string")
        expectError("title == 'abc", token: "'", message: "unterminated string")
        expectError(#"title == "abc\"#, token: "\"", message: "unterminated string")
        expectError(#"title == "a\qb""#, token: #"\q"#, message: "unknown escape sequence")
        expectError(#"title == "a\u12""#, token: #"\u12"#, message: "malformed \\u escape")
        expectError("a == 12abc", token: "12abc", message: "malformed number")
        expectError("a == 1.2.3", token: "1.2.3", message: "malformed number")
        expectError("a == 0x", token: "0x", message: "malformed number")
        expectError("a == 0xZZ", token: "0xZZ", message: "malformed number")
        expectError("a == 99999999999999999999", token: "99999999999999999999", message: "number out of range")
        expectError("a == 0x8000000000000000", token: "0x8000000000000000", message: "number out of range")
        expectError("a == 1e999", token: "1e999", message: "number out of range")
        expectError("a == 5.", token: "5.", message: "malformed number")
        expectError("a == # ", token: "#", message: "expected a key after '#'")
    }

    @Test("Unknown operators are reported whole")
    func unknownOperators() {
        expectError(#"title =~ "x""#, token: "=~", message: "unknown operator")
        expectError("a ~ 1", token: "~", message: "unknown operator")
        expectError("a == 1 | b == 2", token: "|", message: "unknown operator")
        expectError("a ^ 1 == 2", token: "^", message: "unknown operator")
        expectError("a === 1", token: "=", occurrence: 3, message: "expected an operand")
    }

    @Test("String options other than c and d")
    func unknownOptions() {
        expectError("title ==[x] 'a'", token: "x", message: "unknown string option")
        expectError("title CONTAINS[cdx] 'a'", token: "cdx", message: "unknown string option")
    }

    @Test("BETWEEN needs exactly two values")
    func betweenArity() {
        expectError("a BETWEEN {1, 2, 3}", token: "BETWEEN", message: "two values, got 3")
        expectError("a BETWEEN {1}", token: "BETWEEN", message: "two values, got 1")
        expectError("a BETWEEN 5", token: "BETWEEN", message: "two values, got 0")
        expectError("a BETWEEN %@", [[1, 2, 3]], token: "BETWEEN", message: "two values, got 3")
        #expect(F.error("a BETWEEN %@", [1, 2]) == nil)
        #expect(F.error("a BETWEEN b") == nil)
    }

    @Test("Grammar PhotoKit fetches don't support")
    func unsupported() {
        let notSupported = "not supported by PhotoKit fetches"
        expectError("ANY keywords == 'x'", token: "ANY", message: "ANY is \(notSupported)")
        expectError("ALL keywords == 'x'", token: "ALL", message: notSupported)
        expectError("some keywords == 'x'", token: "some", message: "SOME is \(notSupported)")
        expectError("NONE keywords == 'x'", token: "NONE", message: notSupported)
        expectError("SUBQUERY(assets, $a, $a.x == 1).@count > 0", token: "SUBQUERY", message: notSupported)
        expectError("title MATCHES 'a.*'", token: "MATCHES", message: "MATCHES is \(notSupported)")
        expectError("FUNCTION(title, 'length') == 1", token: "FUNCTION", message: notSupported)
        expectError("title == $name", token: "$name", message: "variables are \(notSupported)")
        expectError("assets.@count > 1", token: "@count", message: "collection operators are \(notSupported)")
        expectError("lowercase(title) == 'a'", token: "lowercase", message: "functions are \(notSupported)")
        expectError("duration + 1 > 2", token: "+", message: "arithmetic is \(notSupported)")
        expectError("duration * 2 > 2", token: "*", message: "arithmetic is \(notSupported)")
        expectError("duration - 1 > 2", token: "-", message: "arithmetic is \(notSupported)")
        expectError(#"a == CAST(1, "NSNumber")"#, token: "\"NSNumber\"", message: "CAST to NSNumber is \(notSupported)")
        expectError("a == %%", token: "%%", message: "literal percent sign")
    }

    @Test("Format specifiers: missing arguments, wrong types, unsupported conversions")
    func specifiers() {
        expectError("mediaType == %d AND title == %@", [1], token: "%@", message: "missing argument for format specifier")
        expectError("mediaType == %d", token: "%d", message: "missing argument")
        expectError("%K == 1", token: "%K", message: "missing argument")
        expectError("mediaType == %d", ["image"], token: "%d", message: "argument 1 is String, %d expects an integer")
        expectError("a == %d AND b == %lld", [1, 2.5], token: "%lld", message: "argument 2 is Double, %lld expects an integer")
        expectError("duration < %f", ["long"], token: "%f", message: "argument 1 is String, %f expects a number")
        expectError("%K == 1", [5], token: "%K", message: "argument 1 is Int, %K expects a key path string")
        expectError("title == %s", [5], token: "%s", message: "expects a string")
        expectError("title == %@", [["a": 1]], token: "%@", message: "argument 1 is Dictionary<String, Int>")
        expectError("title IN %@", [[1, ["a": 1]] as [Any]], token: "%@", message: "argument 1 is Array<Any>")
        expectError("a == %c", ["x"], token: "%c", message: "unsupported format specifier")
        expectError("a == %5d", [1], token: "%5", message: "unsupported format specifier")
        expectError("a == %lK", ["x"], token: "%lK", message: "unsupported format specifier")
        expectError("a == %", token: "%", message: "unsupported format specifier")
        expectError("a == %d", [UInt64.max], token: "%d", message: "argument 1 is UInt64")
    }

    @Test("Nesting is bounded")
    func nestingDepth() {
        let deep = String(repeating: "(", count: 500) + "a == 1" + String(repeating: ")", count: 500)
        #expect(F.error(deep)?.message == "format nests too deeply")
        let nots = String(repeating: "NOT ", count: 500) + "a == 1"
        #expect(F.error(nots)?.message == "format nests too deeply")
        let braces = "a IN " + String(repeating: "{", count: 500) + String(repeating: "}", count: 500)
        #expect(F.error(braces)?.message == "format nests too deeply")
        let fine = String(repeating: "(", count: 50) + "a == 1" + String(repeating: ")", count: 50)
        #expect(F.error(fine) == nil)
    }

    @Test("Positions count Characters, not scalars or bytes")
    func positionsCountCharacters() {
        let format = "title == \"e\u{301}\u{1F1EB}\u{1F1F7}\" AND x =~ 1"
        let error = F.error(format)
        #expect(error?.token == "=~")
        #expect(error?.position == 20)
    }
}
