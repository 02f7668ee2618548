import Foundation
import Imaging
import PhotosTestSupport
import Testing

@testable import Photos

/// The built-in adjustment format, rendered by libvips on a gradient (red grows left to right,
/// green top to bottom, blue 128).
@Suite("Basic adjustments")
struct BasicAdjustmentsTests {
    static func rendered(_ recipe: PHBasicAdjustments, width: Int = 400, height: Int = 300) throws -> VipsImage {
        let folder = try TestImages.temporaryDirectory("adjust")
        let source = try TestImages.writeJPEG(to: folder.appendingPathComponent("in.jpg"), width: width, height: height)
        let output = folder.appendingPathComponent("out.jpg")
        try recipe.render(imageAt: source, to: output)
        return try VipsImage(contentsOf: output)
    }

    static func rgb(_ image: VipsImage, _ x: Int, _ y: Int) throws -> [Int] {
        try image.pixel(x: x, y: y).prefix(3).map { Int($0.rounded()) }
    }

    @Test func theRecipeRoundTripsAsAdjustmentData() throws {
        let recipe = PHBasicAdjustments(quarterTurns: 1, crop: CGRect(x: 0.1, y: 0.2, width: 0.5, height: 0.5), exposure: 0.5, saturation: 1.2, filter: .sepia)
        let data = recipe.adjustmentData
        #expect(data.formatIdentifier == PHBasicAdjustments.formatIdentifier && PHBasicAdjustments.canHandle(data))
        #expect(PHBasicAdjustments(adjustmentData: data) == recipe)
        #expect(PHBasicAdjustments(adjustmentData: PHAdjustmentData(formatIdentifier: "other", formatVersion: "1", data: data.data)) == nil)
        #expect(PHBasicAdjustments().isIdentity && !recipe.isIdentity)
    }

    @Test func rotateAndCropMoveThePixels() throws {
        let turned = try Self.rendered(PHBasicAdjustments(quarterTurns: 1))
        #expect(turned.width == 300 && turned.height == 400)
        // Clockwise: the original's bottom-left (red 0, green 255) is now the top left.
        let corner = try Self.rgb(turned, 2, 2)
        #expect(corner[0] < 40 && corner[1] > 215, "\(corner)")

        let cropped = try Self.rendered(PHBasicAdjustments(crop: CGRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)))
        #expect(cropped.width == 200 && cropped.height == 150)
        let start = try Self.rgb(cropped, 2, 2)
        #expect(abs(start[0] - 128) < 20 && abs(start[1] - 128) < 20, "\(start)")
    }

    /// A quarter turn reads the source out of order: past libvips' window of lines for
    /// sequential reads (a camera photo's size) it failed with "out of order read".
    @Test func aQuarterTurnOfALargePhotoRenders() throws {
        for turns in [1, 3] {
            let turned = try Self.rendered(PHBasicAdjustments(quarterTurns: turns, crop: CGRect(x: 0, y: 0, width: 1, height: 0.5)), width: 2400, height: 1600)
            #expect(turned.width == 1600 && turned.height == 1200, "\(turns) turns: \(turned.width) × \(turned.height)")
        }
    }

    @Test func exposureSaturationAndFiltersChangeTheColours() throws {
        let plain = try Self.rgb(Self.rendered(PHBasicAdjustments()), 200, 150)
        let brighter = try Self.rgb(Self.rendered(PHBasicAdjustments(exposure: 1)), 200, 150)
        #expect(zip(brighter, plain).allSatisfy { $0 > $1 + 20 }, "\(plain) → \(brighter)")
        let darker = try Self.rgb(Self.rendered(PHBasicAdjustments(exposure: -1)), 200, 150)
        #expect(zip(darker, plain).allSatisfy { $0 < $1 - 20 }, "\(plain) → \(darker)")

        let grey = try Self.rgb(Self.rendered(PHBasicAdjustments(saturation: 0)), 390, 10)
        #expect(grey.max()! - grey.min()! < 8, "saturation 0 is grey: \(grey)")
        let mono = try Self.rgb(Self.rendered(PHBasicAdjustments(filter: .mono)), 390, 10)
        #expect(mono.max()! - mono.min()! < 8, "\(mono)")
        let sepia = try Self.rgb(Self.rendered(PHBasicAdjustments(filter: .sepia)), 200, 150)
        #expect(sepia[0] > sepia[1] && sepia[1] > sepia[2], "\(sepia)")
    }

    @Test func aCropOutsideTheImageIsAClearError() throws {
        #expect(throws: PHPhotosError.self) { try Self.rendered(PHBasicAdjustments(crop: CGRect(x: 2, y: 2, width: 1, height: 1))) }
    }
}
