import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// `PHChange.touchedAssetIdentifiers`: the assets a change's journal entries name, so the
/// server's image-version cache forgets them without holding a fetch of every asset.
@Suite("Assets a change touched")
struct TouchedAssetTests {
    @Test func namesEveryAssetTheChangeTouchedAndNoCollection() throws {
        let (temporary, assets) = try ObserverTests.fixture(5)
        let library = temporary.library
        try library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
        }
        let album = try #require(
            library.withCurrent { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).firstObject })
        let recorder = ChangeRecorder()
        library.register(recorder)
        defer { library.unregisterChangeObserver(recorder) }

        try library.performChangesAndWait {
            PHAssetChangeRequest(for: assets[0]).isFavorite = true
            PHAssetChangeRequest(for: assets[1]).isHidden = true
            PHAssetCollectionChangeRequest(for: album)?.addAssets([assets[2]] as NSArray)
            PHAssetCollectionChangeRequest(for: album)?.title = "Trip 2026"
        }
        let change = try #require(recorder.wait(forPosition: library.currentChangeToken.position, after: 0).last)
        #expect(change.touchedAssetIdentifiers == Set(assets[0...2].map(\.localIdentifier)))

        // A hidden asset changed again is still named (a fetch without hidden assets would miss it).
        try library.performChangesAndWait { PHAssetChangeRequest(for: assets[1]).isFavorite = true }
        let hidden = try #require(recorder.wait(forPosition: library.currentChangeToken.position, after: 1).last)
        #expect(hidden.touchedAssetIdentifiers == [assets[1].localIdentifier])
    }

    @Test func deletedAssetsAreNamed() throws {
        let (temporary, assets) = try ObserverTests.fixture(3)
        let library = temporary.library
        let recorder = ChangeRecorder()
        library.register(recorder)
        defer { library.unregisterChangeObserver(recorder) }
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([assets[2]] as NSArray) }
        let change = try #require(recorder.wait(forPosition: library.currentChangeToken.position, after: 0).last)
        #expect(change.touchedAssetIdentifiers == [assets[2].localIdentifier])
    }
}
