import Foundation
import Imaging
import PhotosTestSupport
import Testing

@testable import Photos

@Suite("Derivative cache")
struct DerivativeCacheTests {
    @Test func warmingMakesWhatIsMissingFromTheCurrentVersion() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let assets = try (0..<4).map { try PHImageManagerTests.asset(temporary, width: 1600 + $0 * 10, height: 1200, name: "w\($0).jpg") }
        #expect(library.derivativeCacheStatus() == PHDerivativeCacheStatus())
        // Edit one (keep its left half): its thumbnail must show the edit.
        let input = try ContentEditingTests.input(assets[0])
        let output = try ContentEditingTests.leftHalf(of: input)
        try library.performChangesAndWait { PHAssetChangeRequest(for: assets[0]).contentEditingOutput = output }

        let first = try library.makeDerivatives()
        #expect(first.made == 4 && first.failed == 0)
        #expect(try library.makeDerivatives().made == 0, "nothing missing the second time")
        let status = library.derivativeCacheStatus()
        #expect(status.thumbnails == 4 && status.previews == 0 && status.thumbnailBytes > 0)
        // The edited photo's centre square comes from its left half: red stays below half.
        let thumbnail = try VipsImage(contentsOf: DerivativeUseTests.derivative(temporary, assets[0], .thumbnail))
        #expect(thumbnail.width == 256 && thumbnail.height == 256)
        #expect(try thumbnail.pixel(x: 254, y: 128)[0] < 150)

        #expect(try library.makeDerivatives(previews: true).made == 4)
        #expect(library.derivativeCacheStatus().previews == 4)
    }

    @Test func trimmingRemovesTheLeastRecentlyUsedPreviewsOnly() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let assets = try (0..<3).map { try PHImageManagerTests.asset(temporary, width: 2000, height: 1500 + $0, name: "t\($0).jpg") }
        try library.makeDerivatives(previews: true)
        let previews = assets.map { DerivativeUseTests.derivative(temporary, $0, .preview) }
        // Used long ago, a while ago, just now.
        for (preview, age) in zip(previews, [7200.0, 3700, 0]) {
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-age)], ofItemAtPath: preview.path)
        }
        let sizes = try previews.map { try #require(FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? NSNumber).int64Value }
        #expect(library.trimDerivativeCache(toBytes: sizes[1] + sizes[2]) == 1)
        #expect(previews.map { FileManager.default.fileExists(atPath: $0.path) } == [false, true, true])
        // Serving a preview marks it used: the middle one is now the newest.
        _ = DerivativeUseTests.request(assets[1], CGSize(width: 800, height: 800), .aspectFit)
        #expect(library.trimDerivativeCache(toBytes: sizes[1]) == 1)
        #expect(previews.map { FileManager.default.fileExists(atPath: $0.path) } == [false, true, false])
        #expect(library.trimDerivativeCache(toBytes: 0) == 1)
        #expect(library.derivativeCacheStatus().thumbnails == 3, "thumbnails are never trimmed")

        // A crashed writer's temporary file goes once it is an hour old; a fresh one (being written) stays.
        let folder = DerivativeUseTests.derivative(temporary, assets[0], .thumbnail).deletingLastPathComponent()
        let abandoned = folder.appendingPathComponent(".\(UUID().uuidString).tmp")
        let fresh = folder.appendingPathComponent(".\(UUID().uuidString).tmp")
        try Data([1]).write(to: abandoned)
        try Data([2]).write(to: fresh)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-7200)], ofItemAtPath: abandoned.path)
        library.trimDerivativeCache(toBytes: 0)
        #expect(!FileManager.default.fileExists(atPath: abandoned.path) && FileManager.default.fileExists(atPath: fresh.path))
    }
}
