import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

@Suite("Change observers")
struct ObserverTests {
    static func fixture(_ count: Int = 5) throws -> (TemporaryLibrary, [PHAsset]) {
        let temporary = try TemporaryLibrary()
        try temporary.seed((0..<count).map { SyntheticAsset(creationDate: Date(timeIntervalSince1970: 1_000_000 + Double($0) * 60)) })
        return (temporary, temporary.library.withCurrent { Array(PHAsset.fetchAssets(with: nil)) })
    }

    @Test func oneCallPerTransactionOffTheMainThread() throws {
        let (temporary, assets) = try Self.fixture()
        let library = temporary.library
        let recorder = ChangeRecorder()
        library.register(recorder)
        defer { library.unregisterChangeObserver(recorder) }
        for asset in assets.prefix(3) {
            try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
        }
        let changes = recorder.wait(forPosition: library.currentChangeToken.position, after: 0)
        #expect(changes.count == 3)
        #expect(recorder.callsOnMainThread == 0)
        // Each change covers exactly its own transaction.
        for (change, asset) in zip(changes, assets) {
            let details = try #require(change.changeDetails(for: asset))
            #expect(details.objectAfterChanges?.isFavorite == true)
            #expect(details.objectWasDeleted == false)
            #expect(details.assetContentChanged == false)
            #expect(change.changeDetails(for: assets[4]) == nil)
        }
    }

    @Test func unregisteredAndReleasedObserversHearNothing() throws {
        let (temporary, assets) = try Self.fixture()
        let library = temporary.library
        let kept = ChangeRecorder()
        let dropped = ChangeRecorder()
        var released: ChangeRecorder? = ChangeRecorder()
        weak let weakReleased = released
        library.register(kept)
        library.register(dropped)
        library.register(released!)
        // Observers are called in the order they registered: when `last` has the change, the
        // others have had theirs, or never will.
        let last = ChangeRecorder()
        library.register(last)
        released = nil
        #expect(weakReleased == nil, "the library must not keep observers alive")
        library.unregisterChangeObserver(dropped)
        try library.performChangesAndWait { PHAssetChangeRequest(for: assets[0]).isHidden = true }
        #expect(kept.wait(forPosition: library.currentChangeToken.position, after: 0).count == 1)
        #expect(last.wait(forPosition: library.currentChangeToken.position, after: 0).count == 1)
        #expect(dropped.changes.isEmpty)
        library.unregisterChangeObserver(kept)
        library.unregisterChangeObserver(last)
    }

    @Test func deletionAndAlbumMembershipDetails() throws {
        let (temporary, assets) = try Self.fixture()
        let library = temporary.library
        try library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Kept")
        }
        let album = try #require(library.withCurrent { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).firstObject })
        let recorder = ChangeRecorder()
        library.register(recorder)
        defer { library.unregisterChangeObserver(recorder) }

        try library.performChangesAndWait {
            PHAssetCollectionChangeRequest(for: album)?.addAssets([assets[1]] as NSArray)
            PHAssetChangeRequest.deleteAssets([assets[2]] as NSArray)
        }
        let change = try #require(recorder.wait(forPosition: library.currentChangeToken.position, after: 0).first)
        let deleted = try #require(change.changeDetails(for: assets[2]))
        #expect(deleted.objectWasDeleted)
        #expect(deleted.objectAfterChanges == nil)
        // Joining an album changes the album, not the asset.
        #expect(change.changeDetails(for: assets[1]) == nil)
        let albumDetails = try #require(change.changeDetails(for: album))
        #expect(albumDetails.objectAfterChanges?.estimatedAssetCount == 1)
    }

    @Test func detailsForAResultSeveralChangesOld() throws {
        let (temporary, assets) = try Self.fixture(6)
        let library = temporary.library
        let held = library.withCurrent { PHAsset.fetchAssets(with: nil) }
        let recorder = ChangeRecorder()
        library.register(recorder)
        defer { library.unregisterChangeObserver(recorder) }
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([assets[0]] as NSArray) }
        try library.performChangesAndWait { PHAssetChangeRequest(for: assets[5]).creationDate = Date(timeIntervalSince1970: 0) }
        try library.performChangesAndWait { PHAssetChangeRequest(for: assets[3]).isFavorite = true }
        let changes = recorder.wait(forPosition: library.currentChangeToken.position, after: 0)
        let last = try #require(changes.last)
        // The held result missed two changes; the last change's details still take it to now.
        let details = try #require(last.changeDetails(for: held))
        #expect(details.removedIndexes == IndexSet(integer: 0))
        #expect(details.insertedIndexes == IndexSet())
        var moves: [String] = []
        details.enumerateMoves { moves.append("\($0)→\($1)") }
        #expect(moves == ["5→0"])
        // The moved asset's date changed too, so it is also reported changed.
        #expect(Set(details.changedObjects.map(\.localIdentifier)) == [assets[3].localIdentifier, assets[5].localIdentifier])
        #expect(details.fetchResultAfterChanges.map(\.localIdentifier) == [assets[5], assets[1], assets[2], assets[3], assets[4]].map(\.localIdentifier))
        // Asking again gives the same details.
        #expect(last.changeDetails(for: held) === details)
        // The up-to-date result is not affected by the last change.
        #expect(last.changeDetails(for: details.fetchResultAfterChanges) == nil)
    }

    @Test func noIncrementalDetailsWhenNotWanted() throws {
        let (temporary, assets) = try Self.fixture()
        let library = temporary.library
        let options = PHFetchOptions()
        options.wantsIncrementalChangeDetails = false
        let held = library.withCurrent { PHAsset.fetchAssets(with: options) }
        let recorder = ChangeRecorder()
        library.register(recorder)
        defer { library.unregisterChangeObserver(recorder) }
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([assets[0]] as NSArray) }
        let change = try #require(recorder.wait(forPosition: library.currentChangeToken.position, after: 0).first)
        let details = try #require(change.changeDetails(for: held))
        #expect(details.hasIncrementalChanges == false)
        #expect(details.removedIndexes == nil)
        #expect(details.fetchResultAfterChanges.count == 4)
    }

    @Test func asyncSequenceOfChanges() async throws {
        let (temporary, assets) = try Self.fixture()
        let library = temporary.library
        let favorites = PHFetchOptions()
        favorites.predicate = NSPredicate(format: "favorite == YES")
        var held = library.withCurrent { PHAsset.fetchAssets(with: favorites) }
        let stream = library.changes
        try await library.performChanges { PHAssetChangeRequest(for: assets[2]).isFavorite = true }
        for await change in stream {
            let details = try #require(change.changeDetails(for: held))
            #expect(details.insertedIndexes == IndexSet(integer: 0))
            held = details.fetchResultAfterChanges
            break
        }
        #expect(held.firstObject?.localIdentifier == assets[2].localIdentifier)
    }

    @Test func publicDiffOfTwoFetchResults() throws {
        let (temporary, assets) = try Self.fixture()
        let library = temporary.library
        let before = library.withCurrent { PHAsset.fetchAssets(with: nil) }
        try library.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets([assets[1]] as NSArray)
            PHAssetChangeRequest(for: assets[0]).creationDate = Date(timeIntervalSince1970: 9_000_000)
        }
        let after = library.withCurrent { PHAsset.fetchAssets(with: nil) }
        let details = PHFetchResultChangeDetails(from: before, to: after, changedObjects: [assets[3]])
        #expect(details.removedIndexes == IndexSet(integer: 1))
        var moves: [[Int]] = []
        details.enumerateMoves { moves.append([$0, $1]) }
        #expect(moves == [[0, 3]])
        #expect(details.changedIndexes == IndexSet(integer: 1))
    }
}
