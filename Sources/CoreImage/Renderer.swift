import CoreGraphics
import Foundation
import Imaging

/// Turns a recipe into one libvips pipeline over a rectangle: premultiplied linear-light
/// float RGB (three bands where every pixel is opaque) or RGBA. Row 0 is the rectangle's top
/// (Core Image's y points up, libvips' down).
struct Renderer {
    typealias Recipe = CIImage.Recipe

    /// A rendered rectangle: `image` is `rect.width × rect.height`.
    struct Tile {
        var image: VipsImage
        /// Whether the image has a fourth, alpha band (colour premultiplied by it).
        var hasAlpha: Bool { image.bands == 4 }
    }

    /// The pixels of `recipe` over `rect` (made integral).
    func render(_ recipe: Recipe, in rect: CGRect) throws(ImagingError) -> Tile {
        let rect = rect.integral
        guard rect.width >= 1, rect.height >= 1, !rect.isInfinite else {
            throw ImagingError(.invalidArgument, "Core Image can't render an empty or infinite rectangle (\(rect)); crop the image first")
        }
        return try tile(recipe, rect)
    }

    // MARK: Extents

    /// Where a recipe has pixels (as `CIImage.extent` says).
    static func extent(_ recipe: Recipe) -> CGRect {
        switch recipe {
        case .bitmap(let image): CGRect(x: 0, y: 0, width: image.width, height: image.height)
        case .color: .infinite
        case .empty: .null
        case .matrix(let inner, _), .curve(let inner, _), .vignette(let inner, _, _, _), .highlightShadow(let inner, _, _, _):
            extent(inner)
        case .blur(let inner, let sigma), .sharpen(let inner, let sigma, _, _):
            grown(extent(inner), by: (3 * sigma).rounded(.up))
        case .crop(let inner, let rect): extent(inner).intersection(rect)
        case .transform(let inner, let t): extent(inner).isInfinite ? .infinite : extent(inner).applying(t).snapped
        case .clamp: .infinite
        case .over(let top, let bottom): extent(top).union(extent(bottom))
        }
    }

    private static func grown(_ rect: CGRect, by margin: Double) -> CGRect {
        rect.isInfinite || rect.isNull ? rect : rect.insetBy(dx: -margin, dy: -margin)
    }

    // MARK: Rendering each step

    private func tile(_ recipe: Recipe, _ rect: CGRect) throws(ImagingError) -> Tile {
        switch recipe {
        case .bitmap(let image):
            return try bitmap(image, rect)
        case .color(let rgba):
            return Tile(image: try VipsImage.constant(width: Int(rect.width), height: Int(rect.height), value: rgba[3] >= 1 ? Array(rgba.prefix(3)) : rgba))
        case .empty:
            return try transparent(rect)
        case .matrix(let inner, let m):
            return try matrix(m, try tile(inner, rect))
        case .curve(let inner, let curve):
            return try self.curve(curve, try tile(inner, rect))
        case .vignette(let inner, let center, let radius, let intensity):
            return try vignette(try tile(inner, rect), rect: rect, center: center, radius: radius, intensity: intensity)
        case .blur(let inner, let sigma):
            let (wide, cut) = try widened(inner, rect, sigma: sigma)
            return Tile(image: try cut(try wide.image.gaussianBlurred(sigma: sigma)))
        case .sharpen(let inner, let sigma, let intensity, let luminanceOnly):
            return try sharpen(inner, rect, sigma: sigma, intensity: intensity, luminanceOnly: luminanceOnly)
        case .highlightShadow(let inner, let radius, let highlights, let shadows):
            return try highlightShadow(try tile(inner, rect), radius: radius, highlights: highlights, shadows: shadows)
        case .crop(let inner, let crop):
            let kept = rect.intersection(crop).integral
            guard !kept.isNull, !kept.isEmpty else { return try transparent(rect) }
            if kept == rect { return try tile(inner, rect) }
            return try placed(try tile(inner, kept), from: kept, into: rect, extend: .zero)
        case .transform(let inner, let t):
            return try transform(inner, t, rect)
        case .clamp(let inner, let edge):
            if edge.contains(rect) { return try tile(inner, rect) }
            // The part of the edge rectangle nearest `rect` (at least one pixel), repeated outward.
            let minX = min(max(rect.minX, edge.minX), edge.maxX - 1), minY = min(max(rect.minY, edge.minY), edge.maxY - 1)
            let near = CGRect(x: minX, y: minY, width: max(min(rect.maxX, edge.maxX), minX + 1) - minX, height: max(min(rect.maxY, edge.maxY), minY + 1) - minY)
            return try placed(try tile(inner, near), from: near, into: rect, extend: .copy)
        case .over(let top, let bottom):
            let upper = try tile(top, rect)
            guard upper.hasAlpha else { return upper }
            let lower = try withAlpha(try tile(bottom, rect))
            let remaining = try upper.image.bands(3, count: 1).linear([-1], [1])
            return Tile(image: try lower.image.multiplied(by: remaining).adding(upper.image))
        }
    }

    /// A source's pixels over `rect`: linear, premultiplied, transparent outside the source.
    private func bitmap(_ image: VipsImage, _ rect: CGRect) throws(ImagingError) -> Tile {
        let extent = CGRect(x: 0, y: 0, width: image.width, height: image.height)
        var linear = try image.linearRGB()
        if linear.bands == 4 {
            let alpha = try linear.bands(3, count: 1)
            linear = try linear.bands(0, count: 3).multiplied(by: alpha).joined(with: alpha)
        }
        let kept = rect.intersection(extent)
        guard !kept.isNull, !kept.isEmpty else { return try transparent(rect) }
        let part = kept == extent ? linear
            : try linear.cropped(x: Int(kept.minX), y: Int(extent.maxY - kept.maxY), width: Int(kept.width), height: Int(kept.height))
        if kept == rect { return Tile(image: part) }
        return try placed(Tile(image: part), from: kept, into: rect, extend: .zero)
    }

    /// `tile`, which covers `from`, placed in `into`; around it: zero (with an alpha band) or
    /// the tile's edges repeated.
    private func placed(_ tile: Tile, from: CGRect, into rect: CGRect, extend: VipsImage.Extend) throws(ImagingError) -> Tile {
        let source = extend == .zero ? try withAlpha(tile) : tile
        return Tile(
            image: try source.image.embedded(
                x: Int(from.minX - rect.minX), y: Int(rect.maxY - from.maxY), width: Int(rect.width), height: Int(rect.height), extend: extend))
    }

    private func transparent(_ rect: CGRect) throws(ImagingError) -> Tile {
        Tile(image: try VipsImage.constant(width: Int(rect.width), height: Int(rect.height), value: [0, 0, 0, 0]))
    }

    /// The tile with an alpha band (1 where it had none).
    private func withAlpha(_ tile: Tile) throws(ImagingError) -> Tile {
        guard !tile.hasAlpha else { return tile }
        let one = try tile.image.bands(0, count: 1).linear([0], [1])
        return Tile(image: try tile.image.joined(with: one))
    }

    // MARK: Colour

    private func matrix(_ m: ColorMatrix, _ tile: Tile) throws(ImagingError) -> Tile {
        guard tile.hasAlpha else {
            let mixed = try tile.image.recombined(m.matrix)
            return Tile(image: m.bias == [0, 0, 0] ? mixed : try mixed.linear([1], m.bias))
        }
        // Premultiplied: c' = M c + bias × alpha.
        let rows = (0..<3).map { m.matrix[$0] + [m.bias[$0]] } + [[0, 0, 0, 1]]
        return Tile(image: try tile.image.recombined(rows))
    }

    /// The colour bands divided by alpha (nothing to do without alpha), the operation, then
    /// multiplied again.
    private func unpremultiplied(_ tile: Tile, _ body: (VipsImage) throws(ImagingError) -> VipsImage) throws(ImagingError) -> Tile {
        guard tile.hasAlpha else { return Tile(image: try body(tile.image)) }
        let alpha = try tile.image.bands(3, count: 1)
        let colour = try body(try tile.image.bands(0, count: 3).divided(by: alpha))
        return Tile(image: try colour.multiplied(by: alpha).joined(with: alpha))
    }

    private func curve(_ curve: CIImage.Curve, _ tile: Tile) throws(ImagingError) -> Tile {
        switch curve {
        case .gamma(let power):
            return try unpremultiplied(tile) { rgb throws(ImagingError) in try rgb.raised(to: power) }
        case .vibrance(let amount):
            return try unpremultiplied(tile) { rgb throws(ImagingError) in
                let spread = try rgb.bandExtreme(largest: true).subtracting(try rgb.bandExtreme(largest: false)).clippedToUnit()
                let factor = try spread.linear([-amount], [1 + amount])
                let luma = try rgb.recombined([Colorimetry.luma])
                return try rgb.subtracting(luma).multiplied(by: factor).adding(luma)
            }
        case .rgba(let rows, let bias):
            let full = try withAlpha(tile)
            let alpha = try full.image.bands(3, count: 1)
            let straight = try full.image.bands(0, count: 3).divided(by: alpha).joined(with: alpha)
            let mapped = try straight.recombined(rows).linear([1], bias)
            let newAlpha = try mapped.bands(3, count: 1).clippedToUnit()
            return Tile(image: try mapped.bands(0, count: 3).multiplied(by: newAlpha).joined(with: newAlpha))
        }
    }

    /// Each pixel scaled by `1 − intensity × smoothstep(d / radius)`, `d` its distance from
    /// `center` (Core Image coordinates).
    private func vignette(_ tile: Tile, rect: CGRect, center: CGPoint, radius: Double, intensity: Double) throws(ImagingError) -> Tile {
        guard intensity != 0, radius > 0 else { return tile }
        let xy = try VipsImage.coordinates(width: Int(rect.width), height: Int(rect.height))
        // Pixel centres in Core Image coordinates, relative to the centre.
        let offsets = try xy.linear([1, -1], [rect.minX + 0.5 - center.x, rect.maxY - 0.5 - center.y])
        let squared = try offsets.multiplied(by: offsets).recombined([[1, 1]])
        let s = try squared.raised(to: 0.5).linear([1 / radius], [0]).clippedToUnit()
        let s2 = try s.multiplied(by: s)
        // 1 − intensity × (3 s² − 2 s³)
        let smooth = try s2.linear([3], [0]).subtracting(try s2.multiplied(by: s).linear([2], [0]))
        let factor = try smooth.linear([-intensity], [1])
        return try scaledColour(tile, by: factor)
    }

    /// The colour bands multiplied by a one-band factor, alpha kept.
    private func scaledColour(_ tile: Tile, by factor: VipsImage) throws(ImagingError) -> Tile {
        guard tile.hasAlpha else { return Tile(image: try tile.image.multiplied(by: factor)) }
        return Tile(image: try tile.image.bands(0, count: 3).multiplied(by: factor).joined(with: try tile.image.bands(3, count: 1)))
    }

    private func sharpen(_ inner: Recipe, _ rect: CGRect, sigma: Double, intensity: Double, luminanceOnly: Bool) throws(ImagingError) -> Tile {
        let (wide, cut) = try widened(inner, rect, sigma: sigma)
        let original = try cut(wide.image)
        let blurred = try cut(try wide.image.gaussianBlurred(sigma: sigma))
        let colourBands = wide.hasAlpha ? 3 : original.bands
        let colour = try original.bands(0, count: colourBands)
        var detail = try colour.subtracting(try blurred.bands(0, count: colourBands))
        if luminanceOnly { detail = try detail.recombined([Colorimetry.luma]) }
        let sharpened = try colour.adding(try detail.linear([intensity], [0]))
        return Tile(image: wide.hasAlpha ? try sharpened.joined(with: try original.bands(3, count: 1)) : sharpened)
    }

    /// `inner` over `rect` grown by ⌈3σ⌉ on every side (what a blur of `sigma` reads), and the
    /// cut that takes an image of that size back to `rect`.
    private func widened(_ inner: Recipe, _ rect: CGRect, sigma: Double) throws(ImagingError)
        -> (Tile, (VipsImage) throws(ImagingError) -> VipsImage)
    {
        let margin = (3 * sigma).rounded(.up)
        let wide = try tile(inner, rect.insetBy(dx: -margin, dy: -margin))
        return (wide, { image throws(ImagingError) in
            try image.cropped(x: Int(margin), y: Int(margin), width: Int(rect.width), height: Int(rect.height))
        })
    }

    /// Gain `1 + shadows × (1 − L)² − (1 − highlights) × L²` from the luminance `L` blurred by
    /// `radius` (none at 0), clipped at 0.
    private func highlightShadow(_ tile: Tile, radius: Double, highlights: Double, shadows: Double) throws(ImagingError) -> Tile {
        guard shadows != 0 || highlights != 1 else { return tile }
        let colour = try tile.image.bands(0, count: 3)
        var luma = try colour.recombined([Colorimetry.luma]).clippedToUnit()
        if radius > 0 { luma = try luma.gaussianBlurred(sigma: radius) }
        let dark = try luma.linear([-1], [1])
        let gain = try dark.multiplied(by: dark).linear([shadows], [1])
            .subtracting(try luma.multiplied(by: luma).linear([1 - highlights], [0]))
            .clippedBelowZero()
        return try scaledColour(tile, by: gain)
    }

    private func transform(_ inner: Recipe, _ t: CGAffineTransform, _ rect: CGRect) throws(ImagingError) -> Tile {
        var needed = rect.applying(t.inverted()).insetBy(dx: -2, dy: -2).integral
        let innerExtent = Self.extent(inner)
        if !innerExtent.isInfinite { needed = needed.intersection(innerExtent.integral) }
        guard !needed.isNull, !needed.isEmpty else { return try transparent(rect) }
        let source = try withAlpha(try tile(inner, needed))
        // From the source tile's pixel (u, v) to the output's (u', v'), through Core Image
        // coordinates: p = (S.minX + u + ½, S.maxY − v − ½), q = t(p),
        // (u', v') = (q.x − R.minX − ½, R.maxY − q.y − ½).
        let px = needed.minX + 0.5, py = needed.maxY - 0.5
        let dx = t.a * px + t.c * py + t.tx - rect.minX - 0.5
        let dy = rect.maxY - 0.5 - (t.b * px + t.d * py + t.ty)
        return Tile(
            image: try source.image.affine(
                t.a, -t.c, -t.b, t.d, dx: dx, dy: dy, area: (0, 0, Int(rect.width), Int(rect.height)), extend: .zero))
    }
}
