internal import CVips

extension VipsImage {
    /// A real sRGB image, computed rather than loaded: red grows left to right, green top to
    /// bottom, blue is constant. Useful for tests that need genuine photos of any size.
    public static func gradient(width: Int, height: Int, blue: Double = 128) throws(ImagingError) -> VipsImage {
        try synthetic(width: width, height: height, noise: 0, blue: blue)
    }

    /// Like `gradient`, with Gaussian noise of standard deviation `sigma` added, so that encoders
    /// cannot compress it to almost nothing (closer to a real photo's file size).
    public static func noisyGradient(width: Int, height: Int, sigma: Double = 24) throws(ImagingError) -> VipsImage {
        try synthetic(width: width, height: height, noise: sigma, blue: 128)
    }

    /// One sRGB colour everywhere (8-bit values).
    public static func solid(width: Int, height: Int, rgb: [Double]) throws(ImagingError) -> VipsImage {
        VipsRuntime.ensureInitialized()
        try checkBox(width: width, height: height, url: nil)
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        guard cvips_black(&out, Int32(width), Int32(height), 3) == 0, let out else {
            throw ImagingError(.decodeFailed, "cannot make a \(width)x\(height) test image: \(VipsRuntime.takeErrorBuffer())")
        }
        let black = VipsImage(owning: out, sourceURL: nil)
        let a = [0.0, 0, 0], b = Array(rgb.prefix(3))
        let coloured = try black.derive("linear") { cvips_linear_uchar(black.pointer, $0, a, b, 3) }
        return try coloured.derive("interpretation") {
            cvips_copy_interpretation(coloured.pointer, $0, Int32(VIPS_INTERPRETATION_sRGB.rawValue))
        }
    }

    /// Black text on white (one band), rendered by Pango at `dpi` with a margin of half its
    /// height around it: a document's or a screenshot's words, for text recognition tests.
    public static func text(_ text: String, dpi: Int = 300) throws(ImagingError) -> VipsImage {
        VipsRuntime.ensureInitialized()
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        guard cvips_text(&out, text, Int32(dpi)) == 0, let out else {
            throw ImagingError(.decodeFailed, "cannot render text: \(VipsRuntime.takeErrorBuffer())")
        }
        let mask = VipsImage(owning: out, sourceURL: nil)
        let margin = max(8, mask.height / 2)
        let framed = try mask.derive("embed") {
            cvips_embed(mask.pointer, $0, Int32(margin), Int32(margin), Int32(mask.width + 2 * margin), Int32(mask.height + 2 * margin), 0)
        }
        return try framed.derive("invert") { cvips_linear_uchar(framed.pointer, $0, [-1], [255], 1) }
    }

    private static func synthetic(width: Int, height: Int, noise: Double, blue: Double) throws(ImagingError) -> VipsImage {
        VipsRuntime.ensureInitialized()
        try checkBox(width: width, height: height, url: nil)
        func make(_ what: String, _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CVips.VipsImage>?>) -> Int32)
            throws(ImagingError) -> VipsImage
        {
            var out: UnsafeMutablePointer<CVips.VipsImage>?
            guard body(&out) == 0, let out else {
                throw ImagingError(.decodeFailed, "cannot make a \(width)x\(height) test image (\(what)): \(VipsRuntime.takeErrorBuffer())")
            }
            return VipsImage(owning: out, sourceURL: nil)
        }
        // Two bands, x and y; add a third constant band; scale to 0...255 per band.
        let xy = try make("xyz") { cvips_xyz($0, Int32(width), Int32(height)) }
        var xyb = try make("bandjoin") { cvips_bandjoin_const1(xy.pointer, $0, blue) }
        if noise > 0 {
            let n = try make("noise") { cvips_gaussnoise($0, Int32(width), Int32(height), 0, noise) }
            let n3a = try make("noise") { cvips_bandjoin2(n.pointer, n.pointer, $0) }
            let n3 = try make("noise") { cvips_bandjoin2(n3a.pointer, n.pointer, $0) }
            let scaledFirst = xyb
            // Scale first so noise is in 0...255 units, then add.
            let a = [255.0 / Double(max(1, width - 1)), 255.0 / Double(max(1, height - 1)), 1]
            let b = [0.0, 0, 0]
            let scaled = try make("linear") { cvips_linear_float(scaledFirst.pointer, $0, a, b, 3) }
            let sum = try make("add") { cvips_add(scaled.pointer, n3.pointer, $0) }
            let rgb = try make("cast") { cvips_linear_uchar(sum.pointer, $0, [1, 1, 1], [0, 0, 0], 3) }
            return try make("srgb") { cvips_copy_interpretation(rgb.pointer, $0, Int32(VIPS_INTERPRETATION_sRGB.rawValue)) }
        }
        let a = [255.0 / Double(max(1, width - 1)), 255.0 / Double(max(1, height - 1)), 1]
        let b = [0.0, 0, 0]
        xyb = try make("linear") { cvips_linear_uchar(xyb.pointer, $0, a, b, 3) }
        return try make("srgb") { cvips_copy_interpretation(xyb.pointer, $0, Int32(VIPS_INTERPRETATION_sRGB.rawValue)) }
    }
}
