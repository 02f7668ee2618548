import Foundation
@testable import Photos
import Testing

@Suite("Predicate evaluation semantics")
struct PredicateEvaluationTests {
    typealias F = PredicateFixtures

    /// A photo-like object used by most tests.
    static let asset: [String: PredicateValue] = [
        "mediaType": .int(1),
        "mediaSubtypes": .int(0b1010),
        "duration": .double(12.5),
        "pixelWidth": .int(4032),
        "isFavorite": .bool(true),
        "isHidden": .bool(false),
        "title": .string("Été à Paris"),
        "creationDate": .date(Date(timeIntervalSince1970: 1_600_000_000)),
        "modificationDate": .null,
        "burstIdentifier": .null,
        "SELF": .object(localIdentifier: "AAA/L0/001"),
    ]

    private func check(_ format: String, _ arguments: Any..., on values: [String: PredicateValue] = asset) throws -> Bool {
        let node = try PredicateParser.parse(format: format, arguments: arguments)
        return PredicateEvaluator.evaluate(node, on: PredicateTestObject(values))
    }

    @Test("A key the object doesn't have makes its comparison false, whatever the operator")
    func unknownKeys() throws {
        for op in ["==", "!=", "<", "<=", ">", ">=", "CONTAINS", "BEGINSWITH", "ENDSWITH", "LIKE", "IN"] {
            #expect(try !check("missing \(op) 1"), "\(op)")
            #expect(try !check("1 \(op) missing"), "\(op)")
        }
        #expect(try !check("missing == nil"))
        #expect(try check("NOT missing == 1"))
        #expect(try !check("missing BETWEEN {1, 2}"))
        #expect(try !check("mediaType IN {1, missing}"))
        #expect(try !check("(missing & 1) == nil"))
        #expect(try check("missing == 1 OR mediaType == 1"))
    }

    @Test("nil: nil == nil, nil != value, and no ordering with nil")
    func nilSemantics() throws {
        #expect(try check("burstIdentifier == nil"))
        #expect(try check("nil == burstIdentifier"))
        #expect(try !check("burstIdentifier != nil"))
        #expect(try check("title != nil"))
        #expect(try !check("title == nil"))
        #expect(try check("burstIdentifier != 5"))
        #expect(try check("5 != nil"))
        #expect(try !check("5 == nil"))
        for op in ["<", "<=", ">", ">="] {
            #expect(try !check("5 \(op) nil"), "\(op)")
            #expect(try !check("nil \(op) 5"), "\(op)")
            #expect(try !check("nil \(op) nil"), "\(op)")
            #expect(try check("NOT burstIdentifier \(op) 5"), "\(op)")
        }
        #expect(try !check("burstIdentifier BETWEEN {nil, nil}"))
        #expect(try check("burstIdentifier IN {1, nil}"))
        #expect(try !check("burstIdentifier IN {1, 2}"))
    }

    @Test("Numbers compare by value across .int, .double and .bool")
    func numbers() throws {
        #expect(try check("mediaType == 1.0"))
        #expect(try check("mediaType == YES"))
        #expect(try check("isFavorite == 1"))
        #expect(try check("isHidden == 0"))
        #expect(try check("isHidden < isFavorite"))
        #expect(try check("duration > 12"))
        #expect(try check("duration < 13"))
        #expect(try check("duration >= 12.5 AND duration <= 12.5"))
        #expect(try !check("duration == 12"))
        #expect(try check("pixelWidth > 4031.5"))
        #expect(try check("mediaType != 2"))
        #expect(try check("-1 < 0 AND 0x10 == 16"))
        let big = PredicateTestObject(["n": .int(Int64.max)])
        #expect(PredicateEvaluator.evaluate(try F.parse("n > %lld", Int64.max - 1), on: big))
        #expect(!PredicateEvaluator.evaluate(try F.parse("n == %lld", Int64.max - 1), on: big))
        let nan = PredicateTestObject(["x": .double(.nan)])
        #expect(!PredicateEvaluator.evaluate(try F.parse("x == x"), on: nan))
        #expect(PredicateEvaluator.evaluate(try F.parse("x != x"), on: nan))
        #expect(!PredicateEvaluator.evaluate(try F.parse("x < 1 OR x >= 1"), on: nan))
    }

    @Test("Dates compare as dates, and with numbers as seconds since 1970")
    func dates() throws {
        let before = Date(timeIntervalSince1970: 1_599_999_999), same = Date(timeIntervalSince1970: 1_600_000_000)
        #expect(try check("creationDate > %@", before))
        #expect(try check("creationDate == %@", same))
        #expect(try check("creationDate <= %@ && creationDate >= %@", same, same))
        #expect(try !check("creationDate < %@", same))
        #expect(try check("creationDate == 1600000000"))
        #expect(try check("creationDate > %f", 1_599_999_999.5))
        #expect(try check("creationDate < 1600000000.25"))
        #expect(try check(#"creationDate == CAST(621692800, "NSDate")"#))
        #expect(try !check("creationDate == 'x'"))
        #expect(try check("creationDate != 'x'"))
        #expect(try !check("modificationDate > %@", before))
    }

    @Test("Strings: == compares bytes (as NSString and SQL do), orderings are UTF-8 byte order")
    func strings() throws {
        #expect(try check("title == 'Été à Paris'"))
        // Canonically equivalent but differently encoded spellings are not equal, as with
        // NSString's isEqual: and SQLite's IS.
        #expect(try !check("title == %@", "E\u{301}te\u{301} a\u{300} Paris"))
        #expect(try !check("title == 'été à paris'"))
        let words = PredicateTestObject(["w": .string("B")])
        #expect(PredicateEvaluator.evaluate(try F.parse("w > 'A' AND w < 'a'"), on: words))  // "B" (0x42) < "a" (0x61)
        #expect(PredicateEvaluator.evaluate(try F.parse("w < 'É'"), on: words))  // 0x42 < 0xC3
        #expect(PredicateEvaluator.evaluate(try F.parse("'Z' < 'a' AND 'a' < 'ab' AND '' < 'a'"), on: words))
        #expect(PredicateEvaluator.evaluate(try F.parse("w <= 'B' AND w >= 'B'"), on: words))
        #expect(!PredicateEvaluator.evaluate(try F.parse("w < 1 OR w > 1 OR w == 1"), on: words))
        #expect(PredicateEvaluator.evaluate(try F.parse("w != 1"), on: words))
    }

    @Test("[c] and [d] fold both sides; no effect on other values")
    func options() throws {
        #expect(try check("title ==[c] 'ÉTÉ À PARIS'"))
        #expect(try !check("title ==[c] 'ete a paris'"))
        #expect(try check("title ==[d] 'Ete a Paris'"))
        #expect(try !check("title ==[d] 'ete a paris'"))
        #expect(try check("title ==[cd] 'ETE A PARIS'"))
        #expect(try check("title !=[c] 'ete a paris'"))
        #expect(try check("title CONTAINS[cd] 'A PAR'"))
        #expect(try !check("title CONTAINS 'A PAR'"))
        #expect(try check("title BEGINSWITH[c] 'été'"))
        #expect(try check("title ENDSWITH[cd] 'PARIS'"))
        #expect(try check("title LIKE[cd] 'ete*'"))
        #expect(try check("title IN[c] {'x', 'été à paris'}"))
        #expect(try check("'b' <[c] 'A'") == false)
        #expect(try check("'B' >[c] 'a'"))
        #expect(try check("mediaType ==[cd] 1"))
    }

    @Test("CONTAINS, BEGINSWITH, ENDSWITH on strings")
    func substrings() throws {
        #expect(try check("title CONTAINS 'à P'"))
        #expect(try check("title CONTAINS ''"))
        #expect(try !check("title CONTAINS 'xyz'"))
        #expect(try check("title BEGINSWITH 'Été'"))
        #expect(try !check("title BEGINSWITH 'Paris'"))
        #expect(try check("title ENDSWITH 'Paris'"))
        #expect(try check("title BEGINSWITH ''"))
        #expect(try !check("mediaType CONTAINS 1"))
        #expect(try !check("title CONTAINS 1"))
        #expect(try !check("burstIdentifier BEGINSWITH ''"))
        #expect(try !check("title ENDSWITH nil"))
    }

    @Test("LIKE: * any run, ? one Character, whole string")
    func like() throws {
        #expect(try check("title LIKE 'Été*'"))
        #expect(try check("title LIKE '*Paris'"))
        #expect(try check("title LIKE '*à*'"))
        #expect(try check("title LIKE '?t? à Paris'"))
        #expect(try check("title LIKE '*'"))
        #expect(try !check("title LIKE 'Été'"))
        #expect(try !check("title LIKE '?'"))
        #expect(try !check("title LIKE 'Paris*'"))
        #expect(try check("'e\u{301}' LIKE '?'"))
        #expect(try check("'' LIKE '*'"))
        #expect(try !check("'' LIKE '?'"))
        #expect(try check("'a*b' LIKE 'a*b'"))
        #expect(try check("'aXYZb' LIKE 'a*b'"))
        #expect(try !check("'aXYZbc' LIKE 'a*b'"))
        #expect(try check("'abcabc' LIKE '*abc'"))
        #expect(try !check("mediaType LIKE '1'"))
    }

    @Test("IN and CONTAINS on collections use == semantics")
    func membership() throws {
        #expect(try check("mediaType IN {1, 2}"))
        #expect(try !check("mediaType IN {2, 3}"))
        #expect(try !check("mediaType IN {}"))
        #expect(try check("mediaType IN %@", [3, 1]))
        #expect(try check("mediaType IN {1.0}"))
        #expect(try check("isFavorite IN {YES}"))
        #expect(try check("{1, 2} CONTAINS mediaType"))
        #expect(try check("%@ CONTAINS mediaType", [1]))
        #expect(try !check("%@ CONTAINS mediaType", [2]))
        #expect(try check("NOT mediaType IN {2, 3}"))
        #expect(try check("'à P' IN title"))
        #expect(try !check("'x' IN title"))
        #expect(try !check("mediaType IN 1"))
        #expect(try check("title IN[cd] %@", ["ete a paris"]))
        #expect(try check("{1, {2, 3}} CONTAINS {2, 3}"))
    }

    @Test("BETWEEN is inclusive at both ends")
    func between() throws {
        #expect(try check("pixelWidth BETWEEN {100, 5000}"))
        #expect(try check("pixelWidth BETWEEN {4032, 4032}"))
        #expect(try check("pixelWidth BETWEEN %@", [4032, 5000]))
        #expect(try !check("pixelWidth BETWEEN {4033, 5000}"))
        #expect(try !check("pixelWidth BETWEEN {5000, 100}"))
        #expect(try check("duration BETWEEN {12.5, 13}"))
        #expect(try check("title BETWEEN {'A', 'ê'}"))
        #expect(try !check("title BETWEEN {'A', 'F'}"))  // 'É' is 0xC3 0x89, after 'F' in byte order
        #expect(try check("creationDate BETWEEN %@", [Date(timeIntervalSince1970: 0), Date()]))
        #expect(try !check("pixelWidth BETWEEN {nil, 5000}"))
        #expect(try !check("pixelWidth BETWEEN title"))
    }

    @Test("Bitwise and on integers")
    func bitwise() throws {
        #expect(try check("(mediaSubtypes & 2) != 0"))
        #expect(try check("(mediaSubtypes & 8) == 8"))
        #expect(try !check("(mediaSubtypes & 4) != 0"))
        #expect(try check("mediaSubtypes & 5 == 0"))
        #expect(try check("(mediaSubtypes & %d) != 0", 2))
        #expect(try check("(isFavorite & 1) == 1"))
        #expect(try check("(2.9 & 3) == 2"))
        #expect(try check("(-1 & mediaSubtypes) == mediaSubtypes"))
        #expect(try check("(title & 1) == nil"))
        #expect(try !check("(title & 1) == 0"))
        #expect(try check("(burstIdentifier & 1) == nil"))
    }

    @Test("SELF compares by local identifier, with objects or identifier strings")
    func selfComparisons() throws {
        let me = PredicateTestIdentified(predicateLocalIdentifier: "AAA/L0/001")
        let other = PredicateTestIdentified(predicateLocalIdentifier: "BBB/L0/001")
        #expect(try check("SELF == %@", me))
        #expect(try !check("SELF == %@", other))
        #expect(try check("SELF != %@", other))
        #expect(try check("SELF == %@", "AAA/L0/001"))
        #expect(try check("SELF IN %@", [other, me]))
        #expect(try check("SELF IN %@", ["BBB/L0/001", "AAA/L0/001"]))
        #expect(try check("SELF IN %@", PredicateTestCollection(predicateArrayElements: [me])))
        #expect(try !check("SELF IN %@", [other]))
        #expect(try !check("SELF == 1"))
        #expect(try check("SELF BEGINSWITH 'AAA'"))
        #expect(try check("SELF < %@", other))
    }

    @Test("Logic: constants, AND, OR, NOT, empty compounds")
    func logic() throws {
        #expect(try check("TRUEPREDICATE"))
        #expect(try !check("FALSEPREDICATE"))
        #expect(try check("mediaType == 1 AND isFavorite == YES"))
        #expect(try !check("mediaType == 1 AND isFavorite == NO"))
        #expect(try check("mediaType == 2 OR isFavorite == YES"))
        #expect(try !check("mediaType == 2 OR isFavorite == NO"))
        #expect(try check("NOT (mediaType == 2 OR isFavorite == NO)"))
        #expect(try check("NOT NOT mediaType == 1"))
        let object = PredicateTestObject([:])
        #expect(PredicateEvaluator.evaluate(.and([]), on: object))
        #expect(!PredicateEvaluator.evaluate(.or([]), on: object))
    }

    @Test("The module-level evaluate(_:on:) takes existentials, as in-memory fetches pass them")
    func freeFunction() throws {
        let object: any PredicateEvaluable = PredicateTestObject(Self.asset)
        #expect(Photos.evaluate(try F.parse("mediaType == 1"), on: object))
        #expect(!Photos.evaluate(try F.parse("mediaType == 2"), on: object))
    }

    @Test("Arrays compare element by element and are never ordered")
    func arrays() throws {
        #expect(try check("{1, 'a'} == {1.0, 'a'}"))
        #expect(try !check("{1, 2} == {1}"))
        #expect(try check("{1, 2} != {2, 1}"))
        #expect(try !check("{1} < {2}"))
        #expect(try !check("{1} == 1"))
    }
}
