import CoreGraphics
import CoreImage
import Foundation
import Imaging
import Testing

/// Small bitmaps with known pixels, rendering to bytes, and the sRGB transfer function written
/// out again here, so each filter's pixels are checked against a formula the test computes.
enum CI {
    static let context = CIContext()

    /// A `width` × `height` sRGB image (3 bands) of pseudo-random but fixed pixels.
    static func noise(width: Int = 16, height: Int = 12, seed: UInt32 = 7) throws -> (image: CIImage, bytes: [UInt8]) {
        var state = seed
        let bytes: [UInt8] = (0..<(width * height * 3)).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        return (try image(bytes, width: width, height: height, bands: 3), bytes)
    }

    /// An image of exactly these pixels (rows from the top).
    static func image(_ bytes: [UInt8], width: Int, height: Int, bands: Int) throws -> CIImage {
        CIImage(cgImage: try CGImage(VipsImage(pixels: Data(bytes), width: width, height: height, bands: bands)))
    }

    /// The image's extent rendered as 8-bit sRGB RGBA, rows from the top.
    static func rgba(_ image: CIImage, _ rect: CGRect? = nil) throws -> (bytes: [UInt8], width: Int, height: Int) {
        let cg = try #require(context.createCGImage(image, from: rect ?? image.extent))
        #expect(cg.bitsPerPixel == 32)
        return ([UInt8](try #require(cg.dataProvider?.data)), cg.width, cg.height)
    }

    static func linear(_ byte: UInt8) -> Double {
        let v = Double(byte) / 255
        return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
    }

    static func byte(_ linear: Double) -> Double {
        let v = min(1, max(0, linear))
        let encoded = v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
        return encoded * 255
    }

    static let luma = [0.2126, 0.7152, 0.0722]

    /// Renders `image` and checks each pixel's RGB against `reference` applied to the source's
    /// linear pixel, within `tolerance` levels of 255; returns the largest difference.
    @discardableResult
    static func expectPixels(
        _ image: CIImage, source: [UInt8], width: Int, tolerance: Double = 1.01,
        sourceLocation: SourceLocation = #_sourceLocation, _ reference: (_ rgb: [Double], _ x: Int, _ y: Int) -> [Double]
    ) throws -> Double {
        let (out, w, h) = try rgba(image)
        var worst = 0.0
        for y in 0..<h {
            for x in 0..<w {
                let i = (y * width + x) * 3
                let expected = reference([linear(source[i]), linear(source[i + 1]), linear(source[i + 2])], x, y).map(byte)
                for c in 0..<3 { worst = max(worst, abs(Double(out[(y * w + x) * 4 + c]) - expected[c])) }
            }
        }
        #expect(worst <= tolerance, "largest difference \(worst) levels", sourceLocation: sourceLocation)
        return worst
    }

    static func dot(_ a: [Double], _ b: [Double]) -> Double { zip(a, b).reduce(0) { $0 + $1.0 * $1.1 } }
}
