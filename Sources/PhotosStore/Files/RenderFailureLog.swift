package import Foundation

/// An asset whose current version the library could not render (see ``RenderFailureMigration``).
package struct RenderFailure: Sendable, Equatable {
    package var assetUUID: String
    /// The file that failed, relative to the library (or absolute, for a referenced original).
    package var sourcePath: String
    package var reason: String
    package var failedDate: Date
}

/// The photos and videos the library accepted but could not render (the `renderFailure`
/// table), so `photos check` lists them and a gallery marks their cells. Reached as
/// ``LibraryDatabase/renderFailures``.
package struct RenderFailureLog: Sendable {
    let database: LibraryDatabase

    /// The current version's file of an asset: its edit's render (full-size photo or video),
    /// else its photo or video.
    private static let currentSourcePath: StoreSQL = """
        COALESCE(
            (SELECT path FROM resource WHERE resource.assetID = asset.id AND resource.type IN (5, 6) ORDER BY resource.type LIMIT 1),
            (SELECT path FROM resource WHERE resource.assetID = asset.id AND resource.type IN (1, 2) ORDER BY resource.type LIMIT 1))
        """

    /// Records that an asset's current version could not be rendered, and why (replacing an
    /// earlier record). Does nothing for an asset that is gone.
    package func record(assetUUID: String, reason: String, now: Date = Date()) throws(StoreError) {
        try database.write { db in
            try db.execute(
                """
                    INSERT INTO renderFailure (assetID, sourcePath, reason, failedDate)
                    SELECT asset.id, \(Self.currentSourcePath), \(String(reason.prefix(2000))), \(now) FROM asset
                    WHERE asset.uuid = \(assetUUID) AND \(Self.currentSourcePath) IS NOT NULL
                    ON CONFLICT (assetID) DO UPDATE SET
                        sourcePath = excluded.sourcePath, reason = excluded.reason, failedDate = excluded.failedDate
                    """)
        }
    }

    /// Forgets an asset's render failure (it rendered after all). A read first: the write
    /// happens only when there is a record.
    package func clear(assetUUID: String) throws(StoreError) {
        let recorded = try database.read { db in
            try db.bool(
                "SELECT EXISTS (SELECT 1 FROM renderFailure JOIN asset ON asset.id = renderFailure.assetID WHERE asset.uuid = \(assetUUID))"
            ) ?? false
        }
        guard recorded else { return }
        try database.write { db in
            try db.execute("DELETE FROM renderFailure WHERE assetID = (SELECT id FROM asset WHERE uuid = \(assetUUID))")
        }
    }

    /// The assets whose current version failed to render (records of an earlier version, which
    /// an edit or revert replaced, don't count), in import order.
    package func all(limit: Int = 10_000) throws(StoreError) -> [RenderFailure] {
        try database.read { db in
            try db.rows(
                """
                    SELECT \(RenderFailureColumn.selection), asset.uuid
                    FROM renderFailure JOIN asset ON asset.id = renderFailure.assetID
                    WHERE renderFailure.sourcePath = \(Self.currentSourcePath)
                    ORDER BY asset.id LIMIT \(limit)
                    """
            ) { row in
                RenderFailure(
                    assetUUID: row[after: RenderFailureColumn.self, 0], sourcePath: row[RenderFailureColumn.sourcePath],
                    reason: row[RenderFailureColumn.reason], failedDate: row[RenderFailureColumn.failedDate])
            }
        }
    }
}

extension LibraryDatabase {
    /// The render failures (``RenderFailureLog``).
    package var renderFailures: RenderFailureLog { RenderFailureLog(database: self) }
}
