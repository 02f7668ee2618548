import Foundation
import GRDB

/// A time-ordered sequence the grouper walks: assets (for moments) or moments (for clusters).
protocol ItemSequence {
    func first(atOrAfter time: Double) throws -> MomentGrouper.Item?
    func last(atOrBefore time: Double) throws -> MomentGrouper.Item?
    /// Items strictly before `time`, latest first (lazily: the walk usually stops early).
    func items(before time: Double) throws -> AnySequence<MomentGrouper.Item>
    /// Items strictly after `time`, earliest first.
    func items(after time: Double) throws -> AnySequence<MomentGrouper.Item>
    func items(from start: Double, to end: Double) throws -> [MomentGrouper.Item]
}

extension ItemSequence {
    /// Reads items a page at a time, so a walk that stops after a few items reads a few rows.
    func paged(
        _ db: Database, sql: String, start: Double, ascending: Bool, decode: @escaping (Row) -> MomentGrouper.Item
    ) -> AnySequence<MomentGrouper.Item> {
        AnySequence { () -> AnyIterator<MomentGrouper.Item> in
            var buffer: [MomentGrouper.Item] = []
            var cursor = start
            var done = false
            var seen = Set<Int64>()
            return AnyIterator {
                if buffer.isEmpty && !done {
                    let rows = (try? Row.fetchAll(db, sql: sql, arguments: [cursor])) ?? []
                    buffer = rows.map(decode).filter { !seen.contains($0.id) }.reversed()
                    if rows.count < 64 { done = true }
                    if let last = rows.last { cursor = ascending ? decode(last).start : decode(last).start }
                    if buffer.isEmpty { done = true }
                }
                guard let item = buffer.popLast() else { return nil }
                seen.insert(item.id)
                return item
            }
        }
    }
}

struct AssetSequence: ItemSequence {
    let db: Database
    static let columns = "id, creationDate, creationDate, latitude, longitude, momentID"
    static let live = "trashedDate IS NULL AND creationDate IS NOT NULL"

    static func decode(_ row: Row) -> MomentGrouper.Item {
        MomentGrouper.Item(id: row[0], start: row[1], end: row[2], latitude: row[3], longitude: row[4], group: row[5])
    }

    func first(atOrAfter time: Double) throws -> MomentGrouper.Item? {
        try Row.fetchOne(
            db, sql: "SELECT \(Self.columns) FROM asset WHERE \(Self.live) AND creationDate >= ? ORDER BY creationDate, id LIMIT 1",
            arguments: [time]
        ).map(Self.decode)
    }

    func last(atOrBefore time: Double) throws -> MomentGrouper.Item? {
        try Row.fetchOne(
            db, sql: "SELECT \(Self.columns) FROM asset WHERE \(Self.live) AND creationDate <= ? ORDER BY creationDate DESC, id DESC LIMIT 1",
            arguments: [time]
        ).map(Self.decode)
    }

    func items(before time: Double) throws -> AnySequence<MomentGrouper.Item> {
        paged(
            db, sql: "SELECT \(Self.columns) FROM asset WHERE \(Self.live) AND creationDate < ? ORDER BY creationDate DESC, id DESC LIMIT 64",
            start: time, ascending: false, decode: Self.decode)
    }

    func items(after time: Double) throws -> AnySequence<MomentGrouper.Item> {
        paged(
            db, sql: "SELECT \(Self.columns) FROM asset WHERE \(Self.live) AND creationDate > ? ORDER BY creationDate, id LIMIT 64",
            start: time, ascending: true, decode: Self.decode)
    }

    func items(from start: Double, to end: Double) throws -> [MomentGrouper.Item] {
        try Row.fetchAll(
            db, sql: "SELECT \(Self.columns) FROM asset WHERE \(Self.live) AND creationDate BETWEEN ? AND ? ORDER BY creationDate, id",
            arguments: [start, end]
        ).map(Self.decode)
    }
}

struct MomentSequence: ItemSequence {
    let db: Database
    static let columns = "id, startDate, endDate, latitude, longitude, parentID"
    static let moments = "isList = 0 AND type = 3"

    static func decode(_ row: Row) -> MomentGrouper.Item {
        MomentGrouper.Item(id: row[0], start: row[1], end: row[2], latitude: row[3], longitude: row[4], group: row[5])
    }

    func first(atOrAfter time: Double) throws -> MomentGrouper.Item? {
        try Row.fetchOne(
            db, sql: "SELECT \(Self.columns) FROM collection WHERE \(Self.moments) AND endDate >= ? ORDER BY startDate, id LIMIT 1",
            arguments: [time]
        ).map(Self.decode)
    }

    func last(atOrBefore time: Double) throws -> MomentGrouper.Item? {
        try Row.fetchOne(
            db, sql: "SELECT \(Self.columns) FROM collection WHERE \(Self.moments) AND startDate <= ? ORDER BY startDate DESC, id DESC LIMIT 1",
            arguments: [time]
        ).map(Self.decode)
    }

    func items(before time: Double) throws -> AnySequence<MomentGrouper.Item> {
        paged(
            db, sql: "SELECT \(Self.columns) FROM collection WHERE \(Self.moments) AND startDate < ? ORDER BY startDate DESC, id DESC LIMIT 64",
            start: time, ascending: false, decode: Self.decode)
    }

    func items(after time: Double) throws -> AnySequence<MomentGrouper.Item> {
        paged(
            db, sql: "SELECT \(Self.columns) FROM collection WHERE \(Self.moments) AND startDate > ? ORDER BY startDate, id LIMIT 64",
            start: time, ascending: true, decode: Self.decode)
    }

    func items(from start: Double, to end: Double) throws -> [MomentGrouper.Item] {
        try Row.fetchAll(
            db, sql: "SELECT \(Self.columns) FROM collection WHERE \(Self.moments) AND endDate >= ? AND startDate <= ? ORDER BY startDate, id",
            arguments: [start, end]
        ).map(Self.decode)
    }
}
