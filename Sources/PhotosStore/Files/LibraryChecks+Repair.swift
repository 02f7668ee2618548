import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

extension LibraryChecks {
    /// Resource rows whose file inside the library is missing (originals referenced in place
    /// and remote ones are not looked at).
    package func resourcesWithMissingFiles() throws(StoreError) -> [SnapshotResource] {
        let rows = try database.read { db in
            try db.rows(
                "SELECT resource.path, resource.fileSize, resource.contentHash, asset.uuid, resource.type FROM resource JOIN asset ON asset.id = resource.assetID"
            ) { SnapshotResource(path: $0.text(0), size: $0.int64(1), contentHash: $0.optionalText(2), assetUUID: $0.text(3), type: $0.int(4)) }
        }
        return rows.filter { row in
            !LibraryLayout.isReferenced(path: row.path) && !LibraryLayout.isRemote(path: row.path)
                && SafeFiles.stat(database.layout.url(forRelativePath: row.path)) == nil
        }
    }

    /// The UUIDs of every asset, and of those with an edit.
    package func assetUUIDs() throws(StoreError) -> (all: Set<String>, edited: Set<String>) {
        try database.read { db in
            (
                try Set(db.texts("SELECT uuid FROM asset")),
                try Set(db.texts("SELECT uuid FROM asset WHERE hasAdjustments = 1"))
            )
        }
    }

    /// How many user albums and folders the library has.
    package func userCollectionCount() throws(StoreError) -> Int {
        try database.read { db in
            try db.int(
                """
                SELECT COUNT(*) FROM collection
                WHERE (isList = 0 AND type = \(CollectionKind.album)) OR (isList = 1 AND type = \(CollectionKind.folder))
                """) ?? 0
        }
    }
}
