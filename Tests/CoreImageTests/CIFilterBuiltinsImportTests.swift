import CoreImage.CIFilterBuiltins
import Foundation
import Testing

/// Apple's samples import the typed builders as `import CoreImage.CIFilterBuiltins`; this file
/// imports nothing else of Core Image, so it compiles only if that submodule resolves and
/// brings the CoreImage module with it.
@Suite("Core Image: import CoreImage.CIFilterBuiltins")
struct CIFilterBuiltinsImportTests {
    @Test func theSubmoduleImportBringsTheBuilders() throws {
        let sepia = CIFilter.sepiaTone()
        sepia.inputImage = CIImage(color: CIColor(red: 0.5, green: 0.5, blue: 0.5)).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 4))
        sepia.intensity = 1
        let output = try #require(sepia.outputImage)
        #expect(output.extent == CGRect(x: 0, y: 0, width: 4, height: 4))
        let image = try #require(CIContext().createCGImage(output, from: output.extent))
        let pixel = [UInt8](try #require(image.dataProvider?.data)).prefix(3)
        // Sepia tints grey: red above green above blue.
        #expect(pixel[0] > pixel[1] && pixel[1] > pixel[2], "\(Array(pixel))")
    }
}
