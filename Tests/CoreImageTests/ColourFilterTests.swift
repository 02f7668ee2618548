import CoreGraphics
import Foundation
import Testing

@testable import CoreImage

/// Each colour filter's pixels against its formula, computed here on the source's linear
/// pixels (Core Image's working space) and encoded back to sRGB.
@Suite("Core Image: colour filters")
struct ColourFilterTests {
    @Test func colorControlsMixesWithGreyThenAddsThenScalesAboutHalf() throws {
        let (image, bytes) = try CI.noise()
        let output = image.applyingFilter("CIColorControls", parameters: [kCIInputSaturationKey: 0.4, kCIInputBrightnessKey: 0.05, kCIInputContrastKey: 1.3])
        try CI.expectPixels(output, source: bytes, width: 16) { rgb, _, _ in
            let grey = CI.dot(rgb, CI.luma)
            return rgb.map { ((grey + ($0 - grey) * 0.4 + 0.05) - 0.5) * 1.3 + 0.5 }
        }
    }

    @Test func exposureMultipliesByTwoToTheEV() throws {
        let (image, bytes) = try CI.noise()
        let filter = CIFilter.exposureAdjust()
        filter.inputImage = image
        filter.ev = -1.5
        try CI.expectPixels(try #require(filter.outputImage), source: bytes, width: 16) { rgb, _, _ in rgb.map { $0 * pow(2, -1.5) } }
    }

    @Test func gammaRaisesToThePower() throws {
        let (image, bytes) = try CI.noise()
        try CI.expectPixels(image.applyingFilter("CIGammaAdjust", parameters: ["inputPower": 0.6]), source: bytes, width: 16) { rgb, _, _ in
            rgb.map { pow($0, 0.6) }
        }
    }

    @Test func hueTurnsAboutTheGreyAxisAndKeepsGrey() throws {
        let (image, bytes) = try CI.noise()
        let angle = 2.0
        try CI.expectPixels(image.applyingFilter("CIHueAdjust", parameters: [kCIInputAngleKey: angle]), source: bytes, width: 16) { rgb, _, _ in
            // Rodrigues: v cos θ + (k × v) sin θ + k (k · v)(1 − cos θ), k = (1,1,1)/√3.
            let k = 1 / 3.0.squareRoot()
            let cross = [k * (rgb[2] - rgb[1]), k * (rgb[0] - rgb[2]), k * (rgb[1] - rgb[0])]
            let along = k * (rgb[0] + rgb[1] + rgb[2])
            return (0..<3).map { rgb[$0] * cos(angle) + cross[$0] * sin(angle) + k * along * (1 - cos(angle)) }
        }
        // Grey stays grey.
        let grey = try CI.image([128, 128, 128], width: 1, height: 1, bands: 3)
        let turned = try CI.rgba(grey.applyingFilter("CIHueAdjust", parameters: [kCIInputAngleKey: angle])).bytes
        #expect(turned.prefix(3).allSatisfy { abs(Int($0) - 128) <= 1 })
    }

    @Test func sepiaMixesTheSepiaMatrixByIntensity() throws {
        let (image, bytes) = try CI.noise()
        let filter = CIFilter.sepiaTone()
        filter.inputImage = image
        filter.intensity = 0.7
        try CI.expectPixels(try #require(filter.outputImage), source: bytes, width: 16) { rgb, _, _ in
            let sepia = [
                0.393 * rgb[0] + 0.769 * rgb[1] + 0.189 * rgb[2], 0.349 * rgb[0] + 0.686 * rgb[1] + 0.168 * rgb[2],
                0.272 * rgb[0] + 0.534 * rgb[1] + 0.131 * rgb[2],
            ]
            return (0..<3).map { rgb[$0] * 0.3 + sepia[$0] * 0.7 }
        }
    }

    @Test func monochromeTintsTheLuminance() throws {
        let (image, bytes) = try CI.noise()
        let color = CIColor(red: 0.2, green: 0.6, blue: 0.9)
        let tint = [0.2, 0.6, 0.9].map { $0 <= 0.04045 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
        try CI.expectPixels(image.applyingFilter("CIColorMonochrome", parameters: [kCIInputColorKey: color, kCIInputIntensityKey: 1]), source: bytes, width: 16) {
            rgb, _, _ in
            tint.map { $0 * CI.dot(rgb, CI.luma) }
        }
    }

    @Test func colorMatrixTakesApplesVectorsWithAndWithoutAlpha() throws {
        let (image, bytes) = try CI.noise()
        let matrix = image.applyingFilter(
            "CIColorMatrix",
            parameters: [
                "inputRVector": CIVector(x: 0.5, y: 0.5, z: 0, w: 0), "inputGVector": CIVector(x: 0, y: 1, z: 0, w: 0),
                "inputBVector": CIVector(x: 0.2, y: 0, z: 0.8, w: 0), "inputBiasVector": CIVector(x: 0.1, y: 0, z: 0, w: 0),
            ])
        try CI.expectPixels(matrix, source: bytes, width: 16) { rgb, _, _ in [0.5 * rgb[0] + 0.5 * rgb[1] + 0.1, rgb[1], 0.2 * rgb[0] + 0.8 * rgb[2]] }

        // Alpha from the colour: a = 0.5 r + 0.25; the output is unpremultiplied colour with that alpha.
        let alphaMatrix = image.applyingFilter("CIColorMatrix", parameters: ["inputAVector": CIVector(x: 0.5, y: 0, z: 0, w: 0), "inputBiasVector": CIVector(x: 0, y: 0, z: 0, w: 0.25)])
        let (out, w, _) = try CI.rgba(alphaMatrix)
        for index in 0..<(w * 12) {
            let r = CI.linear(bytes[index * 3])
            #expect(abs(Double(out[index * 4 + 3]) - (0.5 * r + 0.25) * 255) <= 1.01)
            #expect(abs(Int(out[index * 4]) - Int(bytes[index * 3])) <= 1)
        }
    }

    @Test func photoEffectMonoIsTheLuminanceAndEveryEffectRuns() throws {
        let (image, bytes) = try CI.noise()
        try CI.expectPixels(image.applyingFilter("CIPhotoEffectMono"), source: bytes, width: 16) { rgb, _, _ in
            Array(repeating: CI.dot(rgb, CI.luma), count: 3)
        }
        for name in ["Chrome", "Fade", "Instant", "Mono", "Noir", "Process", "Tonal", "Transfer"] {
            let (out, _, _) = try CI.rgba(image.applyingFilter("CIPhotoEffect\(name)"))
            #expect(out.count == 16 * 12 * 4)
            #expect(out != CI.rgbaBytes(bytes), "CIPhotoEffect\(name) changed nothing")
        }
        // Noir and Mono are grey; Chrome is more saturated than the source.
        let noir = try CI.rgba(image.applyingFilter("CIPhotoEffectNoir")).bytes
        let greyPixels = stride(from: 0, to: noir.count, by: 4).filter { (index: Int) -> Bool in noir[index] == noir[index + 1] && noir[index + 1] == noir[index + 2] }
        #expect(greyPixels.count == 16 * 12)
    }

    @Test func temperatureAndTintMovesWhiteAndKeepsItWhenNeutralIsTheTarget() throws {
        let (image, bytes) = try CI.noise()
        try CI.expectPixels(image.applyingFilter("CITemperatureAndTint"), source: bytes, width: 16) { rgb, _, _ in rgb }
        let grey = try CI.image([150, 150, 150], width: 1, height: 1, bands: 3)
        // Shot under 3000 K light, shown as 6500 K: the orange cast is taken out (bluer).
        let cooled = try CI.rgba(grey.applyingFilter("CITemperatureAndTint", parameters: ["inputNeutral": CIVector(x: 3000, y: 0), "inputTargetNeutral": CIVector(x: 6500, y: 0)])).bytes
        #expect(cooled[2] > cooled[0] + 20, "\(cooled.prefix(3))")
        let warmed = try CI.rgba(grey.applyingFilter("CITemperatureAndTint", parameters: ["inputNeutral": CIVector(x: 9000, y: 0), "inputTargetNeutral": CIVector(x: 6500, y: 0)])).bytes
        #expect(warmed[0] > warmed[2] + 5, "\(warmed.prefix(3))")
        let magenta = try CI.rgba(grey.applyingFilter("CITemperatureAndTint", parameters: ["inputNeutral": CIVector(x: 6500, y: -60), "inputTargetNeutral": CIVector(x: 6500, y: 0)])).bytes
        #expect(magenta[1] < magenta[0] && magenta[1] < magenta[2], "\(magenta.prefix(3))")
    }

    @Test func vibranceRaisesDullColoursMore() throws {
        let (image, bytes) = try CI.noise()
        let amount = 0.8
        try CI.expectPixels(image.applyingFilter("CIVibrance", parameters: [kCIInputAmountKey: amount]), source: bytes, width: 16) { rgb, _, _ in
            let grey = CI.dot(rgb, CI.luma)
            let spread = min(1, max(0, rgb.max()! - rgb.min()!))
            return rgb.map { grey + ($0 - grey) * (1 + amount * (1 - spread)) }
        }
    }

    @Test func vignetteDarkensTowardTheCorners() throws {
        let (image, bytes) = try CI.noise(width: 20, height: 10)
        let filter = CIFilter.vignette()
        filter.inputImage = image
        filter.intensity = 0.9
        filter.radius = 0.8
        let radius = 0.8 * (20.0 * 20 + 10 * 10).squareRoot() / 2
        try CI.expectPixels(try #require(filter.outputImage), source: bytes, width: 20) { rgb, x, y in
            // Core Image coordinates of the pixel's centre: y up from the bottom.
            let (cx, cy) = (Double(x) + 0.5 - 10, 10 - (Double(y) + 0.5) - 5)
            let s = min(1, (cx * cx + cy * cy).squareRoot() / radius)
            return rgb.map { $0 * (1 - 0.9 * s * s * (3 - 2 * s)) }
        }
    }

    @Test func highlightsAndShadowsFollowTheLuminance() throws {
        let (image, bytes) = try CI.noise()
        let output = image.applyingFilter("CIHighlightShadowAdjust", parameters: ["inputShadowAmount": 0.6, "inputHighlightAmount": 0.5])
        try CI.expectPixels(output, source: bytes, width: 16) { rgb, _, _ in
            let l = min(1, max(0, CI.dot(rgb, CI.luma)))
            let gain = max(0, 1 + 0.6 * (1 - l) * (1 - l) - 0.5 * l * l)
            return rgb.map { $0 * gain }
        }
    }

    @Test func chainedColourFiltersRenderAsOneMatrix() throws {
        let (image, bytes) = try CI.noise()
        let chained = image.applyingFilter("CIColorControls", parameters: [kCIInputSaturationKey: 1.4])
            .applyingFilter("CISepiaTone", parameters: [kCIInputIntensityKey: 0.5])
            .applyingFilter("CIExposureAdjust", parameters: [kCIInputEVKey: 0.3])
        if case .matrix(.bitmap, _) = chained.recipe {} else { Issue.record("three colour filters did not fuse: \(chained.recipe)") }
        try CI.expectPixels(chained, source: bytes, width: 16) { rgb, _, _ in
            let grey = CI.dot(rgb, CI.luma)
            let saturated = rgb.map { grey + ($0 - grey) * 1.4 }
            let sepia = [
                0.393 * saturated[0] + 0.769 * saturated[1] + 0.189 * saturated[2], 0.349 * saturated[0] + 0.686 * saturated[1] + 0.168 * saturated[2],
                0.272 * saturated[0] + 0.534 * saturated[1] + 0.131 * saturated[2],
            ]
            return (0..<3).map { (saturated[$0] * 0.5 + sepia[$0] * 0.5) * pow(2, 0.3) }
        }
    }
}

extension CI {
    /// RGB bytes as opaque RGBA.
    static func rgbaBytes(_ rgb: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for index in stride(from: 0, to: rgb.count, by: 3) { out += [rgb[index], rgb[index + 1], rgb[index + 2], 255] }
        return out
    }
}
