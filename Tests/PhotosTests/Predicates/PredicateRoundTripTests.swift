import Foundation
@testable import Photos
import PhotosTestSupport
import Testing

/// Random predicate trees of the shapes the parser produces, and random objects to test them on.
private struct PredicateTreeGenerator {
    var rng: SeededGenerator

    /// `size` is a reserved word (printed `#size`); `missing` is on no object.
    static let keys = ["mediaType", "duration", "title", "creationDate", "isFavorite", "burstIdentifier", "mediaSubtypes", "SELF", "size", "a.b", "missing"]
    static let pieces = ["a", "B", "é", "e\u{301}", "\u{301}", "\"", "'", "\\", "\n", "\t", "\u{7}", "%", "%@", "*", "?", " ", "😀", "ß", "Z", "0"]
    static let operators: [PredicateOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual, .between, .in, .contains, .beginsWith, .endsWith, .like]

    mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &rng) < probability
    }

    mutating func pick<T>(_ items: [T]) -> T {
        items.randomElement(using: &rng)!
    }

    mutating func string() -> String {
        (0..<Int.random(in: 0...5, using: &rng)).map { _ in pick(Self.pieces) }.joined()
    }

    mutating func double() -> Double {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: Double(Int.random(in: -20...20, using: &rng)) / 4
        case 1: Double.random(in: -1e6...1e6, using: &rng)
        case 2: pick([0.0, -0.0, 1e-5, 1e20, -2.5e-300, Double.leastNonzeroMagnitude, .greatestFiniteMagnitude])
        default: Double(Int.random(in: 0...5, using: &rng))
        }
    }

    mutating func value() -> PredicateValue {
        switch Int.random(in: 0..<9, using: &rng) {
        case 0: .null
        case 1: .bool(chance(0.5))
        case 2: .int(pick([Int64.min, Int64.max, -1, 0x7FFF_FFFF]))
        case 3, 4: .int(Int64.random(in: -3...20, using: &rng))
        case 5: .double(double())
        case 6: .date(Date(timeIntervalSinceReferenceDate: chance(0.5) ? Double(Int.random(in: -5...5, using: &rng)) : double()))
        default: .string(string())
        }
    }

    mutating func operand(depth: Int) -> PredicateOperand {
        let roll = Int.random(in: 0..<10, using: &rng)
        if depth > 0 && roll == 0 { return .bitwiseAnd(operand(depth: depth - 1), operand(depth: depth - 1)) }
        if depth > 0 && roll == 1 { return .aggregate((0..<Int.random(in: 0...3, using: &rng)).map { _ in operand(depth: depth - 1) }) }
        return roll < 6 ? .key(pick(Self.keys), position: 0) : .value(value())
    }

    mutating func comparison() -> PredicateNode {
        let op = pick(Self.operators)
        var options: PredicateStringOptions = []
        if chance(0.3) { options.insert(.caseInsensitive) }
        if chance(0.3) { options.insert(.diacriticInsensitive) }
        let rhs: PredicateOperand = op == .between ? .aggregate([operand(depth: 1), operand(depth: 1)]) : operand(depth: 2)
        return .comparison(PredicateComparison(lhs: operand(depth: 2), op: op, rhs: rhs, options: options, position: 0))
    }

    mutating func tree(depth: Int) -> PredicateNode {
        if depth == 0 || chance(0.35) {
            return chance(0.05) ? .constant(chance(0.5)) : comparison()
        }
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return .and((0..<Int.random(in: 2...3, using: &rng)).map { _ in tree(depth: depth - 1) })
        case 1: return .or((0..<Int.random(in: 2...3, using: &rng)).map { _ in tree(depth: depth - 1) })
        default: return .not(tree(depth: depth - 1))
        }
    }

    mutating func object() -> PredicateTestObject {
        var values: [String: PredicateValue] = [:]
        for key in Self.keys where key != "missing" && !chance(0.1) {
            values[key] =
                switch key {
                case "mediaType", "mediaSubtypes", "size": chance(0.1) ? .null : .int(Int64.random(in: -3...20, using: &rng))
                case "duration": .double(double())
                case "creationDate": chance(0.2) ? .null : .date(Date(timeIntervalSinceReferenceDate: Double(Int.random(in: -5...5, using: &rng))))
                case "isFavorite": .bool(chance(0.5))
                case "SELF": .object(localIdentifier: string())
                default: chance(0.2) ? .null : .string(string())
                }
        }
        return PredicateTestObject(values)
    }
}

@Suite("Predicate round trips and laws")
struct PredicateRoundTripTests {
    @Test("Random trees print, parse back to the same tree, and evaluate the same", arguments: [1, 2, 3])
    func roundTrip(seed: UInt64) throws {
        var generator = PredicateTreeGenerator(rng: SeededGenerator(seed: seed))
        let objects = (0..<12).map { _ in generator.object() }
        for _ in 0..<1_000 {
            let tree = generator.tree(depth: 4)
            let format = tree.description
            let parsed = try PredicateParser.parse(format: format, arguments: [])
            #expect(parsed.withoutPositions == tree, "\(format)")
            #expect(parsed.description == format)
            let predicate = NSPredicate(format: format)
            for object in objects {
                let expected = PredicateEvaluator.evaluate(tree, on: object)
                #expect(PredicateEvaluator.evaluate(parsed, on: object) == expected, "\(format) on \(object.values)")
                #expect(predicate.evaluate(with: object) == expected, "\(format)")
            }
        }
    }

    @Test("Comparison laws hold for random values", arguments: [7, 8])
    func comparisonLaws(seed: UInt64) {
        var generator = PredicateTreeGenerator(rng: SeededGenerator(seed: seed))
        let empty = PredicateTestObject([:])
        func holds(_ lhs: PredicateValue, _ op: PredicateOperator, _ rhs: PredicateValue, _ options: PredicateStringOptions = []) -> Bool {
            PredicateEvaluator.evaluate(.comparison(PredicateComparison(lhs: .value(lhs), op: op, rhs: .value(rhs), options: options)), on: empty)
        }
        for _ in 0..<3_000 {
            let a = generator.value(), b = generator.value(), c = generator.value()
            let options: PredicateStringOptions = generator.chance(0.5) ? [] : [.caseInsensitive, .diacriticInsensitive]
            let context = Comment("\(a) \(b) \(c) options \(options.rawValue)")
            // Equality is reflexive and symmetric, and != is its negation.
            #expect(holds(a, .equal, a, options), context)
            #expect(holds(a, .notEqual, b, options) == !holds(a, .equal, b, options), context)
            #expect(holds(a, .equal, b, options) == holds(b, .equal, a, options), context)
            // Orderings are antisymmetric and mirror each other.
            #expect(!(holds(a, .less, b, options) && holds(b, .less, a, options)), context)
            #expect(holds(a, .less, b, options) == holds(b, .greater, a, options), context)
            #expect(holds(a, .lessOrEqual, b, options) == holds(b, .greaterOrEqual, a, options), context)
            #expect(!holds(a, .less, b, options) || holds(a, .lessOrEqual, b, options), context)
            if a.isNull || b.isNull {
                #expect(!holds(a, .less, b) && !holds(a, .lessOrEqual, b) && !holds(a, .greater, b), context)
                #expect(holds(a, .equal, b) == (a.isNull && b.isNull), context)
            }
            if !a.isText && !b.isText {
                // For non-strings, <= is < or == (strings differ: == is canonical, <= is bytes).
                #expect(holds(a, .lessOrEqual, b) == (holds(a, .less, b) || (holds(a, .equal, b) && !a.isNull)), context)
            }
            // BETWEEN, IN and collection CONTAINS reduce to the comparisons.
            #expect(holds(a, .between, .array([b, c]), options) == (holds(a, .greaterOrEqual, b, options) && holds(a, .lessOrEqual, c, options)), context)
            #expect(holds(a, .in, .array([b, c]), options) == (holds(a, .equal, b, options) || holds(a, .equal, c, options)), context)
            #expect(holds(.array([b, c]), .contains, a, options) == holds(a, .in, .array([b, c]), options), context)
            // Substring tests, on strings whose concatenation doesn't merge Characters.
            if case .string(let dirtyS) = a, case .string(let dirtyT) = b {
                let s = dirtyS.filter { $0 != "*" && $0 != "?" }, t = dirtyT.filter { $0 != "*" && $0 != "?" }
                // Skip strings whose concatenation merges Characters, or whose folding doesn't
                // distribute over concatenation (Foundation folds a lone leading combining mark
                // differently from one that follows a control character).
                func fold(_ string: String) -> String { PredicateText.fold(string, options) }
                guard (s + t).count == s.count + t.count, (t + s + t).count == 2 * t.count + s.count,
                    fold(t + s + t) == fold(t) + fold(s) + fold(t), fold(s + t) == fold(s) + fold(t)
                else { continue }
                #expect(holds(.string(s + t), .beginsWith, .string(s), options), context)
                #expect(holds(.string(t + s), .endsWith, .string(s), options), context)
                #expect(holds(.string(t + s + t), .contains, .string(s), options), context)
                #expect(holds(.string(s), .in, .string(t + s + t), options), context)
                #expect(holds(.string(s), .like, .string(s)), context)
                #expect(holds(.string(s + t), .like, .string(s + "*")), context)
                #expect(holds(.string(s + t), .like, .string("*" + t)), context)
                #expect(holds(.string(s), .like, .string(String(repeating: "?", count: s.count))), context)
                #expect(!holds(.string(s), .like, .string(String(repeating: "?", count: s.count + 1))), context)
                #expect(holds(.string(s + t), .lessOrEqual, .string(s + t + "a")), context)
                #expect(holds(.string(s), .less, .string(s + "a")), context)
            }
        }
    }
}

extension PredicateValue {
    fileprivate var isNull: Bool { self == .null }
    fileprivate var isNaN: Bool {
        if case .double(let value) = self { return value.isNaN }
        return false
    }
    fileprivate var isText: Bool {
        switch self {
        case .string, .object: true
        default: false
        }
    }
}
