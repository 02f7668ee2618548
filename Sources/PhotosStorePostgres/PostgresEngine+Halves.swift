import Foundation
import PhotosLocking
package import PhotosStore
import PostgresNIO

/// A fetch of most of a big library read as two key ranges at once.
///
/// PostgreSQL plans no parallel scan for the statement a fetch is (`SELECT ARRAY(…)`): one
/// backend reads every entry of the index in the fetch's order (833,068 for the images of a
/// library of 1,000,000: ~160 ms of the server's time, against ~96 ms for its two halves on two
/// connections at once, `psql`, 2026-12-02). So a fetch ordered by a date whose statement
/// returned at least ``PostgresEngine/splitReadsFrom`` ids the last time it ran is read in two
/// halves, split at the date's median from the table's statistics (`pg_stats`' histogram, read
/// again once a minute); a smaller one costs less read whole (its extra round trips and second
/// connection cost more than half its scan):
///
/// 1. The first connection begins a `REPEATABLE READ` transaction, exports its snapshot with
///    the library's position (`pg_export_snapshot()`), and is sent the first half.
/// 2. A second connection (one that comes free within ``PostgresEngine/spareWait``, else the
///    first reads both halves) begins its transaction in that snapshot (`SET TRANSACTION
///    SNAPSHOT`) and reads the second half: both halves see one state of the library, the
///    one the position names.
///
/// Linux note: Apple's PhotoKit reads one SQLite file in its own process; this is the server
/// deployment's.
extension PostgresEngine {
    /// How long ``middleKey(of:in:)``'s answer is kept before the statistics are read again.
    static let middleKeyLifetime: Duration = .seconds(60)

    /// How long a fetch's second half waits for a spare connection before the first reads it.
    static let spareWait: TimeInterval = 0.05

    /// How many statements' last counts ``idsAndPosition(_:splittable:)`` keeps.
    static let countsKept = 256

    package func idsAndPosition(_ statement: StoreSQL, splittable: SplittableRead?) throws -> (ids: [Int64], position: Int64) {
        guard let splittable else { return try idsAndPosition(statement) }
        let shape = statement.rendered(for: .postgres).sql
        let threshold = splitReadsFrom.load(ordering: .relaxed)
        let answer: (ids: [Int64], position: Int64)
        if threshold >= 0, lastCounts.withLock({ $0[shape] ?? 0 }) >= threshold,
            let pivot = middleKey(of: splittable.column, in: splittable.table)
        {
            answer = try idsAndPosition(halves: splittable.halves(pivot))
        } else {
            answer = try idsAndPosition(statement)
        }
        lastCounts.withLock { counts in
            if counts.count >= Self.countsKept, counts[shape] == nil { counts.removeAll() }
            counts[shape] = answer.ids.count
        }
        return answer
    }

    /// The median of `column` in `table` by the table's statistics (the middle bound of
    /// `pg_stats`' histogram, which leaves out the most common values); nil without statistics
    /// (no `ANALYZE` yet), or with fewer than 2 connections in the pool.
    func middleKey(of column: String, in table: String) -> StoreValue? {
        guard poolMaximum >= 2 else { return nil }
        let name = "\(table).\(column)"
        let now = ContinuousClock.now
        if let known = middleKeys.withLock({ $0[name] }), now - known.read < Self.middleKeyLifetime {
            return known.key
        }
        // Only asked for the asset's dates: `float8`.
        let statistics: StoreSQL = """
            SELECT (histogram_bounds::text::float8[])[array_length(histogram_bounds::text::float8[], 1) / 2 + 1] \
            FROM pg_stats WHERE schemaname = current_schema() AND tablename = \(table) AND attname = \(column)
            """
        guard
            let answer = try? withSession(readOnly: true, { session in
                try session.rows(statistics) { row in row.isNull(0) ? nil : row.double(0) }
            })
        else { return nil }  // The database is away: the fetch itself says so.
        let key = answer.first.flatMap { $0 }.map(StoreValue.real)
        middleKeys.withLock { $0[name] = (key, now) }
        return key
    }

    func idsAndPosition(halves: [[StoreSQL]]) throws -> (ids: [Int64], position: Int64) {
        guard halves.count == 2 else {
            return try withSession(readOnly: true) { session in try session.idsAndPosition(parts: Array(halves.joined())) }
        }
        return try withSession(readOnly: true) { first in
            try first.transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                first.sendSettings(halves[0].flatMap(\.plannerSettings))
                let exported = try first.rowAhead("SELECT pg_export_snapshot(), (SELECT position FROM libraryPosition)") { row in
                    (snapshot: row.text(0), position: row.int64(1))
                }
                let firstHalf = first.idsAhead(halves[0])
                guard let (snapshot, position) = try exported.get() else {
                    throw StoreError(.database, "pg_export_snapshot() returned no row")
                }
                let secondHalf =
                    try readOnSpareSession(halves[1], snapshot: snapshot)
                    ?? first.idsAhead(halves[1])()
                var ids = try firstHalf()
                ids += secondHalf
                return (ids, position)
            }
        }
    }

    /// The second half's ids, read on another connection in the first's snapshot; nil when no
    /// connection comes free within ``spareWait`` (or that connection failed before reading:
    /// the first connection then reads the half, and a database that is away fails there).
    private func readOnSpareSession(_ parts: [StoreSQL], snapshot: String) throws -> [Int64]? {
        // A snapshot's name is hex digits and dashes ("00000003-0000001B-1"); `SET TRANSACTION
        // SNAPSHOT` takes a literal, not a bind.
        guard !snapshot.isEmpty, snapshot.allSatisfy({ $0.isHexDigit || $0 == "-" }) else {
            throw StoreError(.database, "pg_export_snapshot() returned \(snapshot)")
        }
        guard let session = try? takeSession(within: Self.spareWait) else { return nil }
        defer { session.giveBack() }
        let lag = secondHalfLagMilliseconds.load(ordering: .relaxed)
        if lag > 0 { session.send("SELECT pg_sleep(\(Double(lag) / 1000))" as StoreSQL) }
        do {
            let ids = try session.transaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY") {
                session.send("SET TRANSACTION SNAPSHOT '\(unescaped: snapshot)'" as StoreSQL)
                session.sendSettings(parts.flatMap(\.plannerSettings))
                return try session.idsAhead(parts)()
            }
            readsInHalves.add(1, ordering: .relaxed)
            return ids
        } catch let error as StoreError where error.code == .unavailable && session.wroteNothing {
            return nil
        }
    }
}
