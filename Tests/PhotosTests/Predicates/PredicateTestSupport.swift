import Foundation
@testable import Photos

/// A stand-in for `PHAsset` in predicate tests: a bag of keyed values.
struct PredicateTestObject: PredicateEvaluable {
    var values: [String: PredicateValue]

    init(_ values: [String: PredicateValue]) {
        self.values = values
    }

    func predicateValue(forKey key: String) -> PredicateValue? {
        values[key]
    }
}

/// A stand-in for a `PHObject` argument.
struct PredicateTestIdentified: PredicateObjectArgument {
    var predicateLocalIdentifier: String
}

/// A stand-in for a `PHFetchResult` argument.
struct PredicateTestCollection: PredicateArrayArgument {
    var predicateArrayElements: [Any]
}

enum PredicateFixtures {
    static func parse(_ format: String, _ arguments: Any...) throws -> PredicateNode {
        try PredicateParser.parse(format: format, arguments: arguments)
    }

    /// The tree with every key and operator position set to 0, for comparing structure.
    static func parseStructure(_ format: String, _ arguments: Any...) throws -> PredicateNode {
        try PredicateParser.parse(format: format, arguments: arguments).withoutPositions
    }

    /// The error parsing `format` throws, or `nil` if it parses.
    static func error(_ format: String, _ arguments: Any...) -> PHPredicateError? {
        do {
            _ = try PredicateParser.parse(format: format, arguments: arguments)
            return nil
        } catch {
            return error
        }
    }

    static func key(_ name: String) -> PredicateOperand {
        .key(name, position: 0)
    }

    static func comparison(
        _ lhs: PredicateOperand, _ op: PredicateOperator, _ rhs: PredicateOperand,
        _ options: PredicateStringOptions = []
    ) -> PredicateNode {
        .comparison(PredicateComparison(lhs: lhs, op: op, rhs: rhs, options: options, position: 0))
    }

    /// `key op value`, positions 0.
    static func comparison(
        _ key: String, _ op: PredicateOperator, _ value: PredicateValue, _ options: PredicateStringOptions = []
    ) -> PredicateNode {
        comparison(.key(key, position: 0), op, .value(value), options)
    }

    /// Evaluates `format` (with `arguments`) against an object with `values`.
    static func evaluate(_ format: String, _ arguments: Any..., on values: [String: PredicateValue]) throws -> Bool {
        let node = try PredicateParser.parse(format: format, arguments: arguments)
        return PredicateEvaluator.evaluate(node, on: PredicateTestObject(values))
    }
}

extension PredicateNode {
    var withoutPositions: PredicateNode {
        switch self {
        case .constant:
            return self
        case .and(let items):
            return .and(items.map(\.withoutPositions))
        case .or(let items):
            return .or(items.map(\.withoutPositions))
        case .not(let inner):
            return .not(inner.withoutPositions)
        case .comparison(var comparison):
            comparison.lhs = comparison.lhs.withoutPositions
            comparison.rhs = comparison.rhs.withoutPositions
            comparison.position = 0
            return .comparison(comparison)
        }
    }
}

extension PredicateOperand {
    var withoutPositions: PredicateOperand {
        switch self {
        case .key(let key, _): .key(key, position: 0)
        case .value: self
        case .bitwiseAnd(let lhs, let rhs): .bitwiseAnd(lhs.withoutPositions, rhs.withoutPositions)
        case .aggregate(let items): .aggregate(items.map(\.withoutPositions))
        }
    }
}
