import CoreGraphics
import Foundation

/// White points of daylight and incandescent light by colour temperature, for
/// CITemperatureAndTint.
enum WhitePoint {
    /// Channel gains taking the white of `neutral` to the white of `target` (each a vector of
    /// temperature in kelvin and tint), scaled so white keeps its luminance.
    static func adaptation(from neutral: CIVector, to target: CIVector) -> ColorMatrix {
        let from = rgb(temperature: Double(neutral.x), tint: Double(neutral.y))
        let to = rgb(temperature: Double(target.x), tint: Double(target.y))
        let gains = (0..<3).map { to[$0] / from[$0] }
        let luminance = (0..<3).reduce(0) { $0 + Colorimetry.luma[$1] * gains[$1] }
        return .gains(gains[0] / luminance, gains[1] / luminance, gains[2] / luminance)
    }

    /// Linear sRGB of the white of a Planckian light at `temperature` (1667...25000 K, Kim et
    /// al.'s cubic fit of the locus), moved off the locus by `tint` (positive toward magenta,
    /// 1 unit = 0.0001 in CIE 1960 v), with luminance 1.
    static func rgb(temperature: Double, tint: Double) -> [Double] {
        let t = min(25_000, max(1_667, temperature))
        let x: Double = t <= 4_000
            ? -0.2661239e9 / (t * t * t) - 0.2343589e6 / (t * t) + 0.8776956e3 / t + 0.179910
            : -3.0258469e9 / (t * t * t) + 2.1070379e6 / (t * t) + 0.2226347e3 / t + 0.240390
        let y: Double = t <= 2_222
            ? -1.1063814 * x * x * x - 1.34811020 * x * x + 2.18555832 * x - 0.20219683
            : t <= 4_000
                ? -0.9549476 * x * x * x - 1.37418593 * x * x + 2.09137015 * x - 0.16748867
                : 3.0817580 * x * x * x - 5.87338670 * x * x + 3.75112997 * x - 0.37001483
        // Tint: along CIE 1960 v.
        let denominator = -2 * x + 12 * y + 3
        let u = 4 * x / denominator
        let v = 6 * y / denominator - tint * 0.0001
        let x2 = 3 * u / (2 * u - 8 * v + 4), y2 = 2 * v / (2 * u - 8 * v + 4)
        let (X, Y, Z) = (x2 / y2, 1.0, (1 - x2 - y2) / y2)
        return [
            3.2404542 * X - 1.5371385 * Y - 0.4985314 * Z,
            -0.9692660 * X + 1.8760108 * Y + 0.0415560 * Z,
            0.0556434 * X - 0.2040259 * Y + 1.0572252 * Z,
        ]
    }
}
