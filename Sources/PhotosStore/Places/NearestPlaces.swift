import CoreLocation

/// The gazetteer's nearest place to a coordinate, for one pass over many assets (a moment
/// regroup, a batch of search words): the gazetteer is resolved on first need (so a pass
/// without located assets never loads it), and each coordinate, rounded to about 100 m, is
/// looked up once.
struct NearestPlaces {
    private let choice: GazetteerChoice
    private var resolved = false
    private var gazetteer: Gazetteer?
    private var cache: [Cell: Place?] = [:]

    /// A coordinate rounded to a thousandth of a degree.
    private struct Cell: Hashable {
        var latitude: Int32
        var longitude: Int32
    }

    init(gazetteer choice: GazetteerChoice) {
        self.choice = choice
    }

    /// Whether there is a gazetteer to look places up in (resolved now if not yet).
    mutating func hasGazetteer() -> Bool {
        resolve() != nil
    }

    /// The nearest place the gazetteer has; nil when none is near, or there is no gazetteer.
    mutating func place(latitude: Double, longitude: Double) -> Place? {
        guard let gazetteer = resolve() else { return nil }
        let cell = Cell(latitude: Int32((latitude * 1000).rounded()), longitude: Int32((longitude * 1000).rounded()))
        if let cached = cache[cell] { return cached }
        let place = gazetteer.nearestPlace(latitude: latitude, longitude: longitude)
        cache[cell] = .some(place)
        return place
    }

    private mutating func resolve() -> Gazetteer? {
        if !resolved {
            gazetteer = choice.gazetteer
            resolved = true
        }
        return gazetteer
    }
}
