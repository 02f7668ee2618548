import Foundation
internal import CVips

/// Per-pixel arithmetic, colour matrices, blurs and affine maps on float images: the
/// operations Core Image's renderer (the CoreImage module) builds its graphs from. Each
/// returns a new lazy image; nothing is computed until pixels are asked for.
extension VipsImage {
    /// How to fill what lies outside an image when it is moved or enlarged.
    public enum Extend: Int32, Sendable {
        /// Zero in every band (transparent black).
        case zero = 0
        /// The nearest edge pixel, repeated.
        case copy = 1
    }

    /// The EXIF orientation libvips read from the file (1...8), if any.
    public var exifOrientation: Int? { int("orientation") }

    /// Linear-light float RGB (scRGB) and, when the image has alpha, a fourth band of alpha in
    /// 0...1, not premultiplied. Grey images become three equal bands.
    public func linearRGB() throws(ImagingError) -> VipsImage {
        let colourBands = hasAlpha ? bands - 1 : bands
        let colour = hasAlpha ? try self.bands(0, count: colourBands) : self
        let linear = try colour.derive("colourspace") { cvips_colourspace(colour.pointer, $0, Int32(VIPS_INTERPRETATION_scRGB.rawValue)) }
        guard hasAlpha else { return linear }
        let maxAlpha = vips_image_get_format(pointer) == VIPS_FORMAT_USHORT ? 65_535.0 : 255.0
        let alpha = try self.bands(bands - 1, count: 1).linear([1 / maxAlpha], [0])
        return try linear.joined(with: alpha)
    }

    /// 8-bit sRGB (and alpha) from linear-light float RGB and an optional alpha band in 0...1
    /// (not premultiplied): values outside 0...1 are clipped.
    public func sRGBFromLinear() throws(ImagingError) -> VipsImage {
        let colour = bands == 4 ? try self.bands(0, count: 3) : self
        let tagged = try colour.derive("copy") { cvips_copy_interpretation(colour.pointer, $0, Int32(VIPS_INTERPRETATION_scRGB.rawValue)) }
        let srgb = try tagged.derive("colourspace") { cvips_colourspace(tagged.pointer, $0, Int32(VIPS_INTERPRETATION_sRGB.rawValue)) }
        let eight = try srgb.derive("cast") { cvips_cast_uchar(srgb.pointer, $0) }
        guard bands == 4 else { return eight }
        let alpha = try self.bands(3, count: 1).linear([255], [0.5])
        let alphaBytes = try alpha.derive("cast") { cvips_cast_uchar(alpha.pointer, $0) }
        return try eight.joined(with: alphaBytes)
    }

    /// Cast to 8 bits (values clipped to 0...255).
    public func castToBytes() throws(ImagingError) -> VipsImage {
        try derive("cast") { cvips_cast_uchar(pointer, $0) }
    }

    /// `count` bands from `first`.
    public func bands(_ first: Int, count: Int) throws(ImagingError) -> VipsImage {
        try derive("extract_band") { cvips_extract_bands(pointer, $0, Int32(first), Int32(count)) }
    }

    /// This image's bands followed by `other`'s.
    public func joined(with other: VipsImage) throws(ImagingError) -> VipsImage {
        try derive("bandjoin") { cvips_bandjoin2(pointer, other.pointer, $0) }
    }

    /// `pixel × a + b` per band (one value for every band, or one per band), as float.
    public func linear(_ a: [Double], _ b: [Double]) throws(ImagingError) -> VipsImage {
        let count = max(a.count, b.count)
        let a = a.count == count ? a : Array(repeating: a.first ?? 1, count: count)
        let b = b.count == count ? b : Array(repeating: b.first ?? 0, count: count)
        return try derive("linear") { out in cvips_linear_float(pointer, out, a, b, Int32(count)) }
    }

    /// `matrix` (rows of `bands` values) times each pixel: one output band per row.
    public func recombined(_ matrix: [[Double]]) throws(ImagingError) -> VipsImage {
        let flat = matrix.flatMap { $0 }
        precondition(matrix.allSatisfy { $0.count == bands }, "a recomb matrix has one column per band")
        return try derive("recomb") { out in cvips_recomb(pointer, out, flat, Int32(matrix.count), Int32(bands)) }
    }

    /// The product, band by band (a one-band image multiplies every band).
    public func multiplied(by other: VipsImage) throws(ImagingError) -> VipsImage {
        try derive("multiply") { cvips_multiply(pointer, other.pointer, $0) }
    }

    /// The sum, band by band.
    public func adding(_ other: VipsImage) throws(ImagingError) -> VipsImage {
        try derive("add") { cvips_add(pointer, other.pointer, $0) }
    }

    /// The quotient, band by band (zero where `other` is zero; a one-band divisor divides
    /// every band).
    public func divided(by other: VipsImage) throws(ImagingError) -> VipsImage {
        try derive("divide") { cvips_divide(pointer, other.pointer, $0) }
    }

    /// One band: per pixel the largest (`largest`) or smallest of the first three bands.
    public func bandExtreme(largest: Bool) throws(ImagingError) -> VipsImage {
        try derive("bandrank") { cvips_band_rank3(pointer, $0, largest ? 2 : 0) }
    }

    /// The difference, band by band.
    public func subtracting(_ other: VipsImage) throws(ImagingError) -> VipsImage {
        try derive("subtract") { cvips_subtract(pointer, other.pointer, $0) }
    }

    /// Each value raised to `exponent` (negative values first clipped to 0).
    public func raised(to exponent: Double) throws(ImagingError) -> VipsImage {
        let base = try clippedBelowZero()
        return try base.derive("pow") { cvips_pow_const(base.pointer, $0, exponent) }
    }

    /// `max(value, 0)`: `(value + |value|) / 2`.
    public func clippedBelowZero() throws(ImagingError) -> VipsImage {
        let magnitude = try derive("abs") { cvips_abs(pointer, $0) }
        return try adding(magnitude).linear([0.5], [0])
    }

    /// `min(max(value, 0), 1)`.
    public func clippedToUnit() throws(ImagingError) -> VipsImage {
        // min(v, 1) = 1 - max(1 - v, 0)
        try clippedBelowZero().linear([-1], [1]).clippedBelowZero().linear([-1], [1])
    }

    /// A Gaussian blur of standard deviation `sigma` pixels, in float precision; outside the
    /// image counts as its edge pixels (libvips' own convention).
    public func gaussianBlurred(sigma: Double) throws(ImagingError) -> VipsImage {
        guard sigma > 0 else { return self }
        return try derive("gaussblur") { cvips_gaussblur_float(pointer, $0, sigma) }
    }

    /// The image mapped by the forward transform `x' = a·x + b·y + dx`, `y' = c·x + d·y + dy`
    /// (pixel centres), bilinearly, into the output rectangle `area` (its origin and size in
    /// output coordinates); outside the image: `extend`.
    public func affine(
        _ a: Double, _ b: Double, _ c: Double, _ d: Double, dx: Double, dy: Double,
        area: (x: Int, y: Int, width: Int, height: Int), extend: Extend
    ) throws(ImagingError) -> VipsImage {
        try derive("affine") {
            cvips_affine(
                pointer, $0, a, b, c, d, dx, dy, Int32(area.x), Int32(area.y), Int32(area.width), Int32(area.height), extend.rawValue)
        }
    }

    /// The image placed at (`x`, `y`) in a `width` × `height` image; around it: `extend`.
    public func embedded(x: Int, y: Int, width: Int, height: Int, extend: Extend) throws(ImagingError) -> VipsImage {
        try derive("embed") { cvips_embed(pointer, $0, Int32(x), Int32(y), Int32(width), Int32(height), extend.rawValue) }
    }

    /// A float image of the given size: every pixel's bands are `value`.
    public static func constant(width: Int, height: Int, value: [Double]) throws(ImagingError) -> VipsImage {
        let black = try VipsImage.blackImage(width: width, height: height, bands: 1)
        return try black.linear([0], [value.first ?? 0]).joinedConstants(Array(value.dropFirst()))
    }

    /// The x and y coordinate of each pixel as two float bands.
    public static func coordinates(width: Int, height: Int) throws(ImagingError) -> VipsImage {
        let xy = try makeImage("xyz") { cvips_xyz($0, Int32(width), Int32(height)) }
        return try xy.derive("cast") { cvips_cast_float(xy.pointer, $0) }
    }

    private static func blackImage(width: Int, height: Int, bands: Int) throws(ImagingError) -> VipsImage {
        try makeImage("black") { cvips_black($0, Int32(width), Int32(height), Int32(bands)) }
    }

    private func joinedConstants(_ values: [Double]) throws(ImagingError) -> VipsImage {
        var image = self
        for value in values {
            let current = image
            image = try current.derive("bandjoin_const") { cvips_bandjoin_const1(current.pointer, $0, value) }
        }
        return image
    }

    private static func makeImage(
        _ what: String, _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CVips.VipsImage>?>) -> Int32
    ) throws(ImagingError) -> VipsImage {
        VipsRuntime.ensureInitialized()
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        guard body(&out) == 0, let out else {
            if let out { g_object_unref(out) }
            throw ImagingError.vips(.decodeFailed, "\(what) failed for", url: nil)
        }
        return VipsImage(owning: out, sourceURL: nil)
    }
}
