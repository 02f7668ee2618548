import Foundation

/// What a request delivers, in pixels: which part of the upright source, at what size. Pure
/// arithmetic, so each option's rule is pinned by unit tests.
///
/// - `aspectFit` scales the region to fit inside the target, `aspectFill` to cover it.
/// - `.fast` and `.none` never upscale; `.none` keeps the scale shrink-on-load decodes at
///   (1, 1/2, 1/4 or 1/8, the largest that still covers the target), so nothing is resampled
///   after decoding. `.exact` delivers exactly the fitted size, or for `aspectFill` exactly the
///   target size (centre-cropped), upscaling if it must.
/// - `normalizedCropRect` applies only with `.exact` (as on Apple platforms); its unit
///   coordinates are of the upright image, origin top left.
/// - `PHImageManagerMaximumSize` (or any negative side) delivers the whole region unscaled.
struct ImageGeometry: Hashable, Sendable {
    struct Rect: Hashable, Sendable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }

    /// The part of the upright source used.
    var region: Rect
    /// The size the region is scaled to.
    var scaledWidth: Int
    var scaledHeight: Int
    /// The delivered size: the scaled size, or the target when `aspectFill` + `.exact`
    /// centre-crops it.
    var width: Int
    var height: Int

    var cropsAfterScaling: Bool { width != scaledWidth || height != scaledHeight }

    static func plan(
        sourceWidth: Int, sourceHeight: Int, target: CGSize, contentMode: PHImageContentMode,
        resizeMode: PHImageRequestOptionsResizeMode, normalizedCrop: CGRect
    ) -> ImageGeometry {
        let sourceWidth = max(1, sourceWidth), sourceHeight = max(1, sourceHeight)
        var region = Rect(x: 0, y: 0, width: sourceWidth, height: sourceHeight)
        if resizeMode == .exact, let crop = clampedUnit(normalizedCrop) {
            let x = Int((crop.minX * Double(sourceWidth)).rounded(.down))
            let y = Int((crop.minY * Double(sourceHeight)).rounded(.down))
            let right = Int((crop.maxX * Double(sourceWidth)).rounded(.up))
            let bottom = Int((crop.maxY * Double(sourceHeight)).rounded(.up))
            region = Rect(
                x: min(x, sourceWidth - 1), y: min(y, sourceHeight - 1),
                width: max(1, min(right, sourceWidth) - min(x, sourceWidth - 1)),
                height: max(1, min(bottom, sourceHeight) - min(y, sourceHeight - 1)))
        }
        let regionWidth = Double(region.width), regionHeight = Double(region.height)
        guard target.width > 0, target.height > 0 else {
            return ImageGeometry(
                region: region, scaledWidth: region.width, scaledHeight: region.height, width: region.width,
                height: region.height)
        }
        let targetWidth = max(1, Int(target.width.rounded())), targetHeight = max(1, Int(target.height.rounded()))
        let fit = min(Double(targetWidth) / regionWidth, Double(targetHeight) / regionHeight)
        let fill = max(Double(targetWidth) / regionWidth, Double(targetHeight) / regionHeight)
        var scale = contentMode == .aspectFill ? fill : fit
        switch resizeMode {
        case .exact:
            break
        case .fast:
            scale = min(scale, 1)
        case .none:
            scale = min(scale, 1)
            var factor = 1.0
            while factor < 8, scale <= 1 / (factor * 2) { factor *= 2 }
            scale = 1 / factor
        }
        let scaledWidth = max(1, Int((regionWidth * scale).rounded()))
        let scaledHeight = max(1, Int((regionHeight * scale).rounded()))
        if resizeMode == .exact, contentMode == .aspectFill {
            return ImageGeometry(
                region: region, scaledWidth: max(scaledWidth, targetWidth), scaledHeight: max(scaledHeight, targetHeight),
                width: targetWidth, height: targetHeight)
        }
        return ImageGeometry(
            region: region, scaledWidth: scaledWidth, scaledHeight: scaledHeight, width: scaledWidth, height: scaledHeight)
    }

    /// The crop rectangle within the unit square, or nil for none (`.zero`, empty or outside).
    private static func clampedUnit(_ rect: CGRect) -> CGRect? {
        guard rect != .zero, !rect.isNull, !rect.isInfinite else { return nil }
        let clamped = rect.standardized.intersection(CGRect(x: 0, y: 0, width: 1, height: 1))
        guard !clamped.isNull, clamped.width > 0, clamped.height > 0 else { return nil }
        if clamped == CGRect(x: 0, y: 0, width: 1, height: 1) { return nil }
        return clamped
    }

    /// The same delivery from a copy of the source scaled by `factor` (a preview): the region
    /// in the copy's pixels, the delivered size unchanged.
    func regionScaled(by factor: Double, sourceWidth: Int, sourceHeight: Int) -> ImageGeometry {
        var scaled = self
        let width = max(1, Int((Double(sourceWidth) * factor).rounded()))
        let height = max(1, Int((Double(sourceHeight) * factor).rounded()))
        let x = min(width - 1, Int((Double(region.x) * factor).rounded(.down)))
        let y = min(height - 1, Int((Double(region.y) * factor).rounded(.down)))
        scaled.region = Rect(
            x: x, y: y, width: max(1, min(width - x, Int((Double(region.width) * factor).rounded()))),
            height: max(1, min(height - y, Int((Double(region.height) * factor).rounded()))))
        return scaled
    }

    /// How much of the source's resolution the delivery needs (1: full size).
    var scale: Double {
        max(Double(scaledWidth) / Double(region.width), Double(scaledHeight) / Double(region.height))
    }
}
