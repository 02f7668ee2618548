import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// `PHPhotoLibrary(url:readOnly: true)`: reads, observes and loads images; never writes.
@Suite("A library opened read-only", .enabled(if: TestStore.isSQLite, "SQLite's own: the database file"))
struct ReadOnlyLibraryTests {
    @Test func readsButRefusesChangesAndKeepsNoNewFiles() throws {
        let temporary = try TemporaryLibrary()
        let asset = try PHImageManagerTests.asset(temporary, width: 1200, height: 900)
        let derivatives = temporary.url.appendingPathComponent("derivatives")
        for file in (try? FileManager.default.subpathsOfDirectory(atPath: derivatives.path)) ?? [] {
            try? FileManager.default.removeItem(at: derivatives.appendingPathComponent(file))
        }

        let reader = try PHPhotoLibrary(url: temporary.url, readOnly: true)
        #expect(reader.isReadOnly && !temporary.library.isReadOnly)
        let read = try #require(reader.withCurrent { PHAsset.fetchAssets(with: nil).firstObject })
        #expect(read.localIdentifier == asset.localIdentifier)

        // Images load; the thumbnail made on the way is not kept.
        let image = PHImageManagerTests.request(read, CGSize(width: 200, height: 200)) { $0.deliveryMode = .highQualityFormat }
        #expect(image.first?.image?.size == CGSize(width: 200, height: 150))
        #expect(((try? FileManager.default.subpathsOfDirectory(atPath: derivatives.path)) ?? []).filter { $0.hasSuffix(".jpg") }.isEmpty)

        // A change block fails with accessRestricted and changes nothing.
        do {
            try reader.performChangesAndWait { PHAssetChangeRequest(for: read).isFavorite = true }
            Issue.record("a read-only library saved a change")
        } catch let error as PHPhotosError {
            #expect(error.code == .accessRestricted)
            #expect(error.message.contains("read-only"))
        }
        #expect(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).firstObject?.isFavorite } == false)

        // It still hears of changes made elsewhere.
        try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
        #expect(reader.withCurrent { PHAsset.fetchAssets(with: nil).firstObject?.isFavorite } == true)
    }

    @Test func aFolderWithoutALibraryIsNotCreated() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("no-library-\(UUID().uuidString)")
        #expect(throws: PHPhotosError.self) { try PHPhotoLibrary(url: folder, readOnly: true) }
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }
}
