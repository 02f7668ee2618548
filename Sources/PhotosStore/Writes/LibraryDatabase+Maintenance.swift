package import Foundation

extension LibraryDatabase {
    /// Runs one statement in a write transaction of its own, outside any change (nothing is
    /// journaled), as another program editing the rows would. For tools and tests.
    package func executeUnjournaled(_ statement: StoreSQL) throws(StoreError) {
        try write { db in try db.execute(statement) }
    }

    /// The first column of every row `statement` returns, as text. For tools and tests.
    package func texts(_ statement: StoreSQL) throws(StoreError) -> [String] {
        try read { db in try db.texts(statement) }
    }

    /// How long deleted assets stay in Recently Deleted.
    package static let recentlyDeletedRetention: TimeInterval = 30 * 86_400

    /// Removes, rows and files, the assets that have been in Recently Deleted longer than
    /// ``recentlyDeletedRetention``. Returns their UUIDs.
    @discardableResult
    package func purgeExpiredTrash(now: Date = Date()) throws(StoreError) -> [String] {
        let cutoff = now.timeIntervalSince1970 - Self.recentlyDeletedRetention
        let expired = try read { db in
            try db.texts("SELECT uuid FROM asset WHERE trashedDate IS NOT NULL AND trashedDate < \(cutoff)")
        }
        guard !expired.isEmpty else { return [] }
        var changes = StoreChangeSet(now: now)
        changes.expungedAssets = expired
        try commit(changes)
        return expired
    }
}

extension LibraryDatabase {

    /// Sets when an asset was deleted; for tests of Recently Deleted expiry.
    package func setTrashedDate(_ date: Date?, forAsset uuid: String) throws(StoreError) {
        try write { db in
            try db.execute("UPDATE asset SET trashedDate = \(date) WHERE uuid = \(uuid)")
        }
    }
}
