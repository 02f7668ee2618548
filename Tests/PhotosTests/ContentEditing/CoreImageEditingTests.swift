import Foundation
import Imaging
import PhotosTestSupport
import Testing

@testable import Photos

/// Apple's editing sample, as written for iOS: a `CIImage` from the input's full-size image,
/// turned upright, filtered, written by a `CIContext` to the output's URL, committed.
@Suite("Content editing with Core Image")
struct CoreImageEditingTests {
    @Test func aCoreImageEditCommitsUprightAndReverts() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let asset = try PHImageManagerTests.asset(temporary, width: 800, height: 600, orientation: 6)
        #expect(asset.pixelWidth == 600 && asset.pixelHeight == 800)
        let input = try ContentEditingTests.input(asset)
        let output = PHContentEditingOutput(contentEditingInput: input)

        let url = try #require(input.fullSizeImageURL)
        let inputImage = try #require(CIImage(contentsOf: url)).oriented(forExifOrientation: input.fullSizeImageOrientation)
        #expect(inputImage.extent.size == CGSize(width: 600, height: 800))
        let sepia = CIFilter.sepiaTone()
        sepia.inputImage = inputImage
        sepia.intensity = 1
        let context = CIContext()
        try context.writeJPEGRepresentation(
            of: try #require(sepia.outputImage), to: output.renderedContentURL, colorSpace: try #require(inputImage.colorSpace))
        output.adjustmentData = PHAdjustmentData(formatIdentifier: "com.example.filters", formatVersion: "1.0", data: Data("CISepiaTone".utf8))
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }

        let edited = try ContentEditingTests.refetched(asset, library)
        #expect(edited.hasAdjustments && edited.pixelWidth == 600 && edited.pixelHeight == 800)
        let image = try #require(ContentEditingTests.image(edited, version: .current))
        #expect(image.size == CGSize(width: 150, height: 200))
        // Sepia's rows weigh red over green over blue: every pixel is warm.
        let pixels = [UInt8](try #require(image.pixelData()))
        let step = image.bytesPerPixel
        var cold = 0
        for index in stride(from: 0, to: pixels.count, by: step) {
            let (r, g, b) = (Int(pixels[index]), Int(pixels[index + 1]), Int(pixels[index + 2]))
            if r + 2 < g || g + 2 < b { cold += 1 }
        }
        #expect(cold == 0, "\(cold) pixels are not sepia")

        try library.performChangesAndWait { PHAssetChangeRequest(for: edited).revertAssetContentToOriginal() }
        #expect(try !ContentEditingTests.refetched(asset, library).hasAdjustments)
    }

    @Test func imagesCrossBetweenUIKitAndCoreImage() throws {
        let data = try TestImages.jpeg(width: 64, height: 48)
        let photo = try #require(UIImage(data: data))
        let ci = try #require(CIImage(image: photo))
        #expect(ci.extent.size == CGSize(width: 64, height: 48))
        let back = UIImage(ciImage: ci.applyingFilter("CIPhotoEffectMono"))
        #expect(back.size == CGSize(width: 64, height: 48))
        #expect(back.ciImage != nil && photo.ciImage == nil)
        let pixels = [UInt8](try #require(back.pixelData()))
        var coloured = 0
        for index in stride(from: 0, to: pixels.count, by: back.bytesPerPixel) where pixels[index] != pixels[index + 1] || pixels[index + 1] != pixels[index + 2] {
            coloured += 1
        }
        #expect(coloured == 0)
        #expect(CIImage(image: back)?.extent == ci.extent)
    }
}
