package import Foundation

/// Where a video's browser-playable rendition stands.
package enum RenditionState: Int, Sendable {
    /// Not made yet (new, edited, or not tried).
    case pending = 0
    /// Made, from `sourcePath`.
    case made = 1
    /// Not needed: the movie at `sourcePath` plays in browsers as it is.
    case notNeeded = 2
    /// The last attempt failed (`lastError`); retried after `notBefore`.
    case failed = 3
}

/// A video's rendition work.
package struct RenditionJob: Sendable, Equatable {
    package var assetID: Int64
    package var assetUUID: String
    package var state: RenditionState
    package var sourcePath: String?
    package var attempts: Int
    package var lastError: String?
    package var notBefore: Date

    package init(
        assetID: Int64, assetUUID: String, state: RenditionState, sourcePath: String?, attempts: Int, lastError: String?, notBefore: Date
    ) {
        self.assetID = assetID
        self.assetUUID = assetUUID
        self.state = state
        self.sourcePath = sourcePath
        self.attempts = attempts
        self.lastError = lastError
        self.notBefore = notBefore
    }
}

/// How many videos are in each state.
package struct RenditionCounts: Sendable, Equatable {
    package var pending = 0
    package var made = 0
    package var notNeeded = 0
    package var failed = 0
    package var total: Int { pending + made + notNeeded + failed }

    package init(pending: Int = 0, made: Int = 0, notNeeded: Int = 0, failed: Int = 0) {
        self.pending = pending
        self.made = made
        self.notNeeded = notNeeded
        self.failed = failed
    }
}

/// Browser renditions of videos as work to do: the `videoRendition` table, one row per video
/// or Live Photo, which triggers keep whole on every write path. Reached as
/// ``LibraryDatabase/renditions``.
package struct RenditionQueue: Sendable {
    let database: LibraryDatabase

    /// The rendition's columns, then its asset's UUID (joined as `asset`).
    private static let jobColumns: StoreSQL = "\(VideoRenditionColumn.selection), asset.uuid"

    private static func job(_ row: any ColumnReading) -> RenditionJob {
        typealias Column = VideoRenditionColumn
        return RenditionJob(
            assetID: row[Column.assetID], assetUUID: row[after: Column.self, 0],
            state: RenditionState(rawValue: row[Column.state]) ?? .pending, sourcePath: row[Column.sourcePath] as String,
            attempts: row[Column.attempts], lastError: row[Column.lastError], notBefore: row[Column.notBefore])
    }

    /// The next video whose rendition is due at `now` (pending ones first, then failures
    /// whose retry time has come, oldest first), leaving out `busy` ones.
    package func nextDue(now: Date, excluding busy: Set<Int64>) throws(StoreError) -> RenditionJob? {
        try database.read { db in
            let excluded: StoreSQL = busy.isEmpty ? "" : "AND videoRendition.assetID NOT IN (\(StoreSQL.elements(busy)))"
            return try db.row(
                """
                    SELECT \(Self.jobColumns) FROM videoRendition JOIN asset ON asset.id = videoRendition.assetID
                    WHERE videoRendition.state IN (0, 3) AND videoRendition.notBefore <= \(now) \(excluded)
                    ORDER BY videoRendition.state, videoRendition.notBefore, videoRendition.assetID LIMIT 1
                    """, Self.job)
        }
    }

    /// When the next failed rendition is due again, if any.
    package func nextRetry() throws(StoreError) -> Date? {
        try database.read { db in
            try db.double("SELECT MIN(notBefore) FROM videoRendition WHERE state = 3").map(Date.init(timeIntervalSince1970:))
        }
    }

    /// The rendition work of one video.
    package func job(assetID: Int64) throws(StoreError) -> RenditionJob? {
        try database.read { db in
            try db.row(
                "SELECT \(Self.jobColumns) FROM videoRendition JOIN asset ON asset.id = videoRendition.assetID WHERE assetID = \(assetID)", Self.job)
        }
    }

    /// Records a rendition made (or found unnecessary) from `sourcePath`, unless the video has
    /// changed meanwhile (another source) or is gone.
    package func finish(assetID: Int64, sourcePath: String, state: RenditionState, now: Date) throws(StoreError) {
        try database.write { db in
            try db.execute(
                """
                    UPDATE videoRendition SET state = \(state.rawValue), sourcePath = \(sourcePath), lastError = NULL, notBefore = 0,
                    updatedDate = \(now) WHERE assetID = \(assetID)
                    """)
        }
    }

    /// Records a failed attempt and when to try again.
    package func fail(assetID: Int64, reason: String, retryAt: Date, now: Date) throws(StoreError) {
        try database.write { db in
            try db.execute(
                """
                    UPDATE videoRendition SET state = 3, attempts = attempts + 1, lastError = \(reason), notBefore = \(retryAt), updatedDate = \(now)
                    WHERE assetID = \(assetID)
                    """)
        }
    }

    /// Makes every failed rendition due now (`photos cache warm --videos` retries them).
    package func retryFailed() throws(StoreError) {
        try database.write { db in try db.execute("UPDATE videoRendition SET notBefore = 0 WHERE state = 3") }
    }

    /// How many videos are in each state (Recently Deleted included).
    package func counts() throws(StoreError) -> RenditionCounts {
        try database.read { db in
            var counts = RenditionCounts()
            for (state, count) in try db.rows("SELECT state, COUNT(*) FROM videoRendition GROUP BY state", { ($0.int(0), $0.int(1)) }) {
                switch RenditionState(rawValue: state) ?? .pending {
                case .pending: counts.pending = count
                case .made: counts.made = count
                case .notNeeded: counts.notNeeded = count
                case .failed: counts.failed = count
                }
            }
            return counts
        }
    }

    /// Failed renditions with their reasons, most attempted first.
    package func failed(limit: Int = 20) throws(StoreError) -> [RenditionJob] {
        try database.read { db in
            try db.rows(
                """
                    SELECT \(Self.jobColumns) FROM videoRendition JOIN asset ON asset.id = videoRendition.assetID
                    WHERE state = 3 ORDER BY attempts DESC, assetID LIMIT \(limit)
                    """, Self.job)
        }
    }
}

extension LibraryDatabase {
    /// The video rendition work (``RenditionQueue``).
    package var renditions: RenditionQueue { RenditionQueue(database: self) }
}
