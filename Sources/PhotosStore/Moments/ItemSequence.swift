import Foundation

/// A time-ordered sequence the grouper walks: assets (for moments) or moments (for clusters).
protocol ItemSequence {
    /// Items starting strictly before `time`, latest first, read lazily a page at a time (the
    /// walk usually stops after a few).
    func items(before time: Double) throws -> AnySequence<MomentGrouper.Item>
    /// Items starting strictly after `time`, earliest first.
    func items(after time: Double) throws -> AnySequence<MomentGrouper.Item>
    func items(from start: Double, to end: Double) throws -> [MomentGrouper.Item]
}

/// Pages through `table` by `(timeColumn, id)`, so equal times never skip rows.
struct KeysetPager {
    let db: any StoreConnection
    let columns: String
    let table: String
    /// The index in `(timeColumn, id)` order the walk reads, named so that SQLite takes it
    /// over an index on the condition's columns (which it prefers without statistics).
    let index: String
    let condition: String
    let timeColumn: String
    let decode: (any ColumnReading) -> MomentGrouper.Item

    static let pageSize = 64

    /// The first page's statement (one argument: the time) and the next pages' (the last
    /// item's time and id, compared as a row value: an `OR` of two terms made SQLite merge two
    /// index searches and sort them). Each must read an index in `(timeColumn, id)` order and stop
    /// after a page: sorting the table for every page made a commit's walk over a library's
    /// moments quadratic (`MomentGroupingTests` holds the plans).
    func statements(descending: Bool) -> (first: String, next: String) {
        let (op, order) = descending ? ("<", "DESC") : (">", "ASC")
        let first = """
            SELECT \(columns) FROM \(table) INDEXED BY \(index) WHERE \(condition) AND \(timeColumn) \(op) ? \
            ORDER BY \(timeColumn) \(order), id \(order) LIMIT \(Self.pageSize)
            """
        let next = """
            SELECT \(columns) FROM \(table) INDEXED BY \(index) WHERE \(condition) AND (\(timeColumn), id) \(op) (?, ?) \
            ORDER BY \(timeColumn) \(order), id \(order) LIMIT \(Self.pageSize)
            """
        return (first, next)
    }

    func sequence(from time: Double, descending: Bool) -> AnySequence<MomentGrouper.Item> {
        let (first, next) = statements(descending: descending)
        return AnySequence { () -> AnyIterator<MomentGrouper.Item> in
            var buffer: [MomentGrouper.Item] = []
            var last: MomentGrouper.Item?
            var exhausted = false
            return AnyIterator {
                if buffer.isEmpty && !exhausted {
                    let rows: [MomentGrouper.Item]
                    if let last {
                        rows = (try? db.rows(next, [last.start, last.id], decode)) ?? []
                    } else {
                        rows = (try? db.rows(first, [time], decode)) ?? []
                    }
                    buffer = rows.reversed()
                    exhausted = rows.count < Self.pageSize
                }
                guard let item = buffer.popLast() else { return nil }
                last = item
                return item
            }
        }
    }
}

struct AssetSequence: ItemSequence {
    let db: any StoreConnection
    static let columns = "id, creationDate, creationDate, latitude, longitude, momentID"
    static let live = "trashedDate IS NULL AND creationDate IS NOT NULL"

    static func decode(_ row: any ColumnReading) -> MomentGrouper.Item {
        MomentGrouper.Item(
            id: row.int64(0), start: row.double(1), end: row.double(2), latitude: row.optionalDouble(3),
            longitude: row.optionalDouble(4), group: row.optionalInt64(5))
    }

    var pager: KeysetPager {
        KeysetPager(
            db: db, columns: Self.columns, table: "asset", index: "asset_by_creationDate", condition: Self.live, timeColumn: "creationDate", decode: Self.decode)
    }

    func items(before time: Double) throws -> AnySequence<MomentGrouper.Item> {
        pager.sequence(from: time, descending: true)
    }

    func items(after time: Double) throws -> AnySequence<MomentGrouper.Item> {
        pager.sequence(from: time, descending: false)
    }

    func items(from start: Double, to end: Double) throws -> [MomentGrouper.Item] {
        try db.rows(
            "SELECT \(Self.columns) FROM asset WHERE \(Self.live) AND creationDate BETWEEN ? AND ? ORDER BY creationDate, id",
            [start, end], Self.decode)
    }
}

struct MomentSequence: ItemSequence {
    let db: any StoreConnection
    static let columns = "id, startDate, endDate, latitude, longitude, parentID"
    static let moments = "isList = 0 AND type = 3"

    static func decode(_ row: any ColumnReading) -> MomentGrouper.Item {
        MomentGrouper.Item(
            id: row.int64(0), start: row.double(1), end: row.double(2), latitude: row.optionalDouble(3),
            longitude: row.optionalDouble(4), group: row.optionalInt64(5))
    }

    var pager: KeysetPager {
        KeysetPager(
            db: db, columns: Self.columns, table: "collection", index: "collection_moments_by_startDate", condition: Self.moments, timeColumn: "startDate", decode: Self.decode)
    }

    func items(before time: Double) throws -> AnySequence<MomentGrouper.Item> {
        pager.sequence(from: time, descending: true)
    }

    func items(after time: Double) throws -> AnySequence<MomentGrouper.Item> {
        pager.sequence(from: time, descending: false)
    }

    func items(from start: Double, to end: Double) throws -> [MomentGrouper.Item] {
        try db.rows(
            "SELECT \(Self.columns) FROM collection WHERE \(Self.moments) AND startDate BETWEEN ? AND ? ORDER BY startDate, id",
            [start, end], Self.decode)
    }
}
