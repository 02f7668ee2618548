public import CoreGraphics
public import Foundation
import Imaging

/// An image as a recipe: its source and the filters and geometry applied to it, rendered only
/// when a ``CIContext`` is asked for pixels, as in Core Image.
///
/// Coordinates are Core Image's: the origin at the bottom left of the source, y up, so
/// `cropped(to: CGRect(x: 0, y: 0, width: w, height: h / 2))` keeps the bottom half.
/// Filters work in Core Image's default working space, linear-light sRGB with premultiplied
/// alpha, and values may leave 0...1 until the context writes them out.
///
/// Linux: backed by libvips; a recipe becomes one libvips pipeline that the context runs on
/// the machine's cores, streaming (no whole-image intermediate buffers). Sources are files
/// and data libvips reads (JPEG, PNG, HEIC, WebP, TIFF, ...) or a ``CGImage``; there is no
/// `CVPixelBuffer`, `IOSurface` or Metal texture. ``properties`` holds the orientation only.
public final class CIImage: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable.
    let recipe: Recipe
    /// Where the image has pixels; `CGRect.infinite` for colours and clamped images.
    public let extent: CGRect
    /// The source's metadata: `"Orientation"` (EXIF) when the file has one.
    public let properties: [String: Any]

    /// An image of `recipe`; its extent follows from the recipe (``Renderer/extent(_:)``, the
    /// one place the rules are written).
    init(recipe: Recipe, properties: [String: Any] = [:]) {
        self.recipe = recipe
        self.extent = Renderer.extent(recipe)
        self.properties = properties
        super.init()
    }

    private convenience init(bitmap: VipsImage, orientation: Int?) {
        var properties: [String: Any] = [:]
        if let orientation, orientation != 1 { properties["Orientation"] = orientation }
        self.init(recipe: .bitmap(bitmap), properties: properties)
    }

    /// An image with `other`'s recipe (for initializers other modules add, such as
    /// `CIImage(image:)` in Photos).
    package convenience init(copying other: CIImage) {
        self.init(recipe: other.recipe, properties: other.properties)
    }

    /// The image in a file; nil when it can't be read. The pixels are as stored (see
    /// ``oriented(forExifOrientation:)`` and ``properties``).
    public convenience init?(contentsOf url: URL) {
        // try?: a file that is not an image is the nil Apple's initializer answers.
        guard let image = try? VipsImage(contentsOf: url) else { return nil }
        self.init(bitmap: image, orientation: image.exifOrientation)
    }

    /// Linux: `options` are not read.
    public convenience init?(contentsOf url: URL, options: [CIImageOption: Any]?) {
        self.init(contentsOf: url)
    }

    /// The image in encoded bytes; nil when they are not an image.
    public convenience init?(data: Data) {
        // try?: as above.
        guard let image = try? VipsImage(data: data) else { return nil }
        self.init(bitmap: image, orientation: image.exifOrientation)
    }

    /// Linux: `options` are not read.
    public convenience init?(data: Data, options: [CIImageOption: Any]?) {
        self.init(data: data)
    }

    /// The bitmap's pixels (sRGB), as stored.
    public convenience init(cgImage: CGImage) {
        self.init(bitmap: cgImage.image, orientation: nil)
    }

    /// Linux: `options` are not read.
    public convenience init(cgImage: CGImage, options: [CIImageOption: Any]?) {
        self.init(cgImage: cgImage)
    }

    /// One colour everywhere (an infinite extent): crop it to use it.
    public convenience init(color: CIColor) {
        let linear = color.linearComponents
        let alpha = linear[3]
        self.init(recipe: .color([linear[0] * alpha, linear[1] * alpha, linear[2] * alpha, alpha]))
    }

    /// An image with no pixels.
    public class func empty() -> CIImage { CIImage(recipe: .empty) }

    public static var black: CIImage { CIImage(color: .black) }
    public static var white: CIImage { CIImage(color: .white) }
    public static var gray: CIImage { CIImage(color: .gray) }
    public static var red: CIImage { CIImage(color: .red) }
    public static var green: CIImage { CIImage(color: .green) }
    public static var blue: CIImage { CIImage(color: .blue) }
    public static var clear: CIImage { CIImage(color: .clear) }

    /// The colour space of the source's pixels: sRGB for images from files, data and
    /// bitmaps (Linux: embedded profiles are not read; pixels are taken as sRGB); nil for
    /// colours and images made by filters from several sources.
    public var colorSpace: CGColorSpace? {
        var recipe = self.recipe
        while true {
            switch recipe {
            case .bitmap: return CGColorSpaceCreateDeviceRGB()
            case .matrix(let inner, _), .curve(let inner, _), .vignette(let inner, _, _, _), .blur(let inner, _), .sharpen(let inner, _, _, _),
                .highlightShadow(let inner, _, _, _), .crop(let inner, _), .transform(let inner, _), .clamp(let inner, _):
                recipe = inner
            case .color, .empty, .over: return nil
            }
        }
    }

    // MARK: Geometry

    /// The part inside `rect`.
    public func cropped(to rect: CGRect) -> CIImage {
        let kept = extent.intersection(rect)
        guard !kept.isNull, !kept.isEmpty else { return .empty() }
        if kept == extent { return self }
        return with(.crop(recipe, kept))
    }

    /// Moved by `matrix` (in Core Image's y-up coordinates), bilinearly resampled.
    public func transformed(by matrix: CGAffineTransform) -> CIImage {
        if matrix.isIdentity { return self }
        if case .transform(let inner, let first) = recipe {
            return with(.transform(inner, first.concatenating(matrix)))
        }
        return with(.transform(recipe, matrix))
    }

    /// Linux: `highQualityDownsample` is not read (every transform is bilinear).
    public func transformed(by matrix: CGAffineTransform, highQualityDownsample: Bool) -> CIImage {
        transformed(by: matrix)
    }

    /// The transform that turns pixels stored with EXIF `orientation` upright, in Core Image's
    /// coordinates, with the result's origin at (0, 0).
    public func orientationTransform(for orientation: CGImagePropertyOrientation) -> CGAffineTransform {
        let (w, h) = (extent.width, extent.height)
        // Each case maps the stored image (y up) to the upright one.
        let t: CGAffineTransform
        switch orientation {
        case .up: t = .identity
        case .upMirrored: t = CGAffineTransform(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)
        case .down: t = CGAffineTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)
        case .downMirrored: t = CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)
        case .leftMirrored: t = CGAffineTransform(a: 0, b: -1, c: -1, d: 0, tx: h, ty: w)
        case .right: t = CGAffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)
        case .rightMirrored: t = CGAffineTransform(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)
        case .left: t = CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)
        }
        return CGAffineTransform(translationX: -extent.minX, y: -extent.minY).concatenating(t)
    }

    /// The image turned upright from pixels stored with `orientation`.
    public func oriented(_ orientation: CGImagePropertyOrientation) -> CIImage {
        transformed(by: orientationTransform(for: orientation))
    }

    /// The image turned upright from pixels stored with EXIF orientation `orientation` (1...8).
    public func oriented(forExifOrientation orientation: Int32) -> CIImage {
        guard let value = CGImagePropertyOrientation(rawValue: UInt32(max(1, orientation))) else { return self }
        return oriented(value)
    }

    /// The edge pixels repeated outward forever (an infinite extent): what blurs and
    /// transforms read past the edge of an image that should not fade.
    public func clampedToExtent() -> CIImage {
        clamped(to: extent)
    }

    /// `rect`'s edge pixels repeated outward forever.
    public func clamped(to rect: CGRect) -> CIImage {
        guard !extent.isInfinite else { return self }
        let inside = rect.intersection(extent).integral
        guard !inside.isNull, !inside.isEmpty else { return .empty() }
        return with(.clamp(recipe, inside))
    }

    /// This image over `destination` (source-over, premultiplied).
    public func composited(over destination: CIImage) -> CIImage {
        if case .empty = destination.recipe { return self }
        if case .empty = recipe { return destination }
        return with(.over(top: recipe, bottom: destination.recipe))
    }

    // MARK: Filters

    /// The output of the filter named `filterName` with this image as `inputImage` and
    /// `params` for its other inputs; this image unchanged when there is no such filter.
    public func applyingFilter(_ filterName: String, parameters params: [String: Any]) -> CIImage {
        guard let filter = CIFilter(name: filterName) else { return self }
        filter.setValue(self, forKey: kCIInputImageKey)
        for (key, value) in params { filter.setValue(value, forKey: key) }
        return filter.outputImage ?? self
    }

    public func applyingFilter(_ filterName: String) -> CIImage {
        applyingFilter(filterName, parameters: [:])
    }

    /// A Gaussian blur of standard deviation `sigma` (the extent grows by 3σ: the blur fades
    /// the edges; clamp first to keep them).
    public func applyingGaussianBlur(sigma: Double) -> CIImage {
        guard sigma > 0 else { return self }
        return with(.blur(recipe, sigma: sigma))
    }

    /// The image with a colour matrix applied; consecutive matrices fuse into one.
    func applyingMatrix(_ matrix: ColorMatrix) -> CIImage {
        switch recipe {
        case .matrix(let inner, let first): with(.matrix(inner, first.then(matrix)))
        case .color(let rgba):
            // A colour stays a colour: the matrix on its unpremultiplied components.
            {
                let alpha = rgba[3]
                let rgb = alpha > 0 ? matrix.apply(rgba.prefix(3).map { $0 / alpha }) : [0, 0, 0]
                return with(.color(rgb.map { $0 * alpha } + [alpha]))
            }()
        default: with(.matrix(recipe, matrix))
        }
    }

    /// An image of another recipe with this one's properties.
    func with(_ recipe: Recipe) -> CIImage {
        CIImage(recipe: recipe, properties: properties)
    }

    public override var description: String { "<CIImage \(extent)>" }
}

extension CGRect {
    /// Edges within a billionth of a whole number put on it: a rotation by π/2 and back
    /// gives the extent it started from, not one a pixel wider after `integral`.
    var snapped: CGRect {
        func snap(_ value: CGFloat) -> CGFloat { abs(value - value.rounded()) < 1e-9 ? value.rounded() : value }
        let (minX, minY, maxX, maxY) = (snap(self.minX), snap(self.minY), snap(self.maxX), snap(self.maxY))
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

/// Keys for the options of ``CIImage``'s initializers. Linux: accepted, not read.
public struct CIImageOption: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let applyOrientationProperty = CIImageOption(rawValue: "kCIImageApplyOrientationProperty")
    public static let colorSpace = CIImageOption(rawValue: "kCIImageColorSpace")
    public static let properties = CIImageOption(rawValue: "kCIImageProperties")
}
