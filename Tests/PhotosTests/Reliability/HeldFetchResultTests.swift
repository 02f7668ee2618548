import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// A fetch result holds row ids; an id must never come back as another object while a result
/// still holds it (SQLite reuses the largest deleted row id of a table without
/// `AUTOINCREMENT`).
@Suite("Held fetch results across deletions")
struct HeldFetchResultTests {
    static let day: TimeInterval = 86_400

    @Test func anExpungedAssetsIDIsNotGivenToTheNextAsset() throws {
        let temporary = try TemporaryLibrary()
        let ids = try temporary.seed([SyntheticAsset(), SyntheticAsset()])
        let held = temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil) }
        #expect(held.count == 2)
        // The newest row (the largest id) removed for good, then a new asset.
        let newest = temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [ids[1]], options: nil) }
        try temporary.library.performChangesAndWait { PHAssetChangeRequest.deleteAssetsPermanently(newest) }
        let added = try temporary.seed([SyntheticAsset(mediaType: .video)])[0]

        let read = held.map(\.localIdentifier)
        #expect(!read.contains(added), "the held result presents the new asset in place of the expunged one")
        #expect(read.contains(ids[0]))
        let gone = try #require(held.first { $0.localIdentifier != ids[0] })
        #expect(gone.mediaType == .unknown, "the expunged asset reads as a vanished asset")
    }

    @Test func anExpungedAlbumsIDIsNotGivenToTheNextCollection() throws {
        let temporary = try TemporaryLibrary()
        try temporary.library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Kept")
        }
        try temporary.library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Deleted")
        }
        let held = temporary.library.withCurrent { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }
        #expect(held.count == 2)
        let deleted = try #require(
            temporary.library.withCurrent {
                PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).first { $0.localizedTitle == "Deleted" }
            })
        try temporary.library.performChangesAndWait { PHAssetCollectionChangeRequest.deleteAssetCollections([deleted] as NSArray) }
        // A new album, then a new folder: neither may take the deleted album's place.
        try temporary.library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "New album")
        }
        try temporary.library.performChangesAndWait {
            _ = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "New folder")
        }
        // The held result's objects are read now, after the changes.
        let titles = held.map(\.localizedTitle)
        #expect(titles.contains("Kept"))
        #expect(!titles.contains("New album"), "the held result presents another album in the deleted one's place")
        #expect(!titles.contains("New folder"))
        #expect(titles.filter { $0 == nil }.count == 1, "the deleted album reads as a vanished one")
    }

    @Test func regroupedMomentsNeverPresentAnotherMoment() throws {
        let temporary = try TemporaryLibrary()
        let base = Date(timeIntervalSince1970: 1_600_000_000)
        // One at a time, so the later moment (and its cluster) are the newest rows.
        let first = try temporary.seed([SyntheticAsset(creationDate: base)]) + temporary.seed([SyntheticAsset(creationDate: base + 10 * Self.day)])
        let held = temporary.library.withCurrent { PHAssetCollection.fetchAssetCollections(with: .moment, subtype: .any, options: nil) }
        #expect(held.count == 2)
        let before = held.map(\.localIdentifier)
        // The later moment empties (its only asset removed for good) and is deleted; a photo on
        // another day makes a new moment.
        let later = temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [first[1]], options: nil) }
        try temporary.library.performChangesAndWait { PHAssetChangeRequest.deleteAssetsPermanently(later) }
        _ = try temporary.seed([SyntheticAsset(creationDate: base + 20 * Self.day)])
        let now = temporary.library.withCurrent {
            PHAssetCollection.fetchAssetCollections(with: .moment, subtype: .any, options: nil).map(\.localIdentifier)
        }
        #expect(now.count == 2 && now[0] == before[0])
        let newMoment = try #require(now.last)
        #expect(!before.contains(newMoment))
        // Read through the held result again (a fresh batch read from the store).
        let reread = PHFetchResult<PHAssetCollection>(held).map { Array($0) } ?? []
        #expect(reread.count == 2)
        #expect(!reread.map(\.localIdentifier).contains(newMoment), "the held result presents the new moment in the old one's place")
        #expect(reread[0].localIdentifier == before[0])
    }
}
