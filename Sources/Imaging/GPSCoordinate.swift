public import Foundation

/// Where a photo or video was taken, as the file records it.
public struct GPSCoordinate: Sendable, Equatable, Hashable, Codable {
    /// Degrees north of the equator (negative is south), -90...90.
    public var latitude: Double
    /// Degrees east of Greenwich (negative is west), -180...180.
    public var longitude: Double
    /// Metres above sea level (negative below), when recorded.
    public var altitude: Double?
    /// Horizontal error radius in metres (EXIF GPSHPositioningError), when recorded.
    public var horizontalAccuracy: Double?
    /// When the fix was taken (GPSDateStamp + GPSTimeStamp, UTC), when recorded.
    public var timestamp: Date?
    /// Speed over ground in metres per second, when recorded.
    public var speed: Double?
    /// Direction of travel in degrees clockwise from true/magnetic north (GPSTrack), when recorded.
    public var course: Double?

    /// Creates a coordinate.
    public init(
        latitude: Double, longitude: Double, altitude: Double? = nil, horizontalAccuracy: Double? = nil,
        timestamp: Date? = nil, speed: Double? = nil, course: Double? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.timestamp = timestamp
        self.speed = speed
        self.course = course
    }

    /// True when latitude and longitude are finite and within range.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }
}
