public import Foundation

/// A location: coordinate, altitude, their accuracies, course, speed and a timestamp.
///
/// Linux: a stand-in for Apple's class with the same initializers and members. As on Apple's
/// platforms an instance is immutable, and equality is identity (Apple's `CLLocation` does not
/// override `isEqual(_:)`); compare ``coordinate`` values instead. Defaults follow Apple:
/// `init(latitude:longitude:)` gives a horizontal accuracy of 0, an invalid (negative) vertical
/// accuracy, course and speed, and the current time as ``timestamp``.
open class CLLocation: NSObject, NSCopying, NSSecureCoding, @unchecked Sendable {
    // @unchecked Sendable: every stored property is an immutable `let` of a Sendable type.
    public let coordinate: CLLocationCoordinate2D
    public let altitude: CLLocationDistance
    public let horizontalAccuracy: CLLocationAccuracy
    public let verticalAccuracy: CLLocationAccuracy
    public let course: CLLocationDirection
    public let courseAccuracy: CLLocationDirection
    public let speed: CLLocationSpeed
    public let speedAccuracy: CLLocationSpeed
    public let timestamp: Date

    public convenience init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.init(
            coordinate: CLLocationCoordinate2D(latitude: latitude, longitude: longitude),
            altitude: 0, horizontalAccuracy: 0, verticalAccuracy: -1,
            course: -1, courseAccuracy: -1, speed: -1, speedAccuracy: -1, timestamp: Date())
    }

    public convenience init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, timestamp: Date
    ) {
        self.init(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: hAccuracy,
            verticalAccuracy: vAccuracy, course: -1, courseAccuracy: -1, speed: -1,
            speedAccuracy: -1, timestamp: timestamp)
    }

    public convenience init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, course: CLLocationDirection,
        speed: CLLocationSpeed, timestamp: Date
    ) {
        self.init(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: hAccuracy,
            verticalAccuracy: vAccuracy, course: course, courseAccuracy: -1, speed: speed,
            speedAccuracy: -1, timestamp: timestamp)
    }

    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance,
        horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, course: CLLocationDirection,
        courseAccuracy: CLLocationDirection, speed: CLLocationSpeed,
        speedAccuracy: CLLocationSpeed, timestamp: Date
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        self.horizontalAccuracy = hAccuracy
        self.verticalAccuracy = vAccuracy
        self.course = course
        self.courseAccuracy = courseAccuracy
        self.speed = speed
        self.speedAccuracy = speedAccuracy
        self.timestamp = timestamp
        super.init()
    }

    /// The great-circle distance in metres to another location (haversine, mean Earth radius).
    public func distance(from location: CLLocation) -> CLLocationDistance {
        Geo.distance(coordinate.latitude, coordinate.longitude, location.coordinate.latitude, location.coordinate.longitude)
    }

    open override var description: String {
        let lat = String(format: "%+.8f", coordinate.latitude)
        let lon = String(format: "%+.8f", coordinate.longitude)
        return "<\(lat),\(lon)> +/- \(horizontalAccuracy)m (alt \(altitude)m +/- \(verticalAccuracy)m) @ \(timestamp)"
    }

    // MARK: - NSCopying, NSSecureCoding

    open func copy(with zone: NSZone? = nil) -> Any { self }

    public static var supportsSecureCoding: Bool { true }

    private enum CodingKey: String, CaseIterable {
        case latitude, longitude, altitude, horizontalAccuracy, verticalAccuracy
        case course, courseAccuracy, speed, speedAccuracy
    }

    open func encode(with coder: NSCoder) {
        let values: [CodingKey: Double] = [
            .latitude: coordinate.latitude, .longitude: coordinate.longitude, .altitude: altitude,
            .horizontalAccuracy: horizontalAccuracy, .verticalAccuracy: verticalAccuracy,
            .course: course, .courseAccuracy: courseAccuracy, .speed: speed,
            .speedAccuracy: speedAccuracy,
        ]
        for (key, value) in values { coder.encode(value, forKey: key.rawValue) }
        coder.encode(timestamp.timeIntervalSinceReferenceDate, forKey: "timestamp")
    }

    public required convenience init?(coder: NSCoder) {
        func value(_ key: CodingKey) -> Double { coder.decodeDouble(forKey: key.rawValue) }
        self.init(
            coordinate: CLLocationCoordinate2D(latitude: value(.latitude), longitude: value(.longitude)),
            altitude: value(.altitude), horizontalAccuracy: value(.horizontalAccuracy),
            verticalAccuracy: value(.verticalAccuracy), course: value(.course),
            courseAccuracy: value(.courseAccuracy), speed: value(.speed),
            speedAccuracy: value(.speedAccuracy),
            timestamp: Date(timeIntervalSinceReferenceDate: coder.decodeDouble(forKey: "timestamp")))
    }
}
