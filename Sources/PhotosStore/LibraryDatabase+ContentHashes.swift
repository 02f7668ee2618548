import Foundation

extension LibraryDatabase {
    /// The SHA-256 of each asset's original (its photo or video resource, where the library
    /// recorded one), by asset UUID: what a cloud identifier carries besides the UUID.
    package func originalContentHashes(assetUUIDs: [String]) throws(StoreError) -> [String: String] {
        guard !assetUUIDs.isEmpty else { return [:] }
        let pairs = try read { db in
            try db.rows(
                """
                SELECT asset.uuid, resource.contentHash FROM resource JOIN asset ON asset.id = resource.assetID \
                WHERE asset.uuid IN (\(StoreSQL.elements(assetUUIDs))) AND resource.type IN (1, 2) AND resource.contentHash IS NOT NULL
                """) { ($0.text(0), $0.text(1)) }
        }
        return Dictionary(pairs, uniquingKeysWith: { first, _ in first })
    }

    /// The UUIDs of the assets whose original has this SHA-256 (through the
    /// `resource_by_contentHash` index), oldest first.
    package func assetUUIDs(originalContentHash hash: String) throws(StoreError) -> [String] {
        try read { db in
            try db.texts(
                """
                SELECT asset.uuid FROM resource JOIN asset ON asset.id = resource.assetID \
                WHERE resource.contentHash = \(hash) AND resource.type IN (1, 2) ORDER BY asset.id
                """)
        }
    }
}
