import CoreLocation
import Foundation

extension LibraryDatabase {
    /// Names the moments written while no gazetteer was installed (located assets,
    /// `locationNames` still `NULL`), and their clusters; returns how many moments it named.
    ///
    /// Runs when a library opens. Finding none costs one query on the moments; otherwise the
    /// gazetteer is loaded before the write transaction, so the writer waits only for the
    /// lookups. Moments looked up with no town near hold `[]` and are not looked up again.
    @discardableResult
    package func nameUnnamedMoments() throws(StoreError) -> Int {
        let gazetteer = try read { db -> Gazetteer? in
            let unnamed = try db.bool(
                """
                    SELECT EXISTS (SELECT 1 FROM collection WHERE isList = 0 AND type = \(literal: CollectionKind.moment)
                    AND locationNames IS NULL AND latitude IS NOT NULL)
                    """) ?? false
            return unnamed ? self.gazetteer.gazetteer : nil
        }
        guard gazetteer != nil else { return 0 }
        // One journaled change, so observers and history see the new titles.
        let (named, position) = try write { db -> (Int, Int64?) in
            let changeID = try ChangeJournal.open(db, date: Date()).opened().id
            let moments = try db.int64s(
                """
                    SELECT id FROM collection WHERE isList = 0 AND type = \(literal: CollectionKind.moment)
                    AND locationNames IS NULL AND latitude IS NOT NULL
                    """)
            let namer = MomentPlaceNamer(gazetteer: .custom(gazetteer))
            var clusters = Set<Int64>()
            for moment in moments {
                let items = try db.rows(
                    """
                    SELECT \(ItemSequence.assetColumns) FROM asset WHERE momentID = \(moment) AND \(ItemSequence.liveAssets) \
                    ORDER BY creationDate, id
                    """, ItemSequence.decode)
                let names = namer.names(for: items)
                guard names.lookedUp else { continue }
                try db.execute(
                    "UPDATE collection SET title = \(names.title), locationNames = \(names.columnValue ?? "[]") WHERE id = \(moment)")
                if let parent = try db.int64("SELECT parentID FROM collection WHERE id = \(moment)") {
                    clusters.insert(parent)
                }
            }
            // A cluster lists its moments' places, most frequent first.
            for cluster in clusters {
                let names = try db.rows("SELECT locationNames FROM collection WHERE parentID = \(cluster) ORDER BY startDate") {
                    $0.optionalText(0)
                }
                let merged = MomentPlaceNames.byFrequency(names.flatMap { MomentPlaceNames.decode($0) })
                try db.execute("UPDATE collection SET locationNames = \(MomentPlaceNames.encode(merged)) WHERE id = \(cluster)")
            }
            try ChangeJournal.close(db, id: changeID)
            return (moments.count, moments.isEmpty ? nil : changeID)
        }
        if let position { engine.postCommit(position: position) }
        return named
    }
}
