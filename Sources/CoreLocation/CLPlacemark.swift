public import Foundation

/// A place's description for a coordinate: its town, district, region and country.
///
/// Linux: made by ``CLGeocoder`` from the offline gazetteer (GeoNames towns and cities, see
/// `scripts/fetch-gazetteer.sh`), which knows populated places, not streets: ``locality`` (the
/// town or city), ``subLocality`` (the district, when the point is close to one),
/// ``administrativeArea`` (the first-level region), ``isoCountryCode`` and ``country`` (the
/// country's name in the geocoder's locale) are filled; ``name`` is the district or the town.
/// Streets, postal codes, water bodies, areas of interest and time zones are nil.
open class CLPlacemark: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: every stored property is an immutable `let` of a Sendable type.
    /// Where the place is: the coordinate looked up (reverse geocoding) or the town's centre
    /// (forward geocoding).
    public let location: CLLocation?
    public let name: String?
    public let thoroughfare: String?
    public let subThoroughfare: String?
    public let locality: String?
    public let subLocality: String?
    public let administrativeArea: String?
    public let subAdministrativeArea: String?
    public let postalCode: String?
    public let isoCountryCode: String?
    public let country: String?
    public let inlandWater: String?
    public let ocean: String?
    public let areasOfInterest: [String]?
    public let timeZone: TimeZone?

    /// A copy of `placemark`.
    public init(placemark: CLPlacemark) {
        location = placemark.location
        name = placemark.name
        thoroughfare = placemark.thoroughfare
        subThoroughfare = placemark.subThoroughfare
        locality = placemark.locality
        subLocality = placemark.subLocality
        administrativeArea = placemark.administrativeArea
        subAdministrativeArea = placemark.subAdministrativeArea
        postalCode = placemark.postalCode
        isoCountryCode = placemark.isoCountryCode
        country = placemark.country
        inlandWater = placemark.inlandWater
        ocean = placemark.ocean
        areasOfInterest = placemark.areasOfInterest
        timeZone = placemark.timeZone
        super.init()
    }

    /// A placemark of a gazetteer place, its country named in `locale`.
    init(place: Place, location: CLLocation, locale: Locale) {
        self.location = location
        name = place.district ?? place.name
        thoroughfare = nil
        subThoroughfare = nil
        locality = place.name
        subLocality = place.district
        administrativeArea = place.admin1
        subAdministrativeArea = nil
        postalCode = nil
        isoCountryCode = place.countryCode.isEmpty ? nil : place.countryCode
        country = place.countryCode.isEmpty ? nil : locale.localizedString(forRegionCode: place.countryCode)
        inlandWater = nil
        ocean = nil
        areasOfInterest = nil
        timeZone = nil
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    open override var description: String {
        let parts = [name, locality == name ? nil : locality, administrativeArea, country].compactMap { $0 }
        return "\(parts.joined(separator: ", ")) @ \(location.map { "<\($0.coordinate.latitude),\($0.coordinate.longitude)>" } ?? "?")"
    }
}
