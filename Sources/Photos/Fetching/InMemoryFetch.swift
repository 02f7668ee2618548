import Foundation
import PhotosStore

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
        if let last = options.sortKeys.last {
            let indexed = result.enumerated().map { ($0.offset, $0.element) }
            result = indexed.sorted { lhs, rhs in
                for key in options.sortKeys {
                    let a = (lhs.1 as? any PredicateEvaluable)?.predicateValue(forKey: key.key) ?? .null
                    let b = (rhs.1 as? any PredicateEvaluable)?.predicateValue(forKey: key.key) ?? .null
                    let order = PredicateValue.sortOrder(a, b)
                    if order != .orderedSame { return key.ascending ? order == .orderedAscending : order == .orderedDescending }
                }
                // Ties keep the objects' order in the last key's direction, as the store's
                // row-id tiebreaker does (``OrderTerm/order(sort:natural:id:)``).
                return last.ascending ? lhs.0 < rhs.0 : lhs.0 > rhs.0
            }.map(\.1)
        }
        if options.fetchLimit > 0 && result.count > options.fetchLimit {
            result = Array(result.prefix(options.fetchLimit))
        }
        return result
    }
}

extension PredicateValue {
    /// The order SQLite's `ORDER BY` gives, so objects held in memory sort as the store's
    /// rows do (the store's own rule, ``StoreValue/orderByComparison(_:_:)``).
    static func sortOrder(_ a: PredicateValue, _ b: PredicateValue) -> ComparisonResult {
        switch StoreValue.orderByComparison(a.sortValue, b.sortValue) {
        case ..<0: .orderedAscending
        case 0: .orderedSame
        default: .orderedDescending
        }
    }

    /// The value as the store would hold it. Arrays never sort: sort keys are scalar fields.
    private var sortValue: StoreValue {
        switch self {
        case .null, .array: .null
        case .bool(let value): .integer(value ? 1 : 0)
        case .int(let value): .integer(Int64(value))
        case .double(let value): .real(value)
        case .date(let value): .real(value.timeIntervalSince1970)
        case .string(let value), .object(let value): .text(value)
        }
    }
}
