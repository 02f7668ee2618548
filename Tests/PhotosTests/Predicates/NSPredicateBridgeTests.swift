import Foundation
@testable import Photos
import Testing

@Suite("NSPredicate format bridge")
struct NSPredicateBridgeTests {
    typealias F = PredicateFixtures

    private let favorite = PredicateTestObject(["mediaType": .int(1), "isFavorite": .bool(true), "title": .string("Trip")])
    private let plain = PredicateTestObject(["mediaType": .int(2), "isFavorite": .bool(false), "title": .string("Home")])

    @Test("init(format:) keeps the parsed tree, recoverable from the predicate")
    func formatPredicates() throws {
        let predicate = NSPredicate(format: "mediaType == %d AND title BEGINSWITH[c] %@", 1, "tr")
        #expect(try predicate.photosPredicateNode() == F.parse("mediaType == %d AND title BEGINSWITH[c] %@", 1, "tr"))
        #expect(
            try NSPredicate(format: "mediaType IN %@", argumentArray: [[1, 2]]).photosPredicateNode().withoutPositions
                == F.comparison("mediaType", .in, .array([.int(1), .int(2)])))
        #expect(try NSPredicate(format: "TRUEPREDICATE", argumentArray: nil).photosPredicateNode() == .constant(true))
        #expect(try NSPredicate(format: "mediaType == 1").photosPredicateNode().withoutPositions == F.comparison("mediaType", .equal, .int(1)))
    }

    @Test("Apple's spellings compile: raw values, enums, arrays, dates")
    func appleSpellings() throws {
        enum MediaType: Int { case image = 1 }
        let p1 = NSPredicate(format: "mediaType == %d", MediaType.image.rawValue)
        let p2 = NSPredicate(format: "mediaType == %d", MediaType.image)
        let p3 = NSPredicate(format: "localIdentifier IN %@", ["A", "B"])
        let p4 = NSPredicate(format: "creationDate > %@", Date() as NSDate)
        #expect(try p1.photosPredicateNode() == p2.photosPredicateNode())
        #expect(try p3.photosPredicateNode().withoutPositions == F.comparison("localIdentifier", .in, .array([.string("A"), .string("B")])))
        #expect(p1.evaluate(with: favorite))
        #expect(!p4.evaluate(with: favorite))
    }

    @Test("init(validatingFormat:) throws the parse error")
    func validatingFormat() throws {
        #expect(throws: PHPredicateError(message: "unknown operator", token: "=~", position: 6, format: "title =~ 'x'")) {
            try NSPredicate(validatingFormat: "title =~ 'x'")
        }
        #expect(throws: PHPredicateError.self) { try NSPredicate(validatingFormat: "a == %@") }
        #expect(throws: PHPredicateError.self) { try NSPredicate(validatingFormat: "a == %d", argumentArray: ["x"]) }
        let valid = try NSPredicate(validatingFormat: "title == %@", "Trip")
        #expect(valid.evaluate(with: favorite))
        let validArray = try NSPredicate(validatingFormat: "mediaType IN %@", argumentArray: [[2]])
        #expect(validArray.evaluate(with: plain))
        do {
            _ = try NSPredicate(validatingFormat: "mediaType == 1 AND", argumentArray: nil)
            Issue.record("did not throw")
        } catch {
            #expect(error.position == 18)
            #expect(error.message.hasPrefix("unexpected end of format"))
        }
    }

    @Test("A malformed format stops the process, as Apple's exception would")
    func malformedFormatTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = NSPredicate(format: "mediaType == ")
        }
        let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(message.contains(#"unexpected end of format, expected an operand: '' at position 13 in "mediaType == ""#))
        await #expect(processExitsWith: .failure) {
            _ = NSPredicate(format: "mediaType == %d", "image")
        }
    }

    @Test("evaluate(with:) on evaluable objects, dictionaries, identified objects and anything else")
    func evaluateWith() {
        let predicate = NSPredicate(format: "mediaType == 1 AND isFavorite == YES")
        #expect(predicate.evaluate(with: favorite))
        #expect(!predicate.evaluate(with: plain))
        #expect(predicate.evaluate(with: ["mediaType": 1, "isFavorite": true] as [String: Any]))
        #expect(!predicate.evaluate(with: ["mediaType": 1] as [String: Any]))
        #expect(!predicate.evaluate(with: nil))
        #expect(!predicate.evaluate(with: "a string"))
        #expect(NSPredicate(format: "NOT mediaType == 1").evaluate(with: nil))
        #expect(NSPredicate(format: "TRUEPREDICATE").evaluate(with: 42))
        let me = PredicateTestIdentified(predicateLocalIdentifier: "X")
        #expect(NSPredicate(format: "SELF == %@", "X").evaluate(with: me))
        #expect(!NSPredicate(format: "SELF == %@", "Y").evaluate(with: me))
        #expect(NSPredicate(format: "title == 'Trip'").evaluate(with: Optional(favorite) as Any))
        let filtered = NSArray(array: [favorite, plain]).filtered(using: NSPredicate(format: "mediaType == 2"))
        #expect(filtered.count == 1)
        #expect((filtered.first as? PredicateTestObject)?.values["title"] == .string("Home"))
    }

    @Test("Value predicates and compound predicates become trees")
    func valueAndCompound() throws {
        let a = NSPredicate(format: "mediaType == 1"), b = NSPredicate(format: "isFavorite == YES")
        let aNode = try a.photosPredicateNode(), bNode = try b.photosPredicateNode()
        #expect(try NSPredicate(value: true).photosPredicateNode() == .constant(true))
        #expect(try NSPredicate(value: false).photosPredicateNode() == .constant(false))
        #expect(try NSCompoundPredicate(andPredicateWithSubpredicates: [a, b]).photosPredicateNode() == .and([aNode, bNode]))
        #expect(try NSCompoundPredicate(orPredicateWithSubpredicates: [a, b]).photosPredicateNode() == .or([aNode, bNode]))
        #expect(try NSCompoundPredicate(notPredicateWithSubpredicate: a).photosPredicateNode() == .not(aNode))
        #expect(try NSCompoundPredicate(andPredicateWithSubpredicates: []).photosPredicateNode() == .and([]))
        #expect(try NSCompoundPredicate(orPredicateWithSubpredicates: []).photosPredicateNode() == .or([]))
        let nested = NSCompoundPredicate(andPredicateWithSubpredicates: [
            NSCompoundPredicate(notPredicateWithSubpredicate: NSPredicate(value: false)),
            NSCompoundPredicate(orPredicateWithSubpredicates: [a, NSPredicate(value: true)]),
        ])
        #expect(try nested.photosPredicateNode() == .and([.not(.constant(false)), .or([aNode, .constant(true)])]))
        // corelibs evaluates compounds through our subpredicates' blocks.
        #expect(nested.evaluate(with: favorite))
        #expect(NSCompoundPredicate(andPredicateWithSubpredicates: [a, b]).evaluate(with: favorite))
        #expect(!NSCompoundPredicate(andPredicateWithSubpredicates: [a, b]).evaluate(with: plain))
        // Copies keep the tree.
        let copy = try #require(a.copy() as? NSPredicate)
        #expect(try copy.photosPredicateNode() == aNode)
        #expect(a.photosPredicateFormat == "mediaType == 1")
        #expect(NSPredicate(value: true).photosPredicateFormat == "TRUEPREDICATE")
    }

    @Test("Block predicates are rejected, however they evaluate")
    func blockPredicates() {
        for result in [true, false] {
            let block = NSPredicate { _, _ in result }
            #expect(throws: PHPredicateError.self) { try block.photosPredicateNode() }
            let inCompound = NSCompoundPredicate(andPredicateWithSubpredicates: [NSPredicate(format: "a == 1"), block])
            do {
                _ = try inCompound.photosPredicateNode()
                Issue.record("block predicate accepted")
            } catch {
                #expect(error.message == "block predicates are not supported by PhotoKit fetches")
            }
            #expect(block.photosPredicateFormat == nil)
        }
    }
}
