import Foundation
internal import CVips

/// Colour and geometry operations for edits. Each returns a new (lazy) image.
extension VipsImage {
    /// Turned clockwise by `quarterTurns` × 90°.
    public func rotated(quarterTurns: Int) throws(ImagingError) -> VipsImage {
        let turns = ((quarterTurns % 4) + 4) % 4
        guard turns != 0 else { return self }
        return try derive("rotate") { cvips_rot(pointer, $0, Int32(turns)) }
    }

    /// 3-band sRGB, 8 bits (alpha flattened onto white, grey expanded).
    public func srgb() throws(ImagingError) -> VipsImage {
        var image = self
        if hasAlpha { image = try image.derive("flatten") { cvips_flatten_white(image.pointer, $0) } }
        image = try image.derive("colourspace") { cvips_colourspace(image.pointer, $0, Int32(VIPS_INTERPRETATION_sRGB.rawValue)) }
        return try image.derive("cast") { cvips_cast_uchar(image.pointer, $0) }
    }

    /// Exposure changed by `stops` (EV): light multiplied by 2^stops in linear light.
    public func exposureAdjusted(stops: Double) throws(ImagingError) -> VipsImage {
        guard stops != 0 else { return self }
        let colour = try srgb()
        let linear = try colour.derive("colourspace") { cvips_colourspace(colour.pointer, $0, Int32(VIPS_INTERPRETATION_scRGB.rawValue)) }
        let factor = pow(2, stops)
        let a = [factor, factor, factor], b = [0.0, 0, 0]
        let brighter = try linear.derive("linear") { out in cvips_linear_float(linear.pointer, out, a, b, 3) }
        let back = try brighter.derive("colourspace") { cvips_colourspace(brighter.pointer, $0, Int32(VIPS_INTERPRETATION_sRGB.rawValue)) }
        return try back.derive("cast") { cvips_cast_uchar(back.pointer, $0) }
    }

    /// Saturation multiplied by `factor` (0: grey, 1: unchanged), on chroma in LCh.
    public func saturationAdjusted(by factor: Double) throws(ImagingError) -> VipsImage {
        guard factor != 1 else { return self }
        let colour = try srgb()
        let lch = try colour.derive("colourspace") { cvips_colourspace(colour.pointer, $0, Int32(VIPS_INTERPRETATION_LCH.rawValue)) }
        let a = [1.0, max(0, factor), 1.0], b = [0.0, 0, 0]
        let scaled = try lch.derive("linear") { out in cvips_linear_float(lch.pointer, out, a, b, 3) }
        let back = try scaled.derive("colourspace") { cvips_colourspace(scaled.pointer, $0, Int32(VIPS_INTERPRETATION_sRGB.rawValue)) }
        return try back.derive("cast") { cvips_cast_uchar(back.pointer, $0) }
    }

    /// Black and white (luminance), as 3-band sRGB; with `tint` (per-band factors on the grey,
    /// such as sepia's 1.07, 0.74, 0.43) a toned monochrome.
    public func monochrome(tint: [Double] = [1, 1, 1]) throws(ImagingError) -> VipsImage {
        let colour = try srgb()
        let grey = try colour.derive("colourspace") { cvips_colourspace(colour.pointer, $0, Int32(VIPS_INTERPRETATION_B_W.rawValue)) }
        let three = try grey.derive("colourspace") { cvips_colourspace(grey.pointer, $0, Int32(VIPS_INTERPRETATION_sRGB.rawValue)) }
        guard tint != [1, 1, 1] else { return try three.derive("cast") { cvips_cast_uchar(three.pointer, $0) } }
        let b = [0.0, 0, 0]
        return try three.derive("linear") { out in cvips_linear_uchar(three.pointer, out, tint, b, 3) }
    }

    /// Converted to a colour profile (`"srgb"`, `"p3"`, `"cmyk"` are built into libvips; else
    /// a profile file's path), which is attached to the result: how tests make photos that
    /// carry Display P3 or CMYK.
    public func converted(toProfile profile: String) throws(ImagingError) -> VipsImage {
        let converted = try derive("icc_transform") { out in profile.withCString { cvips_icc_transform(pointer, out, $0) } }
        return try converted.derive("cast") { cvips_cast_uchar(converted.pointer, $0) }
    }
}
