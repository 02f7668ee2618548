/// A latitude or longitude in degrees.
public typealias CLLocationDegrees = Double
/// A distance in metres.
public typealias CLLocationDistance = Double
/// An accuracy in metres; negative means invalid.
public typealias CLLocationAccuracy = Double
/// A speed in metres per second; negative means invalid.
public typealias CLLocationSpeed = Double
/// A course in degrees from true north; negative means invalid.
public typealias CLLocationDirection = Double

/// A geographical coordinate, as in Apple's CoreLocation.
///
/// Linux: a stand-in with Apple's member names, so PhotoKit code that reads
/// `asset.location?.coordinate.latitude` compiles unchanged. It has no location services.
public struct CLLocationCoordinate2D: Sendable, Hashable {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees

    public init() {
        self.latitude = 0
        self.longitude = 0
    }

    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// The invalid coordinate Apple defines: both members `-180`.
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)

/// Whether a coordinate lies within ±90° latitude and ±180° longitude.
public func CLLocationCoordinate2DIsValid(_ coordinate: CLLocationCoordinate2D) -> Bool {
    (-90...90).contains(coordinate.latitude) && (-180...180).contains(coordinate.longitude)
        && coordinate.latitude.isFinite && coordinate.longitude.isFinite
}

/// Makes a coordinate, as Apple's C function does.
public func CLLocationCoordinate2DMake(
    _ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees
) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}
