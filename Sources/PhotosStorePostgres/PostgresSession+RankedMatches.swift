import Foundation
import NIOCore
package import PhotosStore
import PostgresNIO

extension PostgresEngine {
    /// A search's matches as three arrays and the library's position, in one statement
    /// (``PostgresSession/rankedMatchesAndPosition(_:)``).
    package func rankedMatchesAndPosition(_ statement: StoreSQL) throws -> (matches: [RankedMatch], position: Int64) {
        try withSession(readOnly: true) { session in try session.rankedMatchesAndPosition(statement) }
    }

    /// ``rankedMatchesAndPosition(_:)`` of the search documents' halves at once
    /// (``SearchDocumentHalves``): `parts` on two connections, each with the library's
    /// position, as ``idsAndPosition(halves:)`` reads a fetch; `statement` whole when the
    /// positions differ, without a spare connection (the first reads both), and when the
    /// search (its words and all) found fewer than ``splitReadsFrom`` matches the last time
    /// (a narrow search costs less than a second connection's round trip). A search not run
    /// yet is read in halves.
    package func rankedMatchesAndPosition(_ statement: StoreSQL, parts: [StoreSQL]?) throws -> (matches: [RankedMatch], position: Int64) {
        let shape = statement.key(for: .postgres)  // Its words too: another search's count says nothing of this one's.
        guard let parts, parts.count == 2, splits(shape, unknownSplits: true) else {
            let answer = try rankedMatchesAndPosition(statement)
            keepCount(answer.matches.count, of: shape)
            return answer
        }
        let answer = try withSession(readOnly: true) { first in
            let firstHalf = first.rankedMatchesAhead(parts[0])
            let second: (matches: [RankedMatch], position: Int64)
            do {
                second = try onSpareSession { try $0.rankedMatchesAhead(parts[1])() } ?? first.rankedMatchesAhead(parts[1])()
            } catch {
                // The first half's answer is read (its failure, if any, thrown here and not by
                // the session's next statement, another caller's).
                _ = try? firstHalf()
                throw error
            }
            let (matches, position) = try firstHalf()
            guard position == second.position else {
                // A change committed between the two reads.
                return try first.rankedMatchesAndPosition(statement)
            }
            return (matches + second.matches, position)
        }
        keepCount(answer.matches.count, of: shape)
        return answer
    }
}

extension PostgresSession {
    /// The matches `statement` selects (id, rank, creation date) as three arrays, with the
    /// library's position, in one statement outside any transaction: a row message a match
    /// costs ~3 µs to receive and decode (80,894 matches: ~250 ms), an array element a few
    /// nanoseconds. Falls back to a read transaction of rows when an array doesn't decode.
    func rankedMatchesAndPosition(_ statement: StoreSQL) throws -> (matches: [RankedMatch], position: Int64) {
        try rankedMatchesAhead(statement)()
    }

    /// ``rankedMatchesAndPosition(_:)``'s statement sent now; its answer read by the closure.
    func rankedMatchesAhead(_ statement: StoreSQL) -> () throws -> (matches: [RankedMatch], position: Int64) {
        let (query, values) = Self.preparable(
            """
            SELECT array_agg(id), array_agg(rank::float8), array_agg(creationDate::float8), (SELECT position FROM libraryPosition) \
            FROM (\(statement)) AS matches (id, rank, creationDate)
            """)
        let answer = sendForAnswer(query, values: values)
        return { [self] in
            if let row = try answer("reading \(query.sql)").first?.makeRandomAccess(), let read = Self.rankedMatches(in: row) {
                return read
            }
            return try withPosition { try rows(statement, RankedMatch.init) }
        }
    }

    /// The answer of ``rankedMatchesAndPosition(_:)``'s statement; nil when an array is not
    /// of its type or its lengths differ. No match at all is three `NULL`s (`array_agg` of
    /// no rows).
    private static func rankedMatches(in row: PostgresRandomAccessRow) -> (matches: [RankedMatch], position: Int64)? {
        guard let position = try? PostgresColumns.cell(row, 3).decode(Int64.self) else { return nil }
        let idCell = PostgresColumns.cell(row, 0)
        if idCell.bytes == nil { return ([], position) }
        guard let ids = int64Array(idCell),
            let ranks = float8Array(PostgresColumns.cell(row, 1)), ranks.count == ids.count,
            let dates = float8Array(PostgresColumns.cell(row, 2)), dates.count == ids.count
        else { return nil }
        var matches: [RankedMatch] = []
        matches.reserveCapacity(ids.count)
        for index in ids.indices {
            guard let rank = ranks[index] else { return nil }
            matches.append(RankedMatch(id: ids[index], rank: rank, creationDate: dates[index]))
        }
        return (matches, position)
    }

    /// The elements of a `double precision[]` cell in PostgreSQL's binary array format (a
    /// 20-byte header; each element a 4-byte length, -1 for `NULL`, then 8 bytes), `NULL`s as
    /// nil. Nil for anything else.
    static func float8Array(_ cell: PostgresCell) -> [Double?]? {
        guard cell.dataType == .float8Array, cell.format == .binary, var bytes = cell.bytes else { return nil }
        guard let dimensions = bytes.readInteger(as: Int32.self), bytes.readInteger(as: Int32.self) != nil,
            bytes.readInteger(as: UInt32.self) == PostgresDataType.float8.rawValue
        else { return nil }
        if dimensions == 0 { return [] }
        guard dimensions == 1, let count = bytes.readInteger(as: Int32.self), count >= 0, bytes.readInteger(as: Int32.self) != nil else {
            return nil
        }
        return bytes.withUnsafeReadableBytes { raw -> [Double?]? in
            var values: [Double?] = []
            values.reserveCapacity(Int(count))
            var offset = 0
            for _ in 0..<count {
                guard offset + 4 <= raw.count else { return nil }
                let length = Int32(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: Int32.self))
                offset += 4
                if length == -1 {
                    values.append(nil)
                    continue
                }
                guard length == 8, offset + 8 <= raw.count else { return nil }
                values.append(Double(bitPattern: UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))))
                offset += 8
            }
            return offset == raw.count ? values : nil
        }
    }
}
