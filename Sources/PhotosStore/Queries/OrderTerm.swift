import GRDB

/// One term of a query's `ORDER BY`.
package struct OrderTerm: Sendable, Hashable {
    package var sql: String
    package var ascending: Bool

    package init(_ sql: String, ascending: Bool = true) {
        self.sql = sql
        self.ascending = ascending
    }

    /// Sort descriptors then the row id (so the order is total), or the scope's natural order.
    static func order(sort: [StoreSort], natural: [OrderTerm], id: String) -> [OrderTerm] {
        if sort.isEmpty { return natural }
        return sort.map { OrderTerm($0.field.sql, ascending: $0.ascending) } + [OrderTerm(id)]
    }

    static func sql(_ terms: [OrderTerm]) -> String {
        terms.map { "\($0.sql) \($0.ascending ? "ASC" : "DESC")" }.joined(separator: ", ")
    }
}

/// A query whose result a change can be diffed against incrementally (see ``FetchDiffer``).
protocol DiffableQuery: Sendable {
    /// The SQL selecting `columns` of the matching rows in order, optionally only those with
    /// the given ids.
    func sql(selecting columns: String, restrictedTo ids: [Int64]?) -> (sql: String, arguments: StatementArguments)
    /// The `ORDER BY` terms, so rows can be placed by comparing their sort keys.
    var orderTerms: [OrderTerm] { get }
    /// `asset.id` or `collection.id`.
    var idColumn: String { get }
    /// The journal entities (``JournalEntity``) whose changes can change the result.
    var journalEntities: [Int] { get }
    /// Whether a change can be applied to the old result without running the whole query
    /// again: not with a fetch limit (rows beyond the limit move in), nor for transient lists.
    var supportsIncrementalDiff: Bool { get }
}

/// The objects the journal records, numbered as `PHObjectType`.
package enum JournalEntity {
    package static let asset = 1
    package static let assetCollection = 2
    package static let collectionList = 3
}

/// A row's sort key, compared as SQLite's `ORDER BY` compares: `NULL` first, then numbers,
/// then text in binary (UTF-8) order, then blobs; each term ascending or descending.
struct SortKey {
    var values: [DatabaseValue]

    static func compare(_ a: SortKey, _ b: SortKey, terms: [OrderTerm]) -> Int {
        for (index, term) in terms.enumerated() {
            let order = compareValues(a.values[index], b.values[index])
            if order != 0 { return term.ascending ? order : -order }
        }
        return 0
    }

    private static func rank(_ value: DatabaseValue) -> Int {
        switch value.storage {
        case .null: 0
        case .int64, .double: 1
        case .string: 2
        case .blob: 3
        }
    }

    static func compareValues(_ a: DatabaseValue, _ b: DatabaseValue) -> Int {
        let ra = rank(a), rb = rank(b)
        if ra != rb { return ra < rb ? -1 : 1 }
        switch (a.storage, b.storage) {
        case (.int64(let x), .int64(let y)): return x == y ? 0 : (x < y ? -1 : 1)
        case (.int64(let x), .double(let y)): return compareNumbers(Double(x), y)
        case (.double(let x), .int64(let y)): return compareNumbers(x, Double(y))
        case (.double(let x), .double(let y)): return compareNumbers(x, y)
        case (.string(let x), .string(let y)): return compareBytes(Array(x.utf8), Array(y.utf8))
        case (.blob(let x), .blob(let y)): return compareBytes(Array(x), Array(y))
        default: return 0
        }
    }

    private static func compareNumbers(_ x: Double, _ y: Double) -> Int {
        x == y ? 0 : (x < y ? -1 : 1)
    }

    private static func compareBytes(_ x: [UInt8], _ y: [UInt8]) -> Int {
        if x == y { return 0 }
        return x.lexicographicallyPrecedes(y) ? -1 : 1
    }
}
