extension Gazetteer {
    /// A town or city found by its name, with where it is.
    package struct NamedPlace: Sendable, Hashable {
        package var place: Place
        package var latitude: Double
        package var longitude: Double
        package var population: Int
    }

    /// The towns and cities called `name` (compared without regard to case), the most
    /// populous first, at most `limit`. `region`, when given, keeps those whose first-level
    /// region or country code is it (any case). A scan of every entry: milliseconds for the
    /// GeoNames list of ~200,000 places.
    package func places(named name: String, region: String? = nil, limit: Int = 10) -> [NamedPlace] {
        let wanted = name.lowercased()
        let byteCount = wanted.utf8.count
        guard byteCount > 0 else { return [] }
        let region = region?.lowercased()
        var found: [NamedPlace] = []
        for entry in entries where entry.kind == .place {
            // Names of another length can't match (case mapping keeps the length of nearly all
            // place names; the rare one that doesn't is not found).
            guard Int(entry.name.count) == byteCount, string(entry.name).lowercased() == wanted else { continue }
            let admin1 = string(entry.admin1)
            let country = Self.countryString(entry.country)
            if let region, admin1.lowercased() != region, country.lowercased() != region { continue }
            found.append(
                NamedPlace(
                    place: Place(name: string(entry.name), admin1: admin1.isEmpty ? nil : admin1, countryCode: country),
                    latitude: entry.latitude, longitude: entry.longitude, population: Int(entry.population)))
        }
        return Array(found.sorted { $0.population > $1.population }.prefix(limit))
    }
}
