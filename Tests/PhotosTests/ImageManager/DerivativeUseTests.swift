import Foundation
import Imaging
import PhotosTestSupport
import Testing

@testable import Photos

/// The image manager reads the cheapest good source: the grid thumbnail, the preview (made on
/// first need and kept), or the original; expunging an asset removes its derivatives.
@Suite("Image manager and derivatives")
struct DerivativeUseTests {
    /// A 3000 × 2000 gradient imported with its grid thumbnail.
    static func imported(_ temporary: TemporaryLibrary, thumbnails: Bool = true) throws -> PHAsset {
        let folder = temporary.scratch.appendingPathComponent("in", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try TestImages.writeJPEG(to: folder.appendingPathComponent("big.jpg"), width: 3000, height: 2000)
        var options = PHAssetImporter.Options()
        options.makesThumbnails = thumbnails
        #expect(PHAssetImporter(library: temporary.library, options: options).importFiles(at: [folder]).imported.count == 1)
        return try #require(PHAssetImporterTests.assets(temporary.library).first)
    }

    static func derivative(_ temporary: TemporaryLibrary, _ asset: PHAsset, _ kind: StandardDerivative) -> URL {
        temporary.url.appendingPathComponent(kind.relativePath(assetUUID: asset.uuid))
    }

    static func request(_ asset: PHAsset, _ size: CGSize, _ mode: PHImageContentMode, exact: Bool = false) -> UIImage? {
        PHImageManagerTests.request(asset, size, mode) {
            $0.deliveryMode = .highQualityFormat
            if exact { $0.resizeMode = .exact }
        }.first?.image
    }

    @Test func squareGridRequestsComeFromTheThumbnail() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.imported(temporary)
        // Replace the thumbnail with a plain 256 px gradient: what the manager delivers shows where it read.
        let thumbnail = Self.derivative(temporary, asset, .thumbnail)
        #expect(FileManager.default.fileExists(atPath: thumbnail.path))
        try TestImages.image(width: 256, height: 256).jpegData(quality: 90).write(to: thumbnail)
        let image = try #require(Self.request(asset, CGSize(width: 128, height: 128), .aspectFill, exact: true))
        #expect(image.size == CGSize(width: 128, height: 128))
        // The original's centre square starts a sixth of the way in (red ≈ 42); the test
        // thumbnail's left edge is red ≈ 0.
        let red = Int(image.pixel(x: 1, y: 64)?[0] ?? 255)
        #expect(red < 20, "read from the thumbnail: \(red)")
        // Not a square fill: from the original (or preview), with the photo's colours.
        let fit = try #require(Self.request(asset, CGSize(width: 128, height: 128), .aspectFit, exact: true))
        #expect(fit.size == CGSize(width: 128, height: 85))
    }

    @Test func aGridRequestWithoutAThumbnailMakesAndKeepsIt() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.imported(temporary, thumbnails: false)
        let thumbnail = Self.derivative(temporary, asset, .thumbnail)
        #expect(!FileManager.default.fileExists(atPath: thumbnail.path))
        let image = try #require(Self.request(asset, CGSize(width: 224, height: 224), .aspectFill, exact: true))
        #expect(image.size == CGSize(width: 224, height: 224))
        let made = try VipsImage(contentsOf: thumbnail)
        #expect(made.width == 256 && made.height == 256)
        // Straight from the original at 1/8 scale: no preview was made for it.
        #expect(!FileManager.default.fileExists(atPath: Self.derivative(temporary, asset, .preview).path))
    }

    @Test func previewsAreMadeOnFirstNeedAndServeLaterSizes() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.imported(temporary)
        let preview = Self.derivative(temporary, asset, .preview)
        #expect(!FileManager.default.fileExists(atPath: preview.path))
        let first = try #require(Self.request(asset, CGSize(width: 900, height: 900), .aspectFit))
        #expect(first.size == CGSize(width: 900, height: 600))
        let made = try VipsImage(contentsOf: preview)
        #expect(made.width == 1440 && made.height == 960)

        // With the original gone, other sizes up to the preview's still load (from it).
        for file in temporary.originalFiles() {
            try FileManager.default.removeItem(at: temporary.url.appendingPathComponent("originals").appendingPathComponent(file))
        }
        let later = try #require(Self.request(asset, CGSize(width: 600, height: 600), .aspectFit))
        #expect(later.size == CGSize(width: 600, height: 400))
        let red = Int(later.pixel(x: 598, y: 200)?[0] ?? 0)
        #expect(red > 205, "the photo's right edge: \(red)")
        // More than the preview has needs the original: missing.
        let full = PHImageManagerTests.request(asset, PHImageManagerMaximumSize) { $0.deliveryMode = .highQualityFormat }
        #expect(full.first?.image == nil)
        #expect((full.first?.error as? PHPhotosError)?.code == .missingResource)
    }

    @Test func expungingAnAssetRemovesItsDerivatives() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.imported(temporary)
        _ = Self.request(asset, CGSize(width: 1000, height: 1000), .aspectFit)
        let files = [Self.derivative(temporary, asset, .thumbnail), Self.derivative(temporary, asset, .preview)]
        #expect(files.allSatisfy { FileManager.default.fileExists(atPath: $0.path) })
        try temporary.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([asset] as NSArray) }
        #expect(files.allSatisfy { FileManager.default.fileExists(atPath: $0.path) }, "kept while in Recently Deleted")
        try temporary.library.performChangesAndWait { PHAssetChangeRequest.deleteAssetsPermanently([asset] as NSArray) }
        #expect(files.allSatisfy { !FileManager.default.fileExists(atPath: $0.path) })
    }
}
