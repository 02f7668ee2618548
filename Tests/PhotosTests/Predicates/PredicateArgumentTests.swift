import Foundation
@testable import Photos
import Testing

/// Stand-ins for PhotoKit's integer-backed enums and option sets.
private enum TestMediaType: Int {
    case unknown = 0, image = 1, video = 2
}

private struct TestSubtypes: OptionSet {
    let rawValue: UInt
    static let panorama = TestSubtypes(rawValue: 1 << 0)
    static let hdr = TestSubtypes(rawValue: 1 << 1)
}

private enum TestStringEnum: String {
    case a
}

@Suite("Predicate format arguments")
struct PredicateArgumentTests {
    typealias F = PredicateFixtures

    /// The value `%@` substitutes for `argument`.
    private func substituted(_ argument: Any, as specifier: String = "%@") throws -> PredicateValue {
        let node = try F.parse("a == \(specifier)", argument)
        guard case .comparison(let comparison) = node, case .value(let value) = comparison.rhs else {
            throw PHPredicateError(message: "not a value", token: "", position: 0, format: "\(node)")
        }
        return value
    }

    @Test("Integers of every width become .int")
    func integers() throws {
        let arguments: [Any] = [
            42 as Int, 42 as Int8, 42 as Int16, 42 as Int32, 42 as Int64, 42 as UInt, 42 as UInt8, 42 as UInt16,
            42 as UInt32, 42 as UInt64,
        ]
        for argument in arguments {
            #expect(try substituted(argument) == .int(42), "\(type(of: argument))")
        }
        #expect(try substituted(Int64.min) == .int(.min))
        #expect(try substituted(-7 as Int8) == .int(-7))
        #expect(F.error("a == %@", UInt64.max) != nil)
    }

    @Test("Floating-point values become .double")
    func floats() throws {
        #expect(try substituted(2.5 as Double) == .double(2.5))
        #expect(try substituted(2.5 as Float) == .double(2.5))
        #expect(try substituted(2.5 as CGFloat) == .double(2.5))
    }

    @Test("Bool, strings, dates, nil")
    func scalars() throws {
        let date = Date(timeIntervalSince1970: 1_234_567)
        #expect(try substituted(true) == .bool(true))
        #expect(try substituted(false) == .bool(false))
        #expect(try substituted("x") == .string("x"))
        #expect(try substituted("abc".dropFirst()) == .string("bc"))
        #expect(try substituted(NSString(string: "ns")) == .string("ns"))
        #expect(try substituted(Character("é")) == .string("é"))
        #expect(try substituted(date) == .date(date))
        #expect(try substituted(NSDate(timeIntervalSince1970: 1_234_567)) == .date(date))
        #expect(try substituted(NSNull()) == .null)
        #expect(try substituted(String?.none as Any) == .null)
        #expect(try substituted(Int?.some(5) as Any) == .int(5))
        #expect(try substituted(Optional(Optional(5)) as Any) == .int(5))
        #expect(try substituted(Optional<Optional<Int>>.some(nil) as Any) == .null)
    }

    @Test("NSNumber becomes .bool, .int or .double by its objCType")
    func numbers() throws {
        #expect(try substituted(NSNumber(value: true)) == .bool(true))
        #expect(try substituted(NSNumber(value: false)) == .bool(false))
        #expect(try substituted(NSNumber(value: 1)) == .int(1))
        #expect(try substituted(NSNumber(value: 0)) == .int(0))
        #expect(try substituted(NSNumber(value: Int8(3))) == .int(3))
        #expect(try substituted(NSNumber(value: Int64.max)) == .int(.max))
        #expect(try substituted(NSNumber(value: UInt64(7))) == .int(7))
        #expect(try substituted(NSNumber(value: 1.5)) == .double(1.5))
        #expect(try substituted(NSNumber(value: Float(1.5))) == .double(1.5))
        #expect(F.error("a == %@", NSNumber(value: UInt64.max)) != nil)
    }

    @Test("Arrays, sets and fetch-result stand-ins become .array of converted elements")
    func collections() throws {
        #expect(try substituted(["a", "b"]) == .array([.string("a"), .string("b")]))
        #expect(try substituted([1, 2]) == .array([.int(1), .int(2)]))
        #expect(try substituted([1, "a", nil] as [Any?]) == .array([.int(1), .string("a"), .null]))
        #expect(try substituted([Int]()) == .array([]))
        #expect(try substituted(NSArray(array: [1, "x"])) == .array([.int(1), .string("x")]))
        #expect(try substituted(Set(["only"])) == .array([.string("only")]))
        #expect(try substituted(NSSet(array: [3])) == .array([.int(3)]))
        let set = try substituted(Set([1, 2, 3]))
        guard case .array(let items) = set else {
            Issue.record("not an array: \(set)")
            return
        }
        #expect(Set(items) == [.int(1), .int(2), .int(3)])
        let collection = PredicateTestCollection(predicateArrayElements: [PredicateTestIdentified(predicateLocalIdentifier: "A"), "B"])
        #expect(try substituted(collection) == .array([.object(localIdentifier: "A"), .string("B")]))
        #expect(try substituted([[1], [2]]) == .array([.array([.int(1)]), .array([.int(2)])]))
    }

    @Test("Objects become .object by local identifier; enums and option sets by raw value")
    func objectsAndRawValues() throws {
        #expect(try substituted(PredicateTestIdentified(predicateLocalIdentifier: "X/L0/001")) == .object(localIdentifier: "X/L0/001"))
        #expect(try substituted(TestMediaType.video) == .int(2))
        #expect(try substituted(TestSubtypes([.panorama, .hdr])) == .int(3))
        #expect(try substituted(TestMediaType.image, as: "%d") == .int(1))
        #expect(try substituted(TestSubtypes.hdr, as: "%lu") == .int(2))
        #expect(try substituted([TestMediaType.image, .video]) == .array([.int(1), .int(2)]))
        #expect(F.error("a == %@", TestStringEnum.a) != nil)
    }

    @Test(
        "Integer specifiers take integers, Booleans, NSNumbers and integer raw values",
        arguments: ["%d", "%i", "%ld", "%li", "%lld", "%lli", "%u", "%lu", "%llu", "%hd", "%qd", "%zd", "%x", "%X", "%o", "%D"])
    func integerSpecifiers(specifier: String) throws {
        #expect(try substituted(7, as: specifier) == .int(7))
        #expect(try substituted(Int32(-7), as: specifier) == .int(-7))
        #expect(try substituted(UInt64(7), as: specifier) == .int(7))
        #expect(try substituted(true, as: specifier) == .int(1))
        #expect(try substituted(NSNumber(value: 9), as: specifier) == .int(9))
        #expect(try substituted(NSNumber(value: true), as: specifier) == .int(1))
        #expect(try substituted(TestMediaType.video, as: specifier) == .int(2))
        #expect(try substituted(Int?.some(3) as Any, as: specifier) == .int(3))
        for wrong: Any in ["7", 7.5, NSNumber(value: 7.5), Int?.none as Any, Date(), [7]] {
            let error = F.error("a == \(specifier)", wrong)
            #expect(error?.token == specifier, "\(wrong)")
            #expect(error?.position == 5)
        }
    }

    @Test("Float specifiers take any number", arguments: ["%f", "%lf", "%g", "%e", "%G", "%Lf", "%a"])
    func floatSpecifiers(specifier: String) throws {
        #expect(try substituted(2.5, as: specifier) == .double(2.5))
        #expect(try substituted(Float(0.5), as: specifier) == .double(0.5))
        #expect(try substituted(3, as: specifier) == .double(3))
        #expect(try substituted(NSNumber(value: 4), as: specifier) == .double(4))
        #expect(try substituted(CGFloat(1.25), as: specifier) == .double(1.25))
        for wrong: Any in ["2.5", true, Date(), Double?.none as Any] {
            #expect(F.error("a == \(specifier)", wrong)?.token == specifier, "\(wrong)")
        }
    }

    @Test("%s takes strings and C strings; %K takes a key path string")
    func stringSpecifiers() throws {
        #expect(try substituted("plain", as: "%s") == .string("plain"))
        #expect(try substituted(NSString(string: "ns"), as: "%s") == .string("ns"))
        let fromPointer = "c string".withCString { pointer in try? substituted(pointer, as: "%s") }
        #expect(fromPointer == .string("c string"))
        #expect(try F.parseStructure("%K == 1", "creationDate") == F.comparison("creationDate", .equal, .int(1)))
        #expect(try F.parseStructure("%K == 1", "a.b"[...]) == F.comparison("a.b", .equal, .int(1)))
        #expect(try F.parseStructure("%K == 1", NSString(string: "title")) == F.comparison("title", .equal, .int(1)))
        #expect(try F.parseStructure("%K == 1", "self") == F.comparison("SELF", .equal, .int(1)))
        // A %K key may be a reserved word; it is never read as one.
        #expect(try F.parseStructure("%K == 1", "IN") == F.comparison("IN", .equal, .int(1)))
        #expect(F.error("%K == 1", 3)?.token == "%K")
        #expect(F.error("%K == 1", NSNumber(value: 3))?.token == "%K")
    }

    @Test("Arguments are consumed left to right; extras are ignored; quoted specifiers are text")
    func positionalConsumption() throws {
        #expect(
            try F.parseStructure("%K == %@ AND b == %d AND c < %f", "a", "x", 2, 3.5)
                == .and([
                    F.comparison("a", .equal, .string("x")), F.comparison("b", .equal, .int(2)),
                    F.comparison("c", .less, .double(3.5)),
                ]))
        #expect(try F.parseStructure("a == %d", 1, 2, 3) == F.comparison("a", .equal, .int(1)))
        #expect(
            try F.parseStructure("a == '%d' AND b == %d", 5)
                == .and([F.comparison("a", .equal, .string("%d")), F.comparison("b", .equal, .int(5))]))
        #expect(try F.parseStructure("a LIKE '100%%' OR b == %@", "x") == .or([F.comparison("a", .like, .string("100%%")), F.comparison("b", .equal, .string("x"))]))
        #expect(try PredicateParser.parse(format: "a == 1", arguments: []).withoutPositions == F.comparison("a", .equal, .int(1)))
    }
}
