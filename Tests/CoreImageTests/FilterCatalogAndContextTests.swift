import CoreGraphics
import Foundation
import Imaging
import PhotosTestSupport
import Testing

@testable import CoreImage

/// The filter catalogue's names, keys and defaults, the typed builders, and what a context
/// writes: JPEG, PNG, HEIC, files through a rename, and Apple's nil for what can't be drawn.
@Suite("Core Image: catalogue and context")
struct FilterCatalogAndContextTests {
    static let issueFilters = [
        "CIColorControls", "CIExposureAdjust", "CIGammaAdjust", "CIHueAdjust", "CITemperatureAndTint", "CIVibrance", "CIHighlightShadowAdjust",
        "CIColorMatrix", "CISepiaTone", "CIColorMonochrome", "CIPhotoEffectChrome", "CIPhotoEffectFade", "CIPhotoEffectInstant",
        "CIPhotoEffectMono", "CIPhotoEffectNoir", "CIPhotoEffectProcess", "CIPhotoEffectTonal", "CIPhotoEffectTransfer", "CIVignette",
        "CIGaussianBlur", "CISharpenLuminance", "CIUnsharpMask", "CICrop", "CIAffineTransform", "CIStraightenFilter", "CISourceOverCompositing",
    ]

    @Test func everyFilterIsThereWithApplesKeysAndDefaults() throws {
        #expect(Set(CIFilter.filterNames(inCategory: nil)) == Set(Self.issueFilters))
        #expect(Set(CIFilter.filterNames(inCategory: kCICategoryBuiltIn)) == Set(Self.issueFilters))
        #expect(CIFilter.filterNames(inCategory: kCICategoryBlur) == ["CIGaussianBlur"])
        #expect(CIFilter(name: "CINoSuchFilter") == nil)
        let controls = try #require(CIFilter(name: "CIColorControls"))
        #expect(controls.name == "CIColorControls")
        #expect(controls.inputKeys == ["inputImage", "inputSaturation", "inputBrightness", "inputContrast"])
        #expect(controls.outputKeys == ["outputImage"])
        #expect(controls.value(forKey: kCIInputSaturationKey) as? Double == 1)
        #expect(controls.outputImage == nil, "no input image yet")
        controls.setValue(0.2, forKey: kCIInputSaturationKey)
        controls.setValue("ignored", forKey: "inputNothing")
        #expect(controls.value(forKey: kCIInputSaturationKey) as? Double == 0.2)
        #expect(controls.value(forKey: "inputNothing") == nil)
        controls.setDefaults()
        #expect(controls.value(forKey: kCIInputSaturationKey) as? Double == 1)
        let attributes = controls.attributes
        #expect(attributes[kCIAttributeFilterName] as? String == "CIColorControls")
        #expect((attributes[kCIAttributeFilterCategories] as? [String])?.contains(kCICategoryColorAdjustment) == true)
        #expect(((attributes["inputContrast"] as? [String: Any])?[kCIAttributeDefault]) as? Double == 1)
        #expect((CIFilter(name: "CIVignette")?.value(forKey: kCIInputRadiusKey) as? Double) == 1)
        #expect((CIFilter(name: "CIGaussianBlur")?.value(forKey: kCIInputRadiusKey) as? Double) == 10)
        #expect((CIFilter(name: "CITemperatureAndTint")?.value(forKey: "inputNeutral") as? CIVector) == CIVector(x: 6500, y: 0))
    }

    @Test func buildersReadAndWriteTheSameInputs() throws {
        let (image, _) = try CI.noise()
        let sepia = CIFilter.sepiaTone()
        #expect(sepia.name == "CISepiaTone" && sepia.intensity == 1)
        sepia.inputImage = image
        sepia.intensity = 0.25
        #expect(sepia.value(forKey: kCIInputIntensityKey) as? Float == 0.25)
        #expect(try CI.rgba(try #require(sepia.outputImage)).bytes == CI.rgba(image.applyingFilter("CISepiaTone", parameters: [kCIInputIntensityKey: 0.25])).bytes)
        let controls = CIFilter.colorControls()
        controls.saturation = 0
        #expect(controls.value(forKey: kCIInputSaturationKey) as? Float == 0)
        let monochrome = CIFilter.colorMonochrome()
        monochrome.color = .red
        #expect(monochrome.color == CIColor.red)
        let noir: any CIFilter & CIPhotoEffect = CIFilter.photoEffectNoir()
        #expect(noir.name == "CIPhotoEffectNoir")
        let composite = CIFilter.sourceOverCompositing()
        composite.inputImage = image
        composite.backgroundImage = CIImage.black
        #expect(composite.outputImage?.extent.isInfinite == true)
        #expect((CIFilter.temperatureAndTint().neutral) == CIVector(x: 6500, y: 0))
        let copy = try #require(sepia.copy() as? CIFilter)
        #expect(copy.value(forKey: kCIInputIntensityKey) as? Float == 0.25)
    }

    @Test func aContextWritesJPEGPNGAndHEIC() throws {
        let photo = try #require(CIImage(data: try TestImages.jpeg(width: 320, height: 240, noisy: true)))
        #expect(photo.extent == CGRect(x: 0, y: 0, width: 320, height: 240))
        let edited = photo.applyingFilter("CISepiaTone")
        let context = CIContext()
        let sRGB = try #require(CGColorSpace(name: CGColorSpace.sRGB))
        let fine = try #require(context.jpegRepresentation(of: edited, colorSpace: sRGB, options: [kCGImageDestinationLossyCompressionQuality as CIImageRepresentationOption: 0.95]))
        let rough = try #require(context.jpegRepresentation(of: edited, colorSpace: sRGB, options: [kCGImageDestinationLossyCompressionQuality: 0.3]))
        #expect(rough.count < fine.count)
        let decoded = try VipsImage(data: fine)
        #expect(decoded.width == 320 && decoded.height == 240 && decoded.bands == 3)

        let png = try #require(context.pngRepresentation(of: edited, format: .RGBA8, colorSpace: sRGB))
        #expect(try VipsImage(data: png).bands == 4)
        if VipsImage.canSaveHEIF {
            let heic = try #require(context.heifRepresentation(of: edited, format: .RGBA8, colorSpace: sRGB))
            #expect(try VipsImage(data: heic).width == 320)
        }
        // Display P3: tagged with its profile, and a colour that fits sRGB stays close.
        let displayP3 = try #require(CGColorSpace(name: CGColorSpace.displayP3))
        let p3 = try #require(context.jpegRepresentation(of: edited, colorSpace: displayP3))
        #expect(try VipsImage(data: p3).iccProfile != nil)

        // Nothing to draw: nil, as on Apple's platforms.
        #expect(context.jpegRepresentation(of: CIImage(color: .red), colorSpace: sRGB) == nil)
        let adobe = try #require(CGColorSpace(name: CGColorSpace.adobeRGB1998))
        #expect(context.jpegRepresentation(of: edited, colorSpace: adobe) == nil)
        #expect(context.createCGImage(edited, from: .null) == nil)
        let cg = try #require(context.createCGImage(edited, from: CGRect(x: 10, y: 10, width: 30, height: 20)))
        #expect(cg.width == 30 && cg.height == 20 && cg.alphaInfo == .last)
    }

    @Test func writingAFileIsWholeOrAbsent() throws {
        let folder = try TestImages.temporaryDirectory("core-image")
        let photo = try #require(CIImage(data: try TestImages.jpeg(width: 64, height: 48)))
        let url = folder.appendingPathComponent("out.jpg")
        let sRGB = CGColorSpaceCreateDeviceRGB()
        try CIContext().writeJPEGRepresentation(of: photo.applyingFilter("CIPhotoEffectChrome"), to: url, colorSpace: sRGB)
        #expect(try VipsImage(contentsOf: url).width == 64)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.jpg"])
        #expect(throws: (any Error).self) {
            try CIContext().writeJPEGRepresentation(of: CIImage(color: .blue), to: folder.appendingPathComponent("infinite.jpg"), colorSpace: sRGB)
        }
        #expect(throws: (any Error).self) {
            try CIContext().writePNGRepresentation(of: photo, to: folder.appendingPathComponent("missing/out.png"), format: .RGBA8, colorSpace: sRGB)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.jpg"])
    }

    @Test func imagesFromFilesKeepTheirOrientation() throws {
        var exif = ExifBuilder()
        exif.orientation = 6
        let data = try TestImages.jpeg(width: 60, height: 40, exif: exif)
        let image = try #require(CIImage(data: data))
        #expect(image.properties["Orientation"] as? Int == 6)
        #expect(image.extent.size == CGSize(width: 60, height: 40))
        #expect(image.oriented(forExifOrientation: 6).extent.size == CGSize(width: 40, height: 60))
        // The render is upright: its file says so (no orientation carried over from the source).
        let jpeg = try #require(CIContext().jpegRepresentation(of: image.oriented(forExifOrientation: 6), colorSpace: CGColorSpaceCreateDeviceRGB()))
        let decoded = try VipsImage(data: jpeg)
        #expect(decoded.width == 40 && decoded.height == 60 && (decoded.exifOrientation ?? 1) == 1)
        #expect(CIImage(data: Data("not an image".utf8)) == nil)
        #expect(CIImage(contentsOf: URL(fileURLWithPath: "/nonexistent.jpg")) == nil)
    }
}
