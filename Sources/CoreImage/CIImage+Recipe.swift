import CoreGraphics
import Foundation
import Imaging

extension CIImage {
    /// How an image is made: a tree of sources and operations, rendered only by a
    /// ``CIContext`` (Core Image's laziness). Coordinates are Core Image's: the origin at the
    /// bottom left, y up.
    indirect enum Recipe: @unchecked Sendable {
        // @unchecked Sendable: the tree is immutable; a VipsImage is read-only and libvips'
        // reference counts are atomic.
        /// Decoded pixels of a source (8 or 16 bits, grey or RGB, with or without alpha, as
        /// stored), at (0, 0) with its width and height.
        case bitmap(VipsImage)
        /// One colour everywhere: linear, premultiplied RGBA.
        case color([Double])
        /// Nothing (transparent, empty extent).
        case empty
        /// A colour matrix on linear RGB, alpha kept.
        case matrix(Recipe, ColorMatrix)
        /// A per-pixel operation that isn't linear (applied to unpremultiplied colour).
        case curve(Recipe, Curve)
        /// The pixels multiplied by a radial falloff.
        case vignette(Recipe, center: CGPoint, radius: Double, intensity: Double)
        /// A Gaussian blur of standard deviation `sigma`.
        case blur(Recipe, sigma: Double)
        /// `x + intensity × (x − blur(x))`, on every channel or on luminance only.
        case sharpen(Recipe, sigma: Double, intensity: Double, luminanceOnly: Bool)
        /// Shadows lifted and highlights lowered from a blurred luminance.
        case highlightShadow(Recipe, radius: Double, highlights: Double, shadows: Double)
        /// Only the part inside the rectangle.
        case crop(Recipe, CGRect)
        /// Moved by an affine transform.
        case transform(Recipe, CGAffineTransform)
        /// The edge pixels of the rectangle repeated outward forever.
        case clamp(Recipe, CGRect)
        /// Source-over: `top` over `bottom`.
        case over(top: Recipe, bottom: Recipe)
    }

    /// Per-pixel operations that no matrix describes.
    enum Curve: Sendable, Equatable {
        /// `rgb ^ power`.
        case gamma(Double)
        /// Saturation raised more where colours are dull: `luma + (x − luma) × (1 + amount × (1 − (max − min)))`.
        case vibrance(Double)
        /// A general 4 × 4 matrix with bias on unpremultiplied RGBA (Core Image's CIColorMatrix
        /// when it reads or writes alpha).
        case rgba(rows: [[Double]], bias: [Double])
    }
}
