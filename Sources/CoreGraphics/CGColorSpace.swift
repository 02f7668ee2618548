/// A colour space, by name, as Core Graphics has them: what Core Image's contexts work and
/// write in, and what a ``CGImage``'s pixels mean.
///
/// Linux: names are `String`s (Apple's are `CFString`s with the same text). The spaces Core
/// Image renders in are sRGB, linear sRGB (extended or not), Display P3 and grey; others are
/// known by name only (``supportsOutput`` is false).
public final class CGColorSpace: Sendable, Hashable, CustomStringConvertible {
    public static let sRGB = "kCGColorSpaceSRGB"
    public static let extendedSRGB = "kCGColorSpaceExtendedSRGB"
    public static let linearSRGB = "kCGColorSpaceLinearSRGB"
    public static let extendedLinearSRGB = "kCGColorSpaceExtendedLinearSRGB"
    public static let displayP3 = "kCGColorSpaceDisplayP3"
    public static let extendedLinearDisplayP3 = "kCGColorSpaceExtendedLinearDisplayP3"
    public static let genericRGBLinear = "kCGColorSpaceGenericRGBLinear"
    public static let genericGrayGamma2_2 = "kCGColorSpaceGenericGrayGamma2_2"
    public static let linearGray = "kCGColorSpaceLinearGray"
    public static let extendedGray = "kCGColorSpaceExtendedGray"
    public static let itur_709 = "kCGColorSpaceITUR_709"
    public static let itur_2020 = "kCGColorSpaceITUR_2020"
    public static let adobeRGB1998 = "kCGColorSpaceAdobeRGB1998"

    /// What each known name is: its model, whether its values are linear light, whether they
    /// may leave 0...1, whether Core Image renders into it.
    private static let known: [String: (model: CGColorSpaceModel, linear: Bool, extended: Bool, output: Bool)] = [
        sRGB: (.rgb, false, false, true), extendedSRGB: (.rgb, false, true, true),
        linearSRGB: (.rgb, true, false, true), extendedLinearSRGB: (.rgb, true, true, true),
        displayP3: (.rgb, false, false, true), extendedLinearDisplayP3: (.rgb, true, true, false),
        genericRGBLinear: (.rgb, true, false, true), genericGrayGamma2_2: (.monochrome, false, false, true),
        linearGray: (.monochrome, true, false, true), extendedGray: (.monochrome, false, true, false),
        itur_709: (.rgb, false, false, false), itur_2020: (.rgb, false, false, false), adobeRGB1998: (.rgb, false, false, false),
    ]

    /// The space's name (one of the static names).
    public let name: String?

    /// The space named `name`; nil for a name Core Graphics doesn't define.
    public init?(name: String) {
        guard Self.known[name] != nil else { return nil }
        self.name = name
    }

    public var model: CGColorSpaceModel { Self.known[name ?? ""]?.model ?? .rgb }
    public var numberOfComponents: Int { model == .monochrome ? 1 : 3 }
    /// Whether Core Image on Linux can render into this space.
    public var supportsOutput: Bool { Self.known[name ?? ""]?.output ?? false }
    public var isWideGamutRGB: Bool { name == Self.displayP3 || name == Self.extendedLinearDisplayP3 || name == Self.itur_2020 }
    /// Whether values are linear light (package: how Core Image converts into it).
    package var isLinear: Bool { Self.known[name ?? ""]?.linear ?? false }
    /// Whether values may leave 0...1 (package: Core Image clamps otherwise).
    package var isExtended: Bool { Self.known[name ?? ""]?.extended ?? false }

    public static func == (lhs: CGColorSpace, rhs: CGColorSpace) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { "<CGColorSpace \(name ?? "?")>" }
}

/// A colour space's kind. Raw values are Core Graphics'.
public enum CGColorSpaceModel: Int32, Sendable {
    case unknown = -1
    case monochrome = 0
    case rgb = 1
    case cmyk = 2
    case lab = 3
}

/// Core Graphics' device RGB space: sRGB here.
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace {
    CGColorSpace(name: CGColorSpace.sRGB)!
}

/// Core Graphics' device grey space: gamma 2.2 grey here.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace {
    CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)!
}
