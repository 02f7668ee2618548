public import Foundation
import PhotosLocking

/// What a geocoding request hands back: the placemarks found, or the error.
public typealias CLGeocodeCompletionHandler = ([CLPlacemark]?, (any Error)?) -> Void

/// Turns coordinates into place names and place names into coordinates, as Apple's
/// `CLGeocoder` does.
///
/// Linux: offline, from the gazetteer the library names its moments from (GeoNames towns and
/// cities at `$PHOTOS_GAZETTEER`, else `~/.local/share/photos/gazetteer.tsv`, written by
/// `scripts/fetch-gazetteer.sh`), so no request leaves the machine and there is no rate
/// limit. Reverse geocoding finds the town or city a coordinate is in (within 30 km, weighed
/// by size) and the district when the point is close to one; forward geocoding
/// (``geocodeAddressString(_:completionHandler:)``) finds towns and cities by name, optionally
/// followed by `, REGION` or `, COUNTRY CODE`, not street addresses. Place names are the
/// gazetteer's (one name per place, mostly in the local language's Latin spelling); the
/// country's name follows the preferred locale (`Locale.current` when nil). Handlers run on a
/// background queue, not the main thread. Without a gazetteer file every request fails with
/// `CLError.network`, as Apple's does offline.
open class CLGeocoder: NSObject, @unchecked Sendable {
    // @unchecked Sendable: the request state is behind `state`'s lock.
    private let gazetteer: @Sendable () -> Gazetteer?
    private let state = Mutex(State())

    private struct State {
        var running = 0
        /// Requests started before the last `cancelGeocode()` whose handlers are still due.
        var generation = 0
    }

    public override init() {
        gazetteer = { Gazetteer.shared }
        super.init()
    }

    /// A geocoder over `choice` (tests and hosts with a gazetteer of their own).
    package convenience init(gazetteer choice: GazetteerChoice) {
        self.init(loading: { choice.gazetteer })
    }

    /// A geocoder whose requests get their gazetteer from `loading`, called on the request's
    /// background queue.
    package init(loading: @escaping @Sendable () -> Gazetteer?) {
        gazetteer = loading
        super.init()
    }

    /// Whether a request is running.
    public var isGeocoding: Bool { state.withLock { $0.running > 0 } }

    /// Cancels the requests running; their handlers get `CLError.geocodeCanceled`.
    public func cancelGeocode() {
        state.withLock { $0.generation += 1 }
    }

    // MARK: Reverse geocoding

    public func reverseGeocodeLocation(_ location: CLLocation, completionHandler: @escaping CLGeocodeCompletionHandler) {
        reverseGeocodeLocation(location, preferredLocale: nil, completionHandler: completionHandler)
    }

    /// The place `location` is in, its country named in `locale`.
    public func reverseGeocodeLocation(
        _ location: CLLocation, preferredLocale locale: Locale?, completionHandler: @escaping CLGeocodeCompletionHandler
    ) {
        run(completionHandler) { gazetteer in
            let coordinate = location.coordinate
            guard CLLocationCoordinate2DIsValid(coordinate),
                let place = gazetteer.nearestPlace(latitude: coordinate.latitude, longitude: coordinate.longitude)
            else {
                throw CLError(.geocodeFoundNoResult, "No town or city within 30 km of \(coordinate.latitude), \(coordinate.longitude)")
            }
            return [CLPlacemark(place: place, location: location, locale: Self.locale(locale))]
        }
    }

    public func reverseGeocodeLocation(_ location: CLLocation) async throws -> [CLPlacemark] {
        try await reverseGeocodeLocation(location, preferredLocale: nil)
    }

    public func reverseGeocodeLocation(_ location: CLLocation, preferredLocale locale: Locale?) async throws -> [CLPlacemark] {
        try await withCheckedThrowingContinuation { continuation in
            reverseGeocodeLocation(location, preferredLocale: locale) { placemarks, error in
                Self.resume(continuation, placemarks, error)
            }
        }
    }

    // MARK: Forward geocoding

    public func geocodeAddressString(_ addressString: String, completionHandler: @escaping CLGeocodeCompletionHandler) {
        geocodeAddressString(addressString, in: nil, preferredLocale: nil, completionHandler: completionHandler)
    }

    /// Towns and cities called the address's first part (`"Porto"`, `"Porto, PT"`,
    /// `"Springfield, Illinois"`), the most populous first; with a ``CLCircularRegion``, those
    /// inside it first.
    public func geocodeAddressString(
        _ addressString: String, in region: CLRegion?, preferredLocale locale: Locale?, completionHandler: @escaping CLGeocodeCompletionHandler
    ) {
        run(completionHandler) { gazetteer in
            let parts = addressString.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            guard let name = parts.first else {
                throw CLError(.geocodeFoundNoResult, "An empty address names no place")
            }
            var found = gazetteer.places(named: name, region: parts.dropFirst().first)
            if let circle = region as? CLCircularRegion {
                // Stable: inside the circle first, each group still by population.
                found = found.filter { circle.contains(CLLocationCoordinate2D(latitude: $0.latitude, longitude: $0.longitude)) }
                    + found.filter { !circle.contains(CLLocationCoordinate2D(latitude: $0.latitude, longitude: $0.longitude)) }
            }
            guard !found.isEmpty else {
                throw CLError(.geocodeFoundNoResult, "No town or city called \"\(addressString)\" in the gazetteer")
            }
            return found.map {
                CLPlacemark(place: $0.place, location: CLLocation(latitude: $0.latitude, longitude: $0.longitude), locale: Self.locale(locale))
            }
        }
    }

    public func geocodeAddressString(_ addressString: String) async throws -> [CLPlacemark] {
        try await withCheckedThrowingContinuation { continuation in
            geocodeAddressString(addressString) { placemarks, error in Self.resume(continuation, placemarks, error) }
        }
    }

    // MARK: Running a request

    /// Runs `lookup` on a background queue and calls `completion` once with its placemarks,
    /// its error, or `.geocodeCanceled` when ``cancelGeocode()`` came first.
    private func run(_ completion: @escaping CLGeocodeCompletionHandler, lookup: @escaping @Sendable (Gazetteer) throws -> [CLPlacemark]) {
        let generation = state.withLock { state in
            state.running += 1
            return state.generation
        }
        // Apple's handler is not @Sendable; it is called once, from the one task below.
        let completion = UncheckedCompletion(handler: completion)
        let source = gazetteer
        DispatchQueue.global(qos: .userInitiated).async {
            var result: Result<[CLPlacemark], any Error>
            if let gazetteer = source() {
                result = Result { try lookup(gazetteer) }
            } else {
                result = .failure(CLError(.network, "No gazetteer at \(Gazetteer.defaultURL().path): run scripts/fetch-gazetteer.sh"))
            }
            let cancelled = self.state.withLock { state in
                state.running -= 1
                return state.generation != generation
            }
            if cancelled { result = .failure(CLError(.geocodeCanceled, "The geocoding request was cancelled")) }
            switch result {
            case .success(let placemarks): completion.handler(placemarks, nil)
            case .failure(let error): completion.handler(nil, error)
            }
        }
    }

    private struct UncheckedCompletion: @unchecked Sendable {
        let handler: CLGeocodeCompletionHandler
    }

    private static func resume(_ continuation: CheckedContinuation<[CLPlacemark], any Error>, _ placemarks: [CLPlacemark]?, _ error: (any Error)?) {
        if let error {
            continuation.resume(throwing: error)
        } else {
            continuation.resume(returning: placemarks ?? [])
        }
    }

    private static func locale(_ preferred: Locale?) -> Locale {
        preferred ?? (Locale.current.identifier.isEmpty || Locale.current.identifier == "en_US_POSIX" ? Locale(identifier: "en") : Locale.current)
    }
}
