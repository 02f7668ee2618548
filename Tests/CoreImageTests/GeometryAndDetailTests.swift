import CoreGraphics
import Foundation
import Imaging
import Testing

@testable import CoreImage

/// Core Image's coordinates (origin bottom left, y up), orientation, transforms, clamping,
/// compositing, blurs and sharpening, on bitmaps whose every pixel is known.
@Suite("Core Image: geometry and detail")
struct GeometryAndDetailTests {
    /// A 4 × 2 image, each pixel its own grey level: row 0 (top) 10, 20, 30, 40; row 1 50 ... 80.
    static func levels() throws -> CIImage {
        try CI.image([10, 20, 30, 40, 50, 60, 70, 80].flatMap { [$0, $0, $0] }, width: 4, height: 2, bands: 3)
    }

    /// The red channel of each rendered pixel, rows from the top.
    static func reds(_ image: CIImage) throws -> [[Int]] {
        let (bytes, w, h) = try CI.rgba(image)
        return (0..<h).map { y in (0..<w).map { x in Int(bytes[(y * w + x) * 4]) } }
    }

    @Test func theOriginIsAtTheBottomLeft() throws {
        let image = try Self.levels()
        #expect(image.extent == CGRect(x: 0, y: 0, width: 4, height: 2))
        #expect(try Self.reds(image) == [[10, 20, 30, 40], [50, 60, 70, 80]])
        // y from 0 to 1 is the bottom row.
        #expect(try Self.reds(image.cropped(to: CGRect(x: 0, y: 0, width: 4, height: 1))) == [[50, 60, 70, 80]])
        #expect(try Self.reds(image.cropped(to: CGRect(x: 1, y: 1, width: 2, height: 5))) == [[20, 30]])
        #expect(image.cropped(to: CGRect(x: 10, y: 10, width: 1, height: 1)).extent.isEmpty)
    }

    @Test func orientationsTurnTheStoredPixelsUpright() throws {
        let image = try Self.levels()
        let expected: [CGImagePropertyOrientation: [[Int]]] = [
            .up: [[10, 20, 30, 40], [50, 60, 70, 80]],
            .upMirrored: [[40, 30, 20, 10], [80, 70, 60, 50]],
            .down: [[80, 70, 60, 50], [40, 30, 20, 10]],
            .downMirrored: [[50, 60, 70, 80], [10, 20, 30, 40]],
            .right: [[50, 10], [60, 20], [70, 30], [80, 40]],
            .left: [[40, 80], [30, 70], [20, 60], [10, 50]],
            .leftMirrored: [[10, 50], [20, 60], [30, 70], [40, 80]],
            .rightMirrored: [[80, 40], [70, 30], [60, 20], [50, 10]],
        ]
        for (orientation, rows) in expected {
            let turned = image.oriented(orientation)
            #expect(turned.extent.origin == .zero, "\(orientation)")
            #expect(try Self.reds(turned) == rows, "\(orientation)")
        }
        #expect(try Self.reds(image.oriented(forExifOrientation: 6)) == expected[.right])
    }

    @Test func transformsMoveAndResample() throws {
        let image = try Self.levels()
        let moved = image.transformed(by: CGAffineTransform(translationX: 3, y: -1))
        #expect(moved.extent == CGRect(x: 3, y: -1, width: 4, height: 2))
        #expect(try Self.reds(moved) == [[10, 20, 30, 40], [50, 60, 70, 80]])
        // Twice as wide: pixel centres at the old ones' come out exact, between them in between.
        let wide = try Self.reds(image.transformed(by: CGAffineTransform(scaleX: 2, y: 1)))
        #expect(wide[0].count == 8)
        #expect(wide[0][3] > 20 && wide[0][3] < 30 && wide[0][4] > 20 && wide[0][4] < 30, "\(wide[0])")
        #expect(wide[0] == wide[0].sorted())
        // A transform and its inverse give the image back.
        let t = CGAffineTransform(rotationAngle: .pi / 2)
        let back = try Self.reds(image.transformed(by: t).transformed(by: t.inverted()))
        #expect(back == [[10, 20, 30, 40], [50, 60, 70, 80]], "\(back)")
    }

    @Test func clampingRepeatsTheEdgesAndCompositingMixesByAlpha() throws {
        let image = try Self.levels()
        let clamped = image.clampedToExtent()
        #expect(clamped.extent.isInfinite)
        let around = try Self.reds(clamped.cropped(to: CGRect(x: -1, y: -1, width: 6, height: 4)))
        #expect(around == [[10, 10, 20, 30, 40, 40], [10, 10, 20, 30, 40, 40], [50, 50, 60, 70, 80, 80], [50, 50, 60, 70, 80, 80]])

        // Half-transparent white over opaque black: linear 0.5, shown as sRGB 188.
        let white = try CI.image([255, 255, 255, 128], width: 1, height: 1, bands: 4)
        let black = CIImage(color: .black).cropped(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        let over = try CI.rgba(white.composited(over: black)).bytes
        let expected = CI.byte(128.0 / 255)
        #expect(abs(Double(over[0]) - expected) <= 1.01 && over[3] == 255, "\(over)")
        let filtered = try CI.rgba(try #require(CIFilter(name: "CISourceOverCompositing", parameters: [kCIInputImageKey: white, kCIInputBackgroundImageKey: black])?.outputImage)).bytes
        #expect(filtered == over)
    }

    @Test func aGaussianBlurSpreadsAPointAsAGaussian() throws {
        var bytes = [UInt8](repeating: 0, count: 21 * 21 * 3)
        for c in 0..<3 { bytes[(10 * 21 + 10) * 3 + c] = 255 }
        let point = try CI.image(bytes, width: 21, height: 21, bands: 3)
        let sigma = 2.0
        let blurred = point.applyingGaussianBlur(sigma: sigma)
        #expect(blurred.extent == CGRect(x: -6, y: -6, width: 33, height: 33))
        let (out, w, _) = try CI.rgba(blurred.cropped(to: point.extent))
        #expect(w == 21)
        // Linear values fall off as exp(−d² / 2σ²) from the centre.
        let centre = CI.linear(out[(10 * 21 + 10) * 4])
        for d in 1...3 {
            let ratio = CI.linear(out[(10 * 21 + 10 + d) * 4]) / centre
            #expect(abs(ratio - exp(-Double(d * d) / (2 * sigma * sigma))) < 0.03, "at \(d): \(ratio)")
            #expect(out[(10 * 21 + 10 + d) * 4] == out[(10 * 21 + 10 - d) * 4])
            #expect(out[((10 + d) * 21 + 10) * 4] == out[((10 - d) * 21 + 10) * 4])
        }
        let filter = CIFilter.gaussianBlur()
        filter.inputImage = point
        filter.radius = Float(sigma)
        #expect(try CI.rgba(try #require(filter.outputImage).cropped(to: point.extent)).bytes == out)
    }

    @Test func sharpeningOvershootsAnEdge() throws {
        // Left half dark grey, right half light grey.
        let row: [UInt8] = Array(repeating: 60, count: 10) + Array(repeating: 180, count: 10)
        let edge = try CI.image((0..<10).flatMap { _ in row.flatMap { [$0, $0, $0] } }, width: 20, height: 10, bands: 3)
        for name in ["CIUnsharpMask", "CISharpenLuminance"] {
            let sharpened = try Self.reds(edge.clampedToExtent().applyingFilter(name, parameters: [kCIInputRadiusKey: 1.5]).cropped(to: edge.extent))
            let middle = sharpened[5]
            #expect(middle[8] < 60 && middle[11] > 180, "\(name): \(middle)")
            #expect(middle[0] == 60 && middle[19] == 180, "\(name): \(middle)")
        }
    }

    @Test func straighteningRotatesAndFillsTheFrame() throws {
        let (image, _) = try CI.noise(width: 40, height: 30)
        let straightened = image.applyingFilter("CIStraightenFilter", parameters: [kCIInputAngleKey: 0.1])
        #expect(straightened.extent == image.extent)
        let (bytes, _, _) = try CI.rgba(straightened)
        #expect(stride(from: 3, to: bytes.count, by: 4).allSatisfy { bytes[$0] == 255 }, "no transparent corner")
        #expect(bytes != CI.rgbaBytes(try CI.noise(width: 40, height: 30).bytes))
        #expect(image.applyingFilter("CIStraightenFilter").extent == image.extent)
    }
}
