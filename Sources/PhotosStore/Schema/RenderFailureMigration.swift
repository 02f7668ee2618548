import GRDB

/// Issue 18: the photos and videos the library accepted but could not render (a thumbnail or
/// poster frame failed to decode), so `photos check` lists them and a gallery marks their
/// cells instead of leaving them blank. Self-contained: one table, no triggers on `asset`.
///
/// A row holds the path of the file that failed (the asset's current version then: its
/// edit's render, else its original). It counts only while that path is still the current
/// version (see ``LibraryDatabase/renderFailures()``), so an edit, a revert or a new render
/// makes it stale without a trigger; deleting the asset deletes it (`ON DELETE CASCADE`).
enum RenderFailureMigration {
    static let name = "v10-render-failures"

    static func migrate(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE renderFailure (
                    assetID INTEGER PRIMARY KEY REFERENCES asset(id) ON DELETE CASCADE,
                    sourcePath TEXT NOT NULL,
                    reason TEXT NOT NULL,
                    failedDate REAL NOT NULL
                );
                """)
    }
}
