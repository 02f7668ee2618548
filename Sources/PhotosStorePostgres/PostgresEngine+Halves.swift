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
/// connection cost more than half its scan).
///
/// Each half is one statement outside any transaction, with the library's position, as a
/// fetch read whole is (``PostgresSession/idsAndPosition(_:)``); the two are sent at once, the
/// second on a connection that comes free within ``PostgresEngine/spareWait`` (else the first
/// reads it after its own). When both saw the same position, they saw one state of the
/// library: every commit that changes what a fetch returns moves the position in its own
/// transaction (the journal a fetch result's change details are read from rests on it too).
/// When a change committed between them, the fetch is read again, whole. No snapshot is
/// exported (`pg_export_snapshot()` and `SET TRANSACTION SNAPSHOT` in a transaction on each
/// connection cost 3 more answers waited for in series: a fetch of 49,052 ids took as long in
/// halves as whole).
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
        let answer: (ids: [Int64], position: Int64)
        if splits(shape, unknownSplits: false), let pivot = middleKey(of: splittable.column, in: splittable.table) {
            answer = try idsAndPosition(halves: splittable.halves(pivot))
        } else {
            answer = try idsAndPosition(statement)
        }
        keepCount(answer.ids.count, of: shape)
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
        let parts = Array(halves.joined())
        guard halves.count == 2, parts.allSatisfy({ $0.plannerSettings.isEmpty }) else {
            return try withSession(readOnly: true) { session in try session.idsAndPosition(parts: parts) }
        }
        return try withSession(readOnly: true) { first in
            let firstHalf = first.idsAndPositionAhead(halves[0])
            let second: (ids: [Int64], position: Int64)
            do {
                second = try onSpareSession { try $0.idsAndPositionAhead(halves[1])() } ?? first.idsAndPositionAhead(halves[1])()
            } catch {
                // The first half's answer is read (its failure, if any, thrown here and not by
                // the session's next statement, another caller's).
                _ = try? firstHalf()
                throw error
            }
            let (ids, position) = try firstHalf()
            guard position == second.position else {
                // A change committed between the two reads.
                return try first.idsAndPosition(parts: parts)
            }
            return (ids + second.ids, position)
        }
    }

    /// A second half's read on another connection; nil when no connection comes free within
    /// ``spareWait`` (or the one that came was found closed before anything was written: the
    /// first connection then reads the half, and a database that is away fails there).
    func onSpareSession<T>(_ read: (PostgresSession) throws -> T) throws -> T? {
        guard let session = try? takeSession(within: Self.spareWait) else { return nil }
        defer { session.giveBack() }
        let lag = secondHalfLagMilliseconds.load(ordering: .relaxed)
        if lag > 0 { session.send("SELECT pg_sleep(\(Double(lag) / 1000))" as StoreSQL) }
        do {
            let answer = try read(session)
            readsInHalves.add(1, ordering: .relaxed)
            return answer
        } catch let error as StoreError where error.code == .unavailable && session.wroteNothing {
            return nil
        }
    }

    /// Whether a statement whose answer's size is kept under `shape` (``lastCounts``) is read
    /// in parts: when it had at least ``splitReadsFrom`` the last time, or has not run yet and
    /// `unknownSplits` (or the threshold is 0).
    func splits(_ shape: String, unknownSplits: Bool) -> Bool {
        let threshold = splitReadsFrom.load(ordering: .relaxed)
        guard threshold >= 0, poolMaximum >= 2 else { return false }
        return lastCounts.withLock { $0[shape] }.map { $0 >= threshold } ?? (unknownSplits || threshold == 0)
    }

    /// Keeps the size of `shape`'s answer (``splits(_:unknownSplits:)``).
    func keepCount(_ count: Int, of shape: String) {
        lastCounts.withLock { counts in
            if counts.count >= Self.countsKept, counts[shape] == nil { counts.removeAll() }
            counts[shape] = count
        }
    }
}
