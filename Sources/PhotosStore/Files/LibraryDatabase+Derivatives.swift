import Foundation

/// A photo's current version, as derivatives are made from it.
package struct CurrentImageFile: Sendable {
    package var assetUUID: String
    /// The rendered edit, or the original.
    package var path: String
}

extension LibraryDatabase {
    /// Every photo's current version (its edit's render, else its original), Recently Deleted
    /// included, in import order.
    package func currentImageFiles() throws(StoreError) -> [CurrentImageFile] {
        try read { db in
            try db.rows(
                """
                    SELECT asset.uuid, COALESCE(
                        (SELECT path FROM resource WHERE assetID = asset.id AND type = 5),
                        (SELECT path FROM resource WHERE assetID = asset.id AND type = 1))
                    FROM asset WHERE asset.mediaType = 1 ORDER BY asset.id
                    """
            ) { row in row.optionalText(1).map { CurrentImageFile(assetUUID: row.text(0), path: $0) } }
            .compactMap { $0 }
        }
    }
}
