import Foundation

/// Filtering and sorting objects held in memory, with the same rules the store uses.
enum InMemoryFetch {
    static func apply<T: PHObject>(_ options: ResolvedFetchOptions, to objects: [T]) -> [T] {
        var result = objects
        if let predicate = options.predicate {
            result = result.filter { object in
                guard let evaluable = object as? any PredicateEvaluable else { return false }
                return evaluate(predicate, on: evaluable)
            }
        }
        if !options.sortKeys.isEmpty {
            let indexed = result.enumerated().map { ($0.offset, $0.element) }
            result = indexed.sorted { lhs, rhs in
                for key in options.sortKeys {
                    let a = (lhs.1 as? any PredicateEvaluable)?.predicateValue(forKey: key.key) ?? .null
                    let b = (rhs.1 as? any PredicateEvaluable)?.predicateValue(forKey: key.key) ?? .null
                    let order = PredicateValue.sortOrder(a, b)
                    if order != .orderedSame { return key.ascending ? order == .orderedAscending : order == .orderedDescending }
                }
                return lhs.0 < rhs.0
            }.map(\.1)
        }
        if options.fetchLimit > 0 && result.count > options.fetchLimit {
            result = Array(result.prefix(options.fetchLimit))
        }
        return result
    }
}

extension PredicateValue {
    /// The order SQLite's `ORDER BY` gives: missing values first, then numbers (and dates),
    /// then strings in binary (UTF-8) order.
    static func sortOrder(_ a: PredicateValue, _ b: PredicateValue) -> ComparisonResult {
        func rank(_ value: PredicateValue) -> Int {
            switch value {
            case .null: 0
            case .bool, .int, .double, .date: 1
            case .string, .object: 2
            case .array: 3
            }
        }
        let ra = rank(a), rb = rank(b)
        if ra != rb { return ra < rb ? .orderedAscending : .orderedDescending }
        switch (a.number, b.number, a.text, b.text) {
        case (let x?, let y?, _, _):
            return x == y ? .orderedSame : (x < y ? .orderedAscending : .orderedDescending)
        case (_, _, let x?, let y?):
            let lhs = Array(x.utf8), rhs = Array(y.utf8)
            return lhs == rhs ? .orderedSame : (lhs.lexicographicallyPrecedes(rhs) ? .orderedAscending : .orderedDescending)
        default:
            return .orderedSame
        }
    }

    var number: Double? {
        switch self {
        case .bool(let value): value ? 1 : 0
        case .int(let value): Double(value)
        case .double(let value): value
        case .date(let value): value.timeIntervalSince1970
        default: nil
        }
    }

    var text: String? {
        switch self {
        case .string(let value), .object(let value): value
        default: nil
        }
    }
}
