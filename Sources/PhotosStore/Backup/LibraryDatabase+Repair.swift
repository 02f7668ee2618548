package import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

extension LibraryDatabase {
    /// Puts a new, empty database in place of a lost one, keeping the library's identifier
    /// (from its `library-identifier` file), so ``open(at:gazetteer:)`` opens the folder again
    /// and repair can rebuild rows from its files. What is left of the lost database is moved
    /// to `database/lost-<stamp>/` (returned). Refuses when the database is there.
    ///
    /// The schema is made the ordinary way, by opening a library in a scratch folder under
    /// `tmp/`, and copied in with `VACUUM INTO` and a rename.
    package static func replaceLostDatabase(inLibraryAt root: URL, now: Date = Date()) throws(StoreError) -> [String] {
        let layout = LibraryLayout(root: root)
        let lock = try FolderLock(layout.databaseFolder.appendingPathComponent(".open-lock"))
        defer { lock.release() }
        guard layout.databaseSize == 0 else {
            throw StoreError(.notAllowed, "The library's database (database/Photos.sqlite) is there; it was not replaced")
        }
        let scratch = layout.temporary.appendingPathComponent("repair-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let staged = layout.databaseFolder.appendingPathComponent(".repair-\(UUID().uuidString).sqlite")
        defer { unlink(staged.path) }
        do {
            let fresh = try LibraryDatabase.open(at: scratch, gazetteer: .custom(nil))
            let identifier = (try? String(contentsOf: layout.identifierFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            if let identifier, UUID(uuidString: identifier) != nil {
                try fresh.write { db in
                    try db.execute("UPDATE libraryInfo SET value = \(identifier) WHERE key = 'libraryIdentifier'")
                }
            }
            try fresh.writeSnapshot(to: staged)
        }
        let moved = try moveAsideLostDatabase(layout, now: now)
        try SafeFiles.rename(staged, to: layout.databaseFile)
        try? SafeFiles.flush(layout.databaseFolder)
        return moved
    }

    /// Resource rows whose file inside the library is missing (originals referenced in place
    /// and remote ones are not looked at).
    package func resourcesWithMissingFiles() throws(StoreError) -> [SnapshotResource] {
        let rows = try read { db in
            try db.rows(
                "SELECT resource.path, resource.fileSize, resource.contentHash, asset.uuid, resource.type FROM resource JOIN asset ON asset.id = resource.assetID"
            ) { SnapshotResource(path: $0.text(0), size: $0.int64(1), contentHash: $0.optionalText(2), assetUUID: $0.text(3), type: $0.int(4)) }
        }
        return rows.filter { row in
            !LibraryLayout.isReferenced(path: row.path) && !LibraryLayout.isRemote(path: row.path)
                && SafeFiles.stat(layout.url(forRelativePath: row.path)) == nil
        }
    }

    /// The UUIDs of every asset, and of those with an edit.
    package func assetUUIDs() throws(StoreError) -> (all: Set<String>, edited: Set<String>) {
        try read { db in
            (
                try Set(db.texts("SELECT uuid FROM asset")),
                try Set(db.texts("SELECT uuid FROM asset WHERE hasAdjustments = 1"))
            )
        }
    }

    /// How many user albums and folders the library has.
    package func userCollectionCount() throws(StoreError) -> Int {
        try read { db in
            try db.int(
                """
                SELECT COUNT(*) FROM collection
                WHERE (isList = 0 AND type = \(CollectionKind.album)) OR (isList = 1 AND type = \(CollectionKind.folder))
                """) ?? 0
        }
    }
}
