public import Foundation

/// An area, as Apple's `CLRegion`: here only to say where ``CLGeocoder`` should look first.
///
/// Linux: there is no region monitoring; `notifyOnEntry`/`notifyOnExit` are kept but nothing
/// reads them.
open class CLRegion: NSObject, @unchecked Sendable {
    // @unchecked Sendable: `identifier` is immutable; the notify flags are plain settings.
    public let identifier: String
    public var notifyOnEntry = true
    public var notifyOnExit = true

    init(identifier: String) {
        self.identifier = identifier
        super.init()
    }
}

/// A circle on the Earth's surface.
open class CLCircularRegion: CLRegion, @unchecked Sendable {
    public let center: CLLocationCoordinate2D
    public let radius: CLLocationDistance

    public init(center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
        self.center = center
        self.radius = radius
        super.init(identifier: identifier)
    }

    /// Whether `coordinate` is inside the circle (its edge included).
    public func contains(_ coordinate: CLLocationCoordinate2D) -> Bool {
        Geo.distance(center.latitude, center.longitude, coordinate.latitude, coordinate.longitude) <= radius
    }
}
