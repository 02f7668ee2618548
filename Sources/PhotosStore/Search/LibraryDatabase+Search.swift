import CoreLocation
import Foundation

extension LibraryDatabase {
    /// The `libraryInfo` key set once every asset has its search words: from then on each
    /// change writes those of the assets it touches, and opening looks no further.
    static let searchIndexedKey = "searchIndexed"

    /// Writes the search words of the assets that have none (a library made before v23),
    /// 2,000 per write transaction, then records that all have them; returns how many.
    ///
    /// Runs when a library opens; once done, it costs one read of `libraryInfo`.
    @discardableResult
    package func indexUnindexedAssets() throws(StoreError) -> Int {
        let done = try read { db in try db.text("SELECT value FROM libraryInfo WHERE key = \(Self.searchIndexedKey)") } != nil
        guard !done else { return 0 }
        var total = 0
        while true {
            let ids = try read { db in
                try db.int64s(
                    """
                    SELECT id FROM asset WHERE NOT EXISTS (SELECT 1 FROM searchDocument WHERE searchDocument.assetID = asset.id) \
                    ORDER BY id LIMIT 2000
                    """)
            }
            guard !ids.isEmpty else { break }
            // Loaded before the write lock is taken (~0.2 s, once per process).
            let places = GazetteerChoice.custom(gazetteer.gazetteer)
            try write { db in try SearchDocuments(db: db, gazetteer: places).refresh(ids) }
            total += ids.count
        }
        try write { db in
            try db.execute(
                """
                INSERT INTO libraryInfo (key, value) VALUES (\(Self.searchIndexedKey), '1') \
                ON CONFLICT (key) DO UPDATE SET value = excluded.value
                """)
        }
        return total
    }
}
