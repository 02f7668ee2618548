import Foundation
@testable import Imaging
import PhotosTestSupport
import Testing

@testable import Photos

/// Photos carrying a Display P3 or CMYK profile are delivered in sRGB: the same red comes out
/// whichever space the file stores it in.
@Suite("Colour management")
struct ColourManagementTests {
    /// A 300 × 200 sRGB red (200, 30, 30), stored in `profile`.
    static func asset(_ temporary: TemporaryLibrary, profile: String?) throws -> (PHAsset, [Double]) {
        let source = try VipsImage.solid(width: 300, height: 200, rgb: [200, 30, 30])
        let stored = try profile.map { try source.converted(toProfile: $0) } ?? source
        let file = temporary.scratch.appendingPathComponent("\(profile ?? "srgb").jpg")
        try stored.jpegData(quality: 95).write(to: file)
        let storedPixel = try VipsImage(contentsOf: file).pixel(x: 150, y: 100)
        var identifier: String?
        try temporary.library.performChangesAndWait {
            identifier = PHAssetCreationRequest.creationRequestForAssetFromImage(atFileURL: file)?.placeholderForCreatedAsset?.localIdentifier
        }
        let created = try #require(identifier)
        return (try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [created], options: nil).firstObject }), storedPixel)
    }

    @Test(arguments: ["p3", "cmyk"])
    func embeddedProfilesAreConvertedToSRGB(profile: String) throws {
        let temporary = try TemporaryLibrary()
        let (asset, stored) = try Self.asset(temporary, profile: profile)
        #expect(abs(stored[0] - 200) > 10 || stored.count == 4, "the file holds other numbers than sRGB's: \(stored)")
        let image = try #require(PHImageManagerTests.request(asset, CGSize(width: 150, height: 150)) { $0.deliveryMode = .highQualityFormat }.first?.image)
        #expect(image.bytesPerPixel == 3)
        let pixel: [Int] = try #require(image.pixel(x: 75, y: 50)).map { Int($0) }
        // CMYK's round trip loses a little (its gamut and black generation): 15 levels.
        #expect(abs(pixel[0] - 200) <= 15 && abs(pixel[1] - 30) <= 15 && abs(pixel[2] - 30) <= 15, "\(profile): \(pixel)")
    }

    /// Only non-sRGB profiles cost a colour transform: sRGB ones are recognised by their description.
    @Test func sRGBProfilesAreRecognised() throws {
        let red = try VipsImage.solid(width: 8, height: 8, rgb: [200, 30, 30])
        let srgb = try #require(try red.converted(toProfile: "srgb").iccProfile)
        let p3 = try #require(try red.converted(toProfile: "p3").iccProfile)
        #expect(VipsImage.isSRGB(srgb))
        #expect(!VipsImage.isSRGB(p3))
        #expect(!VipsImage.isSRGB(Data(count: 200)))
    }
}
