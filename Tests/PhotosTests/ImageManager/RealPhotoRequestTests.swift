import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// Real photos from Debian packages (`make fixtures`): the eight EXIF orientations of one "F"
/// picture come out the same upright, and camera JPEGs at the sizes their geometry says.
@Suite("PHImageManager on real photos", .enabled(if: Fixtures.available))
struct RealPhotoRequestTests {
    static func imported(_ temporary: TemporaryLibrary, _ files: [URL]) throws -> [String: PHAsset] {
        let report = PHAssetImporter(library: temporary.library).importFiles(at: files)
        var byName: [String: PHAsset] = [:]
        try temporary.library.withCurrent {
            for item in report.imported {
                guard case .imported(let identifier, _) = item.outcome else { continue }
                byName[item.files[0].lastPathComponent] = try #require(
                    PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil).firstObject)
            }
        }
        return byName
    }

    @Test func everyOrientationComesOutUpright() throws {
        let temporary = try TemporaryLibrary()
        let names = (1...8).map { "f\($0)-exif.jpg" }
        let assets = try Self.imported(temporary, names.map(Fixtures.url))
        #expect(assets.count == 8)
        let images = try names.map { name in
            let asset = try #require(assets[name])
            let delivered = PHImageManagerTests.request(asset, CGSize(width: 120, height: 120)) {
                $0.deliveryMode = .highQualityFormat
                $0.resizeMode = .exact
            }
            return try #require(delivered.first?.image)
        }
        let reference = try #require(images[0].pixelData())
        for (name, image) in zip(names, images).dropFirst() {
            #expect(image.size == images[0].size, "\(name)")
            guard let pixels = image.pixelData(), pixels.count == reference.count else { continue }
            let difference = zip(pixels, reference).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) } / pixels.count
            #expect(difference < 12, "\(name) differs from f1 by \(difference) per channel: turned the wrong way?")
        }
    }

    @Test func cameraPhotosAtTheirGeometry() throws {
        let temporary = try TemporaryLibrary()
        let files = try Fixtures.kphotoalbum().prefix(6)
        let assets = try Self.imported(temporary, Array(files))
        for (name, asset) in assets {
            let expected = ImageGeometry.plan(
                sourceWidth: asset.pixelWidth, sourceHeight: asset.pixelHeight, target: CGSize(width: 256, height: 256),
                contentMode: .aspectFit, resizeMode: .fast, normalizedCrop: .zero)
            let delivered = PHImageManagerTests.request(asset, CGSize(width: 256, height: 256)) { $0.deliveryMode = .highQualityFormat }
            let image = try #require(delivered.first?.image)
            #expect(Int(image.size.width) == expected.width && Int(image.size.height) == expected.height, "\(name)")
            let pixels = try #require(image.pixelData())
            let values = Set(pixels.prefix(30_000))
            #expect(values.count > 40, "\(name) is a real picture, not a blank: \(values.count) distinct values")
        }
    }
}
