import CoreLocation
import Foundation

extension LibraryDatabase {
    /// Writes the search words of the assets that have none (a library made before v23, or by
    /// a copy that had no index), 2,000 per write transaction; returns how many.
    ///
    /// Runs when a library opens: finding none costs one query.
    @discardableResult
    package func indexUnindexedAssets() throws(StoreError) -> Int {
        var total = 0
        while true {
            let ids = try read { db in
                try db.int64s(
                    """
                    SELECT id FROM asset WHERE NOT EXISTS (SELECT 1 FROM searchDocument WHERE searchDocument.assetID = asset.id) \
                    ORDER BY id LIMIT 2000
                    """)
            }
            guard !ids.isEmpty else { return total }
            // Loaded before the write lock is taken (~0.2 s, once per process).
            let places = GazetteerChoice.custom(gazetteer.gazetteer)
            try write { db in try SearchDocuments(db: db, gazetteer: places).refresh(ids) }
            total += ids.count
        }
    }
}
