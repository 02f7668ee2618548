import CoreLocation
import Foundation
import GRDB

/// Names moments from the places of their assets, for one regroup.
///
/// Places are looked up through ``NearestPlaces``: the gazetteer loaded on first need, each
/// coordinate rounded to about 100 m looked up once.
final class MomentPlaceNamer {
    private var places: NearestPlaces

    init(gazetteer choice: GazetteerChoice) {
        places = NearestPlaces(gazetteer: choice)
    }

    /// The title and location names of a moment with these members; `lookedUp` is false when
    /// some are located but no gazetteer is installed (the moment is named once there is one,
    /// see `LibraryDatabase.nameUnnamedMoments()`).
    func names(for items: [MomentGrouper.Item]) -> MomentPlaceNames {
        var found: [Place] = []
        for item in items {
            guard let latitude = item.latitude, let longitude = item.longitude else { continue }
            guard places.hasGazetteer() else { return MomentPlaceNames(lookedUp: false) }
            if let place = places.place(latitude: latitude, longitude: longitude) { found.append(place) }
        }
        var names = MomentPlaceNames(places: found)
        names.located = items.contains { $0.latitude != nil && $0.longitude != nil }
        return names
    }
}

/// A moment's `title` and `locationNames`, as Photos shows them: the places of its assets,
/// most frequent first, and a title naming the main one ("Lisbon"), with its district when
/// most located assets are in the same one ("Lisbon - Alfama"), or the two main places of a
/// moment that spans several ("Lisbon & Sintra").
struct MomentPlaceNames: Equatable {
    var title: String?
    var locationNames: [String] = []
    /// Whether the moment has located assets, looked up in a gazetteer.
    var located = false
    /// False when it has located assets but no gazetteer was there to name them.
    var lookedUp = true

    init(title: String? = nil, locationNames: [String] = []) {
        self.title = title
        self.locationNames = locationNames
    }

    init(lookedUp: Bool) {
        self.lookedUp = lookedUp
        located = true
    }

    /// The `locationNames` column's value: `NULL` for a moment without located assets or not
    /// looked up yet, `[]` for one looked up with no town near.
    var columnValue: String? {
        guard lookedUp else { return nil }
        if locationNames.isEmpty { return located ? "[]" : nil }
        return Self.encode(locationNames)
    }

    /// Names for the places of a moment's located assets, in capture order.
    init(places: [Place]) {
        locationNames = Self.byFrequency(places.map(\.name))
        guard let main = locationNames.first else { return }
        if locationNames.count > 1 {
            title = "\(main) & \(locationNames[1])"
            return
        }
        let districts = Self.byFrequency(places.compactMap(\.district))
        if let district = districts.first,
            places.filter({ $0.district == district }).count * 2 > places.count
        {
            title = "\(main) - \(district)"
        } else {
            title = main
        }
    }

    /// Distinct values, most frequent first (ties: first seen first).
    static func byFrequency(_ values: [String]) -> [String] {
        var counts: [String: Int] = [:]
        var order: [String] = []
        for value in values {
            if counts[value] == nil { order.append(value) }
            counts[value, default: 0] += 1
        }
        return order.enumerated()
            .sorted { (counts[$0.element]!, -$0.offset) > (counts[$1.element]!, -$1.offset) }
            .map(\.element)
    }

    /// The `locationNames` column's value: a JSON array, or `NULL` when empty.
    static func encode(_ names: [String]) -> String? {
        guard !names.isEmpty else { return nil }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        guard let data = try? encoder.encode(names) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// Decodes the `locationNames` column.
    static func decode(_ text: String?) -> [String] {
        guard let text, let names = try? JSONDecoder().decode([String].self, from: Data(text.utf8)) else { return [] }
        return names
    }
}
