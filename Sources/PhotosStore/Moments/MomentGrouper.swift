import CoreLocation
import Foundation

/// Keeps moments, moment clusters and years up to date as assets arrive, change or leave.
///
/// A moment is a run of assets, in capture-time order, with no gap longer than ``momentGap``
/// and no jump further than ``momentDistance`` between neighbours that both have a location.
/// A cluster is a run of moments with the same rule at ``clusterGap`` / ``clusterDistance``.
/// Years group moments by the calendar year (in the process's time zone) of their start.
///
/// Because splits depend only on neighbouring pairs, a change only needs the run of assets
/// between the nearest splits before and after the changed capture times to be regrouped;
/// everything outside that window keeps its moments (and their identifiers).
///
/// Each moment written gets place names from the offline gazetteer (`Places/`): its
/// `locationNames` are its assets' towns, most frequent first, and its `title` names the main
/// one ("Lisbon", "Lisbon - Alfama", "Lisbon & Sintra"); a cluster lists its moments' places.
///
/// In a library with people each person's assets make their own moments, clusters and years
/// (`owner`): two people's photos of one afternoon are two moments.
struct MomentGrouper {
    let db: any StoreConnection
    let now: Date
    /// Where moments' place names come from.
    let gazetteer: GazetteerChoice
    /// Whose assets are grouped and whose the moments are (`nil`: a library without people).
    var owner: Int64? = nil

    /// Rows of `table` that belong to ``owner``.
    private func owned(_ table: String) -> StoreSQL {
        owner.map { "\(unescaped: table).ownerID = \($0)" } ?? "\(unescaped: table).ownerID IS NULL"
    }

    static let momentGap: Double = 4 * 3600
    static let momentDistance: Double = 10_000
    static let clusterGap: Double = 36 * 3600
    static let clusterDistance: Double = 100_000

    struct Item {
        var id: Int64
        var start: Double
        var end: Double
        var latitude: Double?
        var longitude: Double?
        var group: Int64?
    }

    static func isSplit(_ a: Item, _ b: Item, gap: Double, distance: Double) -> Bool {
        if b.start - a.end > gap { return true }
        if let lat1 = a.latitude, let lon1 = a.longitude, let lat2 = b.latitude, let lon2 = b.longitude {
            return Geo.distance(lat1, lon1, lat2, lon2) > distance
        }
        return false
    }

    func regroup(dates: [Double], oldMoments: Set<Int64>) throws {
        var touchedClusters = try Set(
            db.int64s("SELECT parentID FROM collection WHERE id IN (\(StoreSQL.elements(oldMoments))) AND parentID IS NOT NULL"))
        guard let lo = dates.min(), let hi = dates.max() else {
            try deleteEmptyMoments(oldMoments)
            return
        }
        let assets = ItemSequence.assets(db, owner: owned("asset"))
        let window = self.window(lo: lo, hi: hi, sequence: assets, gap: Self.momentGap, distance: Self.momentDistance)
        let items = try assets.items(from: window.lowerBound, to: window.upperBound)
        let groups = Self.split(items, gap: Self.momentGap, distance: Self.momentDistance)
        let previous = oldMoments.union(items.compactMap(\.group))
        touchedClusters.formUnion(
            try db.int64s("SELECT parentID FROM collection WHERE id IN (\(StoreSQL.elements(previous))) AND parentID IS NOT NULL"))
        try write(groups, reusing: previous, table: .moments, namer: MomentPlaceNamer(gazetteer: gazetteer))
        try deleteEmptyMoments(previous)

        // Clusters: the same rule one level up, over the moments around the window.
        let moments = ItemSequence.moments(db, owner: owned("collection"))
        let clusterWindow = self.window(
            lo: window.lowerBound, hi: window.upperBound, sequence: moments, gap: Self.clusterGap,
            distance: Self.clusterDistance)
        let momentItems = try moments.items(from: clusterWindow.lowerBound, to: clusterWindow.upperBound)
        let clusters = Self.split(momentItems, gap: Self.clusterGap, distance: Self.clusterDistance)
        try write(
            clusters, reusing: touchedClusters.union(momentItems.compactMap(\.group)), table: .clusters,
            namer: nil)
        try db.execute(
            """
                DELETE FROM collection WHERE isList = 1 AND type = 1 AND subtype = 1 AND \(owned("collection"))
                AND NOT EXISTS (SELECT 1 FROM collection AS child WHERE child.parentID = collection.id)
                """)
        try updateYears(from: min(window.lowerBound, lo), to: max(window.upperBound, hi))
    }

    /// The capture-time range to regroup. It reaches past the changed range to the nearest
    /// neighbour on each side (the pair a removal or move creates involves them), then on to
    /// the first split between unchanged neighbours, which was a split before the change too.
    private func window(lo: Double, hi: Double, sequence: ItemSequence, gap: Double, distance: Double) -> ClosedRange<Double> {
        var start = lo
        let before = sequence.items(before: lo).makeIterator()
        if var current = before.next() {
            while let item = before.next(), !Self.isSplit(item, current, gap: gap, distance: distance) {
                current = item
            }
            start = current.start
        }
        var end = hi
        let after = sequence.items(after: hi).makeIterator()
        if var current = after.next() {
            while let item = after.next(), !Self.isSplit(current, item, gap: gap, distance: distance) {
                current = item
            }
            end = current.start
        }
        return start...end
    }

    static func split(_ items: [Item], gap: Double, distance: Double) -> [[Item]] {
        var groups: [[Item]] = []
        for item in items {
            if let last = groups.last?.last, !isSplit(last, item, gap: gap, distance: distance) {
                groups[groups.count - 1].append(item)
            } else {
                groups.append([item])
            }
        }
        return groups
    }

    enum Table { case moments, clusters }

    /// Writes groups as moments (or clusters), keeping the identifier of the old group that
    /// shares most members with each new one, with their place names.
    private func write(_ groups: [[Item]], reusing old: Set<Int64>, table: Table, namer: MomentPlaceNamer?) throws {
        var available = old
        let ranked = groups.indices.sorted { groups[$0].count > groups[$1].count }
        var assigned: [Int: Int64] = [:]
        for index in ranked {
            var counts: [Int64: Int] = [:]
            for item in groups[index] { if let group = item.group, available.contains(group) { counts[group, default: 0] += 1 } }
            if let best = counts.max(by: { ($0.value, -$0.key) < ($1.value, -$1.key) })?.key {
                assigned[index] = best
                available.remove(best)
            }
        }
        let momentNames = table == .clusters ? try locationNames(ofMoments: groups.flatMap { $0.map(\.id) }) : [:]
        for (index, group) in groups.enumerated() {
            let names: MomentPlaceNames
            if let namer {
                names = namer.names(for: group)
            } else {
                // A cluster lists its moments' places; it has no title (as in Photos).
                names = MomentPlaceNames(
                    locationNames: MomentPlaceNames.byFrequency(group.flatMap { momentNames[$0.id] ?? [] }))
            }
            let locationNames = table == .moments ? names.columnValue : MomentPlaceNames.encode(names.locationNames)
            let start = group.map(\.start).min() ?? 0
            let end = group.map(\.end).max() ?? 0
            let located = group.filter { $0.latitude != nil && $0.longitude != nil }
            let latitude = located.isEmpty ? nil : located.compactMap(\.latitude).reduce(0, +) / Double(located.count)
            let longitude = located.isEmpty ? nil : located.compactMap(\.longitude).reduce(0, +) / Double(located.count)
            let id: Int64
            if let existing = assigned[index] {
                id = existing
                try db.execute(
                    """
                        UPDATE collection SET startDate = \(start), endDate = \(end), latitude = \(latitude), longitude = \(longitude),
                        title = \(names.title), locationNames = \(locationNames) WHERE id = \(id)
                        """)
            } else {
                let (isList, type, subtype) = table == .moments ? (0, CollectionKind.moment, CollectionKind.albumRegular)
                    : (1, CollectionKind.momentList, CollectionKind.momentListCluster)
                var row = TableRow<CollectionColumn>()
                row[.uuid] = UUID().uuidString
                row[.isList] = isList
                row[.type] = type
                row[.subtype] = subtype
                row[.title] = names.title
                row[.startDate] = start
                row[.endDate] = end
                row[.latitude] = latitude
                row[.longitude] = longitude
                row[.locationNames] = locationNames
                row[.creationDate] = now
                row[.ownerID] = owner
                id = try db.insert(CollectionColumn.insert(row))
            }
            let members = group.filter { $0.group != id }.map(\.id)
            guard !members.isEmpty else { continue }
            try db.execute(
                table == .moments
                    ? "UPDATE asset SET momentID = \(id) WHERE id IN (\(StoreSQL.elements(members)))"
                    : "UPDATE collection SET parentID = \(id) WHERE id IN (\(StoreSQL.elements(members)))")
        }
    }

    /// The place names already written for these moments.
    private func locationNames(ofMoments ids: [Int64]) throws -> [Int64: [String]] {
        guard !ids.isEmpty else { return [:] }
        var names: [Int64: [String]] = [:]
        let rows = try db.rows(
            """
            SELECT id, locationNames FROM collection
            WHERE id IN (\(StoreSQL.elements(ids))) AND locationNames IS NOT NULL
            """
        ) { (id: $0.int64(0), names: $0.text(1)) }
        for row in rows { names[row.id] = MomentPlaceNames.decode(row.names) }
        return names
    }

    private func deleteEmptyMoments(_ candidates: Set<Int64>) throws {
        guard !candidates.isEmpty else { return }
        try db.execute(
            """
                DELETE FROM collection WHERE id IN (\(StoreSQL.elements(candidates))) AND isList = 0 AND type = 3
                AND NOT EXISTS (SELECT 1 FROM asset WHERE asset.momentID = collection.id)
                """)
    }

    /// Makes sure each year between `start` and `end` has a year list exactly when it has moments.
    private func updateYears(from start: Double, to end: Double) throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let first = calendar.component(.year, from: Date(timeIntervalSince1970: start))
        let last = calendar.component(.year, from: Date(timeIntervalSince1970: end))
        guard first <= last, last - first < 10_000 else { return }
        for year in first...last {
            guard let yearStart = calendar.date(from: DateComponents(year: year, month: 1, day: 1)),
                let yearEnd = calendar.date(from: DateComponents(year: year + 1, month: 1, day: 1))
            else { continue }
            let hasMoments = try db.bool(
                """
                SELECT EXISTS (SELECT 1 FROM collection WHERE isList = 0 AND type = 3 AND \(owned("collection")) \
                AND startDate >= \(yearStart) AND startDate < \(yearEnd))
                """
            ) ?? false
            let existing = try db.int64(
                "SELECT id FROM collection WHERE isList = 1 AND type = 1 AND subtype = 2 AND \(owned("collection")) AND startDate = \(yearStart)")
            if hasMoments && existing == nil {
                var row = TableRow<CollectionColumn>()
                row[.uuid] = UUID().uuidString
                row[.isList] = 1
                row[.type] = CollectionKind.momentList
                row[.subtype] = CollectionKind.momentListYear
                row[.title] = String(year)
                row[.startDate] = yearStart
                row[.endDate] = yearEnd
                row[.creationDate] = now
                row[.ownerID] = owner
                try db.execute(CollectionColumn.insert(row))
            } else if !hasMoments, let existing {
                try db.execute("DELETE FROM collection WHERE id = \(existing)")
            }
        }
    }
}
