public import CoreGraphics
public import Foundation

/// An ordered list of numbers: a point, a rectangle, a colour's components or a transform, as
/// filters take them.
public final class CIVector: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: immutable.
    private let values: [CGFloat]

    public init(values: UnsafePointer<CGFloat>, count: Int) {
        self.values = Array(UnsafeBufferPointer(start: values, count: count))
        super.init()
    }

    /// Linux addition: a vector of these values.
    public init(_ values: [CGFloat]) {
        self.values = values
        super.init()
    }

    public convenience init(x: CGFloat) { self.init([x]) }
    public convenience init(x: CGFloat, y: CGFloat) { self.init([x, y]) }
    public convenience init(x: CGFloat, y: CGFloat, z: CGFloat) { self.init([x, y, z]) }
    public convenience init(x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) { self.init([x, y, z, w]) }
    public convenience init(cgPoint point: CGPoint) { self.init([point.x, point.y]) }
    /// `(x, y, width, height)`.
    public convenience init(cgRect rect: CGRect) { self.init([rect.origin.x, rect.origin.y, rect.width, rect.height]) }
    /// `(a, b, c, d, tx, ty)`.
    public convenience init(cgAffineTransform t: CGAffineTransform) { self.init([t.a, t.b, t.c, t.d, t.tx, t.ty]) }

    /// A vector from its string representation, `"[1 2 3]"`.
    public convenience init(string representation: String) {
        let inner = representation.trimmingCharacters(in: CharacterSet(charactersIn: "[] "))
        self.init(inner.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0).map { CGFloat($0) } })
    }

    public var count: Int { values.count }
    /// The value at `index`; 0 past the end, as Core Image answers.
    public func value(at index: Int) -> CGFloat { index >= 0 && index < values.count ? values[index] : 0 }
    public var x: CGFloat { value(at: 0) }
    public var y: CGFloat { value(at: 1) }
    public var z: CGFloat { value(at: 2) }
    public var w: CGFloat { value(at: 3) }
    public var cgPointValue: CGPoint { CGPoint(x: x, y: y) }
    public var cgRectValue: CGRect { CGRect(x: x, y: y, width: z, height: w) }
    public var cgAffineTransformValue: CGAffineTransform {
        CGAffineTransform(a: value(at: 0), b: value(at: 1), c: value(at: 2), d: value(at: 3), tx: value(at: 4), ty: value(at: 5))
    }
    public var stringRepresentation: String { "[" + values.map { "\(Double($0))" }.joined(separator: " ") + "]" }

    public func copy(with zone: NSZone? = nil) -> Any { self }
    public override func isEqual(_ object: Any?) -> Bool { (object as? CIVector)?.values == values }
    public override var hash: Int { values.hashValue }
    public override var description: String { stringRepresentation }
}

/// A colour: red, green, blue and alpha, gamma-encoded sRGB components as Apple's `CIColor`
/// takes them (filters convert them to the linear working space).
public final class CIColor: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: immutable.
    public let red: CGFloat
    public let green: CGFloat
    public let blue: CGFloat
    public let alpha: CGFloat

    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat = 1) {
        (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
        super.init()
    }

    /// A colour from `"r g b a"` (alpha optional), as ``stringRepresentation`` writes it.
    public convenience init(string representation: String) {
        let vector = CIVector(string: representation)
        self.init(red: vector.x, green: vector.y, blue: vector.z, alpha: vector.count > 3 ? vector.w : 1)
    }

    public var numberOfComponents: Int { 4 }
    public var stringRepresentation: String { "\(Double(red)) \(Double(green)) \(Double(blue)) \(Double(alpha))" }
    /// The colour space of the components: sRGB.
    public var colorSpace: CGColorSpace { CGColorSpaceCreateDeviceRGB() }

    public static let black = CIColor(red: 0, green: 0, blue: 0)
    public static let white = CIColor(red: 1, green: 1, blue: 1)
    public static let gray = CIColor(red: 0.5, green: 0.5, blue: 0.5)
    public static let red = CIColor(red: 1, green: 0, blue: 0)
    public static let green = CIColor(red: 0, green: 1, blue: 0)
    public static let blue = CIColor(red: 0, green: 0, blue: 1)
    public static let cyan = CIColor(red: 0, green: 1, blue: 1)
    public static let magenta = CIColor(red: 1, green: 0, blue: 1)
    public static let yellow = CIColor(red: 1, green: 1, blue: 0)
    public static let clear = CIColor(red: 0, green: 0, blue: 0, alpha: 0)

    /// The components in linear light (the working space), not premultiplied.
    var linearComponents: [Double] {
        [Colorimetry.linear(Double(red)), Colorimetry.linear(Double(green)), Colorimetry.linear(Double(blue)), Double(alpha)]
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CIColor else { return false }
        return (red, green, blue, alpha) == (other.red, other.green, other.blue, other.alpha)
    }
    public override var hash: Int { stringRepresentation.hashValue }
    public override var description: String { stringRepresentation }
}

/// The sRGB transfer function and the working space's luminance, shared by the filters and
/// their tests.
package enum Colorimetry {
    /// Rec. 709 / sRGB luminance weights of linear red, green and blue.
    package static let luma: [Double] = [0.2126, 0.7152, 0.0722]

    /// Gamma-encoded sRGB to linear light.
    package static func linear(_ encoded: Double) -> Double {
        let magnitude = abs(encoded)
        let value = magnitude <= 0.04045 ? magnitude / 12.92 : pow((magnitude + 0.055) / 1.055, 2.4)
        return encoded < 0 ? -value : value
    }

    /// Linear light to gamma-encoded sRGB.
    package static func encoded(_ linear: Double) -> Double {
        let magnitude = abs(linear)
        let value = magnitude <= 0.0031308 ? magnitude * 12.92 : 1.055 * pow(magnitude, 1 / 2.4) - 0.055
        return linear < 0 ? -value : value
    }
}
