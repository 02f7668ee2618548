import Foundation

/// A time-ordered sequence the grouper walks: assets (for moments) or moments (for clusters),
/// paged through by `(time, id)`, so equal times never skip rows.
struct ItemSequence {
    let db: any StoreConnection
    /// The table and what each item reads from it: its id, start and end times, location and
    /// the group it belongs to now, in ``decode(_:)``'s order.
    let table: String
    let columns: StoreSQL
    /// Which rows are items.
    let condition: StoreSQL
    let timeColumn: String
    /// The index in `(timeColumn, id)` order the walk reads, named so that SQLite takes it
    /// over an index on the condition's columns (which it prefers without statistics).
    let index: String

    static let pageSize = 64

    /// Assets with a capture date, outside Recently Deleted, grouped by moment; `owner` says
    /// whose (a condition on `asset.ownerID`; `ownerID IS NULL` in a library without people).
    static func assets(_ db: any StoreConnection, owner: StoreSQL = "asset.ownerID IS NULL") -> ItemSequence {
        ItemSequence(
            db: db, table: "asset", columns: assetColumns, condition: "\(liveAssets) AND \(owner)", timeColumn: "creationDate",
            index: "asset_by_creationDate")
    }

    /// Moments, grouped by cluster; `owner` says whose (a condition on `collection.ownerID`).
    static func moments(_ db: any StoreConnection, owner: StoreSQL = "collection.ownerID IS NULL") -> ItemSequence {
        ItemSequence(
            db: db, table: "collection", columns: "id, startDate, endDate, latitude, longitude, parentID",
            condition: "isList = 0 AND type = 3 AND \(owner)", timeColumn: "startDate", index: "collection_moments_by_startDate")
    }

    /// What an asset item reads (an asset starts and ends at its capture date).
    static let assetColumns: StoreSQL = "id, creationDate, creationDate, latitude, longitude, momentID"
    static let liveAssets: StoreSQL = "trashedDate IS NULL AND creationDate IS NOT NULL"

    /// An item of a row selected with the sequence's ``columns``.
    static func decode(_ row: any ColumnReading) -> MomentGrouper.Item {
        MomentGrouper.Item(
            id: row.int64(0), start: row.double(1), end: row.double(2), latitude: row.optionalDouble(3),
            longitude: row.optionalDouble(4), group: row.optionalInt64(5))
    }

    /// Items starting strictly before `time`, latest first, read lazily a page at a time (the
    /// walk usually stops after a few).
    func items(before time: Double) -> AnySequence<MomentGrouper.Item> {
        pages(from: time, descending: true)
    }

    /// Items starting strictly after `time`, earliest first.
    func items(after time: Double) -> AnySequence<MomentGrouper.Item> {
        pages(from: time, descending: false)
    }

    func items(from start: Double, to end: Double) throws -> [MomentGrouper.Item] {
        try db.rows(
            """
            SELECT \(columns) FROM \(unescaped: table) WHERE \(condition) AND \(unescaped: timeColumn) BETWEEN \(start) AND \(end) \
            ORDER BY \(unescaped: timeColumn), id
            """, Self.decode)
    }

    /// The first page's statement and the next pages' (after the last item's time and id,
    /// compared as a row value: an `OR` of two terms made SQLite merge two index searches and
    /// sort them), both with parameters (the time; the time and the id). Each must read an
    /// index in `(timeColumn, id)` order and stop after a page: sorting the table for every
    /// page made a commit's walk over a library's moments quadratic (`MomentGroupingTests`
    /// holds the plans).
    func statements(descending: Bool) -> (first: StoreSQL, next: StoreSQL) {
        let (op, order) = descending ? ("<", "DESC") : (">", "ASC")
        let head: StoreSQL = "SELECT \(columns) FROM \(unescaped: table)\(StoreSQL.hint(.indexedBy(index))) WHERE \(condition) AND"
        let tail: StoreSQL = "ORDER BY \(unescaped: timeColumn) \(unescaped: order), id \(unescaped: order) LIMIT \(literal: Self.pageSize)"
        return (
            "\(head) \(unescaped: timeColumn) \(unescaped: op) \(StoreSQL.parameter(0)) \(tail)",
            "\(head) (\(unescaped: timeColumn), id) \(unescaped: op) (\(StoreSQL.parameter(0)), \(StoreSQL.parameter(1))) \(tail)"
        )
    }

    private func pages(from time: Double, descending: Bool) -> AnySequence<MomentGrouper.Item> {
        let (first, next) = statements(descending: descending)
        return AnySequence { () -> AnyIterator<MomentGrouper.Item> in
            var buffer: [MomentGrouper.Item] = []
            var last: MomentGrouper.Item?
            var exhausted = false
            return AnyIterator {
                if buffer.isEmpty && !exhausted {
                    let rows: [MomentGrouper.Item]
                    if let last {
                        rows = (try? db.rows(next.binding([.real(last.start), .integer(last.id)]), Self.decode)) ?? []
                    } else {
                        rows = (try? db.rows(first.binding([.real(time)]), Self.decode)) ?? []
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
