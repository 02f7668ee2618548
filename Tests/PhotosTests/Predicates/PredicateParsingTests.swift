import Foundation
@testable import Photos
import Testing

@Suite("Predicate format parsing")
struct PredicateParsingTests {
    typealias F = PredicateFixtures

    @Test(
        "Comparison operators, in every spelling and case",
        arguments: [
            ("a == 1", PredicateOperator.equal), ("a = 1", .equal), ("a != 1", .notEqual),
            ("a <> 1", .notEqual), ("a < 1", .less), ("a <= 1", .lessOrEqual), ("a =< 1", .lessOrEqual),
            ("a > 1", .greater), ("a >= 1", .greaterOrEqual), ("a => 1", .greaterOrEqual),
            ("a IN 1", .in), ("a in 1", .in), ("a CONTAINS 1", .contains), ("a contains 1", .contains),
            ("a BEGINSWITH 1", .beginsWith), ("a BeginsWith 1", .beginsWith), ("a ENDSWITH 1", .endsWith),
            ("a endswith 1", .endsWith), ("a LIKE 1", .like), ("a like 1", .like), ("a==1", .equal),
            ("a<>1", .notEqual), ("a=>1", .greaterOrEqual),
        ])
    func comparisonOperators(format: String, op: PredicateOperator) throws {
        #expect(try F.parseStructure(format) == F.comparison("a", op, .int(1)))
    }

    @Test("BETWEEN takes an aggregate of two values", arguments: ["a BETWEEN {1, 2}", "a between {1,2}"])
    func between(format: String) throws {
        #expect(try F.parseStructure(format) == F.comparison(F.key("a"), .between, .aggregate([.value(.int(1)), .value(.int(2))])))
    }

    @Test(
        "String options after the operator",
        arguments: [
            ("[c]", PredicateStringOptions.caseInsensitive), ("[d]", .diacriticInsensitive),
            ("[cd]", [.caseInsensitive, .diacriticInsensitive]), ("[dc]", [.caseInsensitive, .diacriticInsensitive]),
            ("[C]", .caseInsensitive), ("", []),
        ] as [(String, PredicateStringOptions)])
    func stringOptions(options: String, expected: PredicateStringOptions) throws {
        for op in ["==", "!=", "<", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "IN"] {
            let node = try F.parse("title \(op)\(options) 'x'")
            guard case .comparison(let comparison) = node else {
                Issue.record("not a comparison: \(node)")
                continue
            }
            #expect(comparison.options == expected)
        }
    }

    @Test("NOT binds tighter than AND, which binds tighter than OR")
    func precedence() throws {
        let a = F.comparison("a", .equal, .int(1)), b = F.comparison("b", .equal, .int(2))
        let c = F.comparison("c", .equal, .int(3))
        #expect(try F.parseStructure("a == 1 OR b == 2 AND c == 3") == .or([a, .and([b, c])]))
        #expect(try F.parseStructure("a == 1 AND b == 2 OR c == 3") == .or([.and([a, b]), c]))
        #expect(try F.parseStructure("NOT a == 1 AND b == 2") == .and([.not(a), b]))
        #expect(try F.parseStructure("!a == 1 || b == 2 && c == 3") == .or([.not(a), .and([b, c])]))
        #expect(try F.parseStructure("(a == 1 OR b == 2) AND c == 3") == .and([.or([a, b]), c]))
        #expect(try F.parseStructure("NOT (a == 1 OR b == 2)") == .not(.or([a, b])))
        #expect(try F.parseStructure("NOT NOT a == 1") == .not(.not(a)))
        #expect(try F.parseStructure("a == 1 and b == 2 and c == 3") == .and([a, b, c]))
        #expect(try F.parseStructure("a == 1 or b == 2 or c == 3") == .or([a, b, c]))
        #expect(try F.parseStructure("a == 1 AND (b == 2 AND c == 3)") == .and([a, .and([b, c])]))
        #expect(try F.parseStructure("((a == 1))") == a)
        #expect(try F.parseStructure("a == 1&&!b == 2") == .and([a, .not(b)]))
    }

    @Test("TRUEPREDICATE and FALSEPREDICATE, in any case")
    func constants() throws {
        #expect(try F.parse("TRUEPREDICATE") == .constant(true))
        #expect(try F.parse("falsepredicate") == .constant(false))
        #expect(try F.parse("TRUEPREDICATE AND NOT FALSEPREDICATE") == .and([.constant(true), .not(.constant(false))]))
    }

    @Test(
        "Number literals",
        arguments: [
            ("42", PredicateValue.int(42)), ("-42", .int(-42)), ("0", .int(0)), ("0x1F", .int(31)),
            ("0X1f", .int(31)), ("-0x10", .int(-16)), ("0o17", .int(15)), ("0b101", .int(5)),
            ("9223372036854775807", .int(.max)), ("-9223372036854775808", .int(.min)),
            ("-0x8000000000000000", .int(.min)), ("1.5", .double(1.5)), ("-2.25", .double(-2.25)),
            ("1e3", .double(1000)), ("2.5E-2", .double(0.025)), ("1e+2", .double(100)), (".5", .double(0.5)),
            ("-.5", .double(-0.5)), ("5.0", .double(5)),
        ])
    func numbers(literal: String, expected: PredicateValue) throws {
        #expect(try F.parseStructure("a == \(literal)") == F.comparison("a", .equal, expected))
    }

    @Test(
        "String literals, with either quote and backslash escapes",
        arguments: [
            (#"'single'"#, "single"), (#""double""#, "double"), (#""a\"b""#, "a\"b"), (#"'it\'s'"#, "it's"),
            (#""back\\slash""#, "back\\slash"), (#""line\nbreak\ttab\rret""#, "line\nbreak\ttab\rret"),
            (#""\u00e9t\u00E9""#, "été"), (#"'say "hi"'"#, "say \"hi\""), (#""it's""#, "it's"),
            (#"'%@ %d %K'"#, "%@ %d %K"), (#"'%%'"#, "%%"), (#""""#, ""), ("\"\u{301}x\"", "\u{301}x"),
            ("\"e\u{301}\u{1F600}\"", "e\u{301}\u{1F600}"), (#""\a\b\f\v\0""#, "\u{07}\u{08}\u{0C}\u{0B}\0"),
        ])
    func strings(literal: String, expected: String) throws {
        #expect(try F.parseStructure("a == \(literal)") == F.comparison("a", .equal, .string(expected)))
    }

    @Test(
        "Boolean and nil literals, in any case",
        arguments: [
            ("YES", PredicateValue.bool(true)), ("yes", .bool(true)), ("TRUE", .bool(true)), ("true", .bool(true)),
            ("NO", .bool(false)), ("no", .bool(false)), ("FALSE", .bool(false)), ("False", .bool(false)),
            ("NIL", .null), ("nil", .null), ("NULL", .null), ("null", .null),
        ])
    func keywordsAsValues(literal: String, expected: PredicateValue) throws {
        #expect(try F.parseStructure("a == \(literal)") == F.comparison("a", .equal, expected))
    }

    @Test("Aggregates hold operands, nest, and may be empty")
    func aggregates() throws {
        let values: [PredicateOperand] = [.value(.int(1)), .value(.int(2)), .value(.int(3))]
        #expect(try F.parseStructure("a IN {1, 2, 3}") == F.comparison(F.key("a"), .in, .aggregate(values)))
        #expect(try F.parseStructure("a IN {}") == F.comparison(F.key("a"), .in, .aggregate([])))
        #expect(
            try F.parseStructure("a IN {'x', nil, YES, b, {1}}")
                == F.comparison(
                    F.key("a"), .in,
                    .aggregate([
                        .value(.string("x")), .value(.null), .value(.bool(true)), F.key("b"),
                        .aggregate([.value(.int(1))]),
                    ])))
    }

    @Test("Key paths: plain, dotted, SELF, #-escaped, Unicode")
    func keys() throws {
        #expect(try F.parseStructure("a.b.c == 1") == F.comparison("a.b.c", .equal, .int(1)))
        #expect(try F.parseStructure("SELF == 1") == F.comparison("SELF", .equal, .int(1)))
        #expect(try F.parseStructure("self == 1") == F.comparison("SELF", .equal, .int(1)))
        #expect(try F.parseStructure("SELF.title == 1") == F.comparison("title", .equal, .int(1)))
        #expect(try F.parseStructure("#IN == 1") == F.comparison("IN", .equal, .int(1)))
        #expect(try F.parseStructure("#size.x == 1") == F.comparison("size.x", .equal, .int(1)))
        #expect(try F.parseStructure("größe == 1") == F.comparison("größe", .equal, .int(1)))
        #expect(try F.parseStructure("_private2 == 1") == F.comparison("_private2", .equal, .int(1)))
        #expect(try F.parseStructure("1 == a") == F.comparison(.value(.int(1)), .equal, F.key("a")))
        #expect(try F.parseStructure("a == b") == F.comparison(F.key("a"), .equal, F.key("b")))
    }

    @Test("Bitwise and, parenthesised or not")
    func bitwiseAnd() throws {
        let masked = PredicateOperand.bitwiseAnd(F.key("mediaSubtypes"), .value(.int(4)))
        let expected = F.comparison(masked, .notEqual, .value(.int(0)))
        #expect(try F.parseStructure("(mediaSubtypes & 4) != 0") == expected)
        #expect(try F.parseStructure("mediaSubtypes & 4 != 0") == expected)
        #expect(try F.parseStructure("(mediaSubtypes & %d) != 0", 4) == expected)
        #expect(try F.parseStructure("((mediaSubtypes & 4) != 0)") == expected)
        #expect(try F.parseStructure("((mediaSubtypes & 4)) != 0") == expected)
        #expect(try F.parseStructure("((mediaSubtypes) & (4)) != 0") == expected)
        #expect(try F.parseStructure("0 != (mediaSubtypes & 4)") == F.comparison(.value(.int(0)), .notEqual, masked))
        #expect(try F.parseStructure("NOT (mediaSubtypes & 4) == 0") == .not(F.comparison(masked, .equal, .value(.int(0)))))
        #expect(
            try F.parseStructure("a & 1 & 2 == 0")
                == F.comparison(.bitwiseAnd(.bitwiseAnd(F.key("a"), .value(.int(1))), .value(.int(2))), .equal, .value(.int(0))))
        #expect(
            try F.parseStructure("(mediaSubtypes & 4) != 0 AND ((a == 1))")
                == .and([expected, F.comparison("a", .equal, .int(1))]))
    }

    @Test("CAST(seconds, \"NSDate\") is a date since 2001, as Apple writes dates")
    func castDate() throws {
        #expect(
            try F.parseStructure(#"creationDate > CAST(626000000.5, "NSDate")"#)
                == F.comparison("creationDate", .greater, .date(Date(timeIntervalSinceReferenceDate: 626_000_000.5))))
        #expect(
            try F.parseStructure("creationDate > cast(0, 'NSDate')")
                == F.comparison("creationDate", .greater, .date(Date(timeIntervalSinceReferenceDate: 0))))
    }

    @Test("Positions are Character offsets into the format")
    func positions() throws {
        let format = "title == \"e\u{301}x\"\r\nAND mediaType >= %d"
        guard case .and(let items) = try F.parse(format, 1), items.count == 2,
            case .comparison(let first) = items[0], case .comparison(let second) = items[1]
        else {
            Issue.record("unexpected tree")
            return
        }
        #expect(first.lhs == .key("title", position: 0))
        #expect(first.position == 6)
        // `é` (two scalars) and `\r\n` count as one Character each.
        #expect(second.lhs == .key("mediaType", position: 18))
        #expect(second.position == 28)
    }

    @Test("Formats PhotoKit clients write")
    func clientFormats() throws {
        let date1 = Date(timeIntervalSince1970: 1_600_000_000), date2 = Date(timeIntervalSince1970: 1_700_000_000)
        #expect(try F.parseStructure("mediaType = %i", 1) == F.comparison("mediaType", .equal, .int(1)))
        #expect(try F.parseStructure("mediaType != %i", 2) == F.comparison("mediaType", .notEqual, .int(2)))
        #expect(
            try F.parseStructure("(mediaSubtypes & %d) != 0", 8)
                == F.comparison(.bitwiseAnd(F.key("mediaSubtypes"), .value(.int(8))), .notEqual, .value(.int(0))))
        #expect(try F.parseStructure("duration < %f", 30.5) == F.comparison("duration", .less, .double(30.5)))
        #expect(
            try F.parseStructure("localIdentifier IN %@", ["A/L0/001", "B/L0/001"])
                == F.comparison("localIdentifier", .in, .array([.string("A/L0/001"), .string("B/L0/001")])))
        #expect(
            try F.parseStructure("creationDate > %@ OR modificationDate > %@", date1, date2)
                == .or([F.comparison("creationDate", .greater, .date(date1)), F.comparison("modificationDate", .greater, .date(date2))]))
        #expect(
            try F.parseStructure("creationDate <= %@ && modificationDate <= %@", date1, date2)
                == .and([
                    F.comparison("creationDate", .lessOrEqual, .date(date1)),
                    F.comparison("modificationDate", .lessOrEqual, .date(date2)),
                ]))
        #expect(try F.parseStructure("localizedTitle = %@", "Trip") == F.comparison("localizedTitle", .equal, .string("Trip")))
        #expect(
            try F.parseStructure("title BEGINSWITH[cd] %@", "Été")
                == F.comparison("title", .beginsWith, .string("Été"), [.caseInsensitive, .diacriticInsensitive]))
        #expect(try F.parseStructure("favorite == YES") == F.comparison("favorite", .equal, .bool(true)))
        #expect(try F.parseStructure("isHidden == NO") == F.comparison("isHidden", .equal, .bool(false)))
        #expect(try F.parseStructure("burstIdentifier != nil") == F.comparison("burstIdentifier", .notEqual, .null))
        #expect(
            try F.parseStructure("pixelWidth BETWEEN {100, 2000}")
                == F.comparison(F.key("pixelWidth"), .between, .aggregate([.value(.int(100)), .value(.int(2000))])))
        #expect(
            try F.parseStructure("mediaType IN {1, 2}")
                == F.comparison(F.key("mediaType"), .in, .aggregate([.value(.int(1)), .value(.int(2))])))
        #expect(try F.parseStructure("NOT (isFavorite == YES)") == .not(F.comparison("isFavorite", .equal, .bool(true))))
        #expect(try F.parseStructure("%K == %@", "title", "Trip") == F.comparison("title", .equal, .string("Trip")))
    }
}
