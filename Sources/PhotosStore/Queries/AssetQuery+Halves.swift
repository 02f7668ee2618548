/// A range of a fetch's first sort key: one part of a big fetch read in parts.
package enum KeyRange: Sendable, Hashable {
    /// The key is `NULL` (first in an ascending order, last in a descending one, as SQLite sorts).
    case null
    /// `key < value`.
    case below(StoreValue)
    /// `key >= value`.
    case from(StoreValue)
    /// `key > value`.
    case above(StoreValue)
    /// `key <= value`.
    case through(StoreValue)

    /// The range as a condition on `key`: each a range of an index on the key (`NULL` apart:
    /// `key < v OR key IS NULL` is no index range for PostgreSQL, which then reads the whole
    /// index and filters it).
    func condition(on key: StoreSQL) -> StoreSQL {
        switch self {
        case .null: "\(key) IS NULL"
        case .below(let value): "\(key) < \(value)"
        case .from(let value): "\(key) >= \(value)"
        case .above(let value): "\(key) > \(value)"
        case .through(let value): "\(key) <= \(value)"
        }
    }
}

extension AssetQuery {
    /// The sort key a fetch may be read by in two key ranges at once, and its direction: the
    /// first sort key when it is one of the asset's dates (the natural order's creation date
    /// included). Nil for a fetch with a limit, or whose order is an album's or a list's.
    ///
    /// An engine that reads a fetch of most of a big library faster in two parts at once
    /// (PostgreSQL: two backends, each scanning half the index) reads ``halves(splitAt:)`` at
    /// the key's middle value (``StoreEngine/idsAndPosition(_:splittable:)``).
    package var splitKey: (field: StoreField, ascending: Bool)? {
        guard limit == 0 else { return nil }
        switch scope {
        case .library, .smartAlbum, .partner: break
        case .album, .moment, .burst, .uuids, .ordered, .recentlyDeleted, .search: return nil
        }
        guard let first = sort.first else { return (.creationDate, true) }
        switch first.field {
        case .creationDate, .modificationDate, .addedDate: return (first.field, first.ascending)
        default: return nil
        }
    }

    /// The fetch as two halves split at `pivot` of ``splitKey``: each half the statements whose
    /// ids, concatenated, are its ids, and the two halves' ids, concatenated, the fetch's.
    /// Rows whose key equals the pivot are all in one half, so the order within them (by id)
    /// holds; rows without the key are where SQLite sorts `NULL`: first when ascending.
    package func halves(splitAt pivot: StoreValue) -> [[StoreSQL]] {
        let ascending = splitKey?.ascending ?? true
        let ranges: [[KeyRange]] =
            ascending
            ? [[.null, .below(pivot)], [.from(pivot)]]
            : [[.above(pivot)], [.through(pivot), .null]]
        return ranges.map { half in half.map { statement(selecting: "asset.id", restrictedTo: nil, within: $0) } }
    }
}
