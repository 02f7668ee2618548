public import Foundation

/// Apple's key-based `NSSortDescriptor` initialiser, and optional key paths, on Linux.
///
/// swift-corelibs-foundation has no key-value coding: `init(key:ascending:)` and `.key` are
/// unavailable there, and `init(keyPath:ascending:)` requires a `Comparable` value, which
/// `Date?` (`PHAsset.creationDate`) is not. This extension adds both spellings; fetches read the
/// key back with `photosSortKey(keyPathNames:)`.
///
/// Differences from Apple platforms:
/// - A key-based descriptor stores the key inside a key path on `NSObject`. Its
///   `compare(_:to:)` (and sorting arrays with it) reads the key from objects that are
///   `PredicateEvaluable` (`PHAsset`, `PHCollection`) in the order fetches use; other
///   `NSObject`s compare equal, and a value that isn't an `NSObject` traps in corelibs' cast.
/// - `.key` stays unavailable; `init(key:ascending:selector:)` is not offered, since `Selector`
///   doesn't exist without the Objective-C runtime.
extension NSSortDescriptor {
    /// A sort descriptor on the property `key`, such as `"creationDate"`, for PhotoKit fetch
    /// options. A `nil` key sorts by `SELF`, which fetches reject.
    public convenience init(key: String?, ascending: Bool) {
        self.init(keyPath: \NSObject.[photosSortKey: key ?? "SELF"], ascending: ascending)
    }

    /// A sort descriptor on an optional property such as `\PHAsset.creationDate`, ordering
    /// `nil` before every value (after, descending), as Apple platforms do. Linux addition:
    /// corelibs has this overload only internally.
    public convenience init<Root, Value: Comparable>(keyPath: KeyPath<Root, Value?>, ascending: Bool) {
        self.init(keyPath: keyPath, ascending: ascending, comparator: { lhs, rhs in
            switch (lhs as? Value, rhs as? Value) {
            case (nil, nil): .orderedSame
            case (nil, _): .orderedAscending
            case (_, nil): .orderedDescending
            case (let a?, let b?): a < b ? .orderedAscending : b < a ? .orderedDescending : .orderedSame
            }
        })
    }

    /// The fetch sort key this descriptor names: the key of `init(key:ascending:)`, or the name
    /// `keyPathNames` gives its key path (`[\PHAsset.creationDate: "creationDate", ...]`);
    /// `nil` for any other key path.
    func photosSortKey(keyPathNames: [AnyKeyPath: String]) -> SortKey? {
        let keyPath: AnyKeyPath = self.keyPath
        if let carried = keyPath as? KeyPath<NSObject, SortKeyValue> {
            return SortKey(key: NSObject()[keyPath: carried].key, ascending: ascending)
        }
        guard let name = keyPathNames[keyPath] else { return nil }
        return SortKey(key: name, ascending: ascending)
    }
}

/// One sort key of a fetch: a property name and a direction.
struct SortKey: Sendable, Hashable {
    var key: String
    var ascending: Bool
}

/// A key and, for a `PredicateEvaluable` object, its value: what a key-based sort descriptor's
/// key path yields.
///
/// Ordered as SQLite's `ORDER BY` orders the store's columns (and as in-memory fetches sort): a
/// missing key or `nil` first, then numbers and dates by value, then strings (and object
/// identifiers) in UTF-8 byte order, then arrays; values of one class that can't be ordered
/// (NaN, arrays) are equal.
struct SortKeyValue: Comparable {
    var key: String
    var value: PredicateValue?

    private static func rank(_ value: PredicateValue) -> Int {
        switch value {
        case .null: 0
        case .bool, .int, .double, .date: 1
        case .string, .object: 2
        case .array: 3
        }
    }

    static func order(_ lhs: PredicateValue, _ rhs: PredicateValue) -> ComparisonResult {
        let a = rank(lhs), b = rank(rhs)
        if a != b { return a < b ? .orderedAscending : .orderedDescending }
        return PredicateValue.order(lhs, rhs, options: []) ?? .orderedSame
    }

    static func < (lhs: SortKeyValue, rhs: SortKeyValue) -> Bool {
        order(lhs.value ?? .null, rhs.value ?? .null) == .orderedAscending
    }

    static func == (lhs: SortKeyValue, rhs: SortKeyValue) -> Bool {
        order(lhs.value ?? .null, rhs.value ?? .null) == .orderedSame
    }
}

extension NSObject {
    /// The key path a key-based `NSSortDescriptor` stores.
    subscript(photosSortKey key: String) -> SortKeyValue {
        SortKeyValue(key: key, value: (self as? any PredicateEvaluable)?.predicateValue(forKey: key))
    }
}
