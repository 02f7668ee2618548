import Foundation
import PhotosTestSupport
import PhotosLocking
import Testing

@testable import Photos

/// Observers of a library that changes often: what a server taking hundreds of changes a
/// second needs from the dispatcher.
@Suite("Change observers under load")
struct ObserverLoadTests {
    @Test func aResultNoChangeTouchesIsDiffedFromTheNewestChange() throws {
        let (temporary, assets) = try ObserverTests.fixture(3)
        let library = temporary.library
        let deleted = library.withCurrent { PHAsset.fetchRecentlyDeletedAssets(with: nil) }
        let start = deleted.diffBase
        let recorder = ChangeRecorder()
        library.register(recorder)
        defer { library.unregisterChangeObserver(recorder) }
        for asset in assets {
            try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
        }
        let favorites = recorder.wait(forPosition: library.currentChangeToken.position, after: 0)
        #expect(favorites.count == 3)
        for change in favorites { #expect(change.changeDetails(for: deleted) == nil) }
        // Favorites don't touch Recently Deleted: later details read the journal from here.
        #expect(deleted.diffBase == library.currentChangeToken.position)
        #expect(deleted.diffBase > start)

        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([assets[1]] as NSArray) }
        let deletion = try #require(recorder.wait(forPosition: library.currentChangeToken.position, after: 3).first)
        let details = try #require(deletion.changeDetails(for: deleted))
        #expect(details.insertedIndexes == IndexSet(integer: 0))
        #expect(details.insertedObjects.map(\.localIdentifier) == [assets[1].localIdentifier])
        #expect(details.fetchResultAfterChanges.count == 1)
    }

    @Test func commitsPastEightWaitingArriveTogether() throws {
        let count = 20
        let (temporary, assets) = try ObserverTests.fixture(count)
        let library = temporary.library
        let observer = SlowObserver(library: library)
        library.register(observer)
        defer { library.unregisterChangeObserver(observer) }

        try library.performChangesAndWait { PHAssetChangeRequest(for: assets[0]).isFavorite = true }
        observer.entered.wait()  // the observer now holds up every later delivery
        for asset in assets.dropFirst() {
            try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
        }
        observer.proceed.signal()
        let end = library.currentChangeToken.position
        let deadline = Date().addingTimeInterval(10)
        while observer.lastPosition < end && Date() < deadline { usleep(1_000) }

        // The first, then one per commit for the 8 that waited with a snapshot, then the other
        // 11 together.
        #expect(observer.positions.count == 1 + ChangeDispatcher.maximumSnapshotsWaiting + 1)
        #expect(observer.positions == observer.positions.sorted() && Set(observer.positions).count == observer.positions.count)
        #expect(observer.lastPosition == end)
        // Kept up to date through the details alone, the favorites are all there.
        #expect(observer.favoriteCount == count)
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "isFavorite == YES")
        #expect(library.withCurrent { PHAsset.fetchAssets(with: options).count } == count)
    }
}

/// An observer that holds up its first delivery until told to go on, and keeps a favorites
/// fetch result up to date from the details, as a gallery does.
private final class SlowObserver: PHPhotoLibraryChangeObserver, @unchecked Sendable {
    // @unchecked Sendable: `state` is behind a Mutex; the semaphores are thread-safe.
    let entered = DispatchSemaphore(value: 0)
    let proceed = DispatchSemaphore(value: 0)
    private let state: Mutex<(favorites: PHFetchResult<PHAsset>, positions: [Int64])>

    init(library: PHPhotoLibrary) {
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "isFavorite == YES")
        state = Mutex((library.withCurrent { PHAsset.fetchAssets(with: options) }, []))
    }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        let first = state.withLock { $0.positions.isEmpty }
        if first {
            entered.signal()
            proceed.wait()
        }
        state.withLock { state in
            if let details = changeInstance.changeDetails(for: state.favorites) {
                state.favorites = details.fetchResultAfterChanges
            }
            state.positions.append(changeInstance.position)
        }
    }

    var positions: [Int64] { state.withLock { $0.positions } }
    var lastPosition: Int64 { positions.last ?? -1 }
    var favoriteCount: Int { state.withLock { $0.favorites.count } }
}
