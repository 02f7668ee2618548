import Foundation
import GRDB

/// An asset already holding a file with the same content.
package struct ContentMatch: Sendable, Hashable {
    package var assetUUID: String
    /// `PHAssetResourceType` raw value of the matching file.
    package var resourceType: Int
    /// Whether the asset is in Recently Deleted.
    package var isTrashed: Bool
}

extension LibraryDatabase {
    /// The assets holding a file whose SHA-256 is `hash`.
    ///
    /// Files imported before hashes were kept have none; those of the same size are hashed
    /// now (and the hash stored), so a library made by an older version still finds its
    /// duplicates.
    package func assets(withContentHash hash: String, fileSize: Int64) throws(StoreError) -> [ContentMatch] {
        let (matches, unhashed) = try read { db -> ([ContentMatch], [(id: Int64, path: String)]) in
            let matches = try Self.matches(db, hash)
            let unhashed = try Row.fetchAll(
                db, sql: "SELECT id, path FROM resource WHERE contentHash IS NULL AND fileSize = ?", arguments: [fileSize]
            ).map { (id: $0[0] as Int64, path: $0[1] as String) }
            return (matches, unhashed)
        }
        guard !unhashed.isEmpty else { return matches }
        var filled: [(Int64, String)] = []
        for resource in unhashed {
            // A missing or unreadable original can't be a duplicate; `photos check` reports it.
            if let value = try? ContentHash.sha256(ofFileAt: layout.url(forRelativePath: resource.path)) {
                filled.append((resource.id, value))
            }
        }
        try write { db in
            for (id, value) in filled {
                try db.run(sql: "UPDATE resource SET contentHash = ? WHERE id = ? AND contentHash IS NULL", arguments: [value, id])
            }
        }
        guard filled.contains(where: { $0.1 == hash }) else { return matches }
        return try read { db in try Self.matches(db, hash) }
    }

    private static func matches(_ db: Database, _ hash: String) throws -> [ContentMatch] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT asset.uuid, resource.type, asset.trashedDate IS NOT NULL FROM resource
                JOIN asset ON asset.id = resource.assetID WHERE resource.contentHash = ?
                """,
            arguments: [hash]
        ).map { ContentMatch(assetUUID: $0[0], resourceType: $0[1], isTrashed: $0[2]) }
    }
}
