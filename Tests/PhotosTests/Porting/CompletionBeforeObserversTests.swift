import Foundation
import Photos
import PhotosTestSupport
import PhotosLocking
import Testing

/// Apple's SamplePhotosApp deletes the asset its asset view shows, unregisters that view as an
/// observer in `performChanges`' completion handler, and force-unwraps `objectAfterChanges` in
/// the view's observer. That is safe only if the completion handler runs before observers hear
/// of the change, and an observer unregistered by then is never called for it.
@Suite("performChanges' completion runs before observers hear of the change")
struct CompletionBeforeObserversTests {
    /// The asset view of Apple's sample: observes its asset until told otherwise.
    final class AssetView: PHPhotoLibraryChangeObserver, Sendable {
        let asset: Mutex<PHAsset>
        /// Calls after the completion handler unregistered the view: must stay 0.
        let callsAfterUnregistering = Atomic(0)
        /// Calls whose `objectAfterChanges` was nil (where the sample force-unwraps).
        let deletedUnderneath = Atomic(0)
        let unregistered = Atomic(false)

        init(asset: PHAsset) { self.asset = Mutex(asset) }

        func photoLibraryDidChange(_ changeInstance: PHChange) {
            if unregistered.load(ordering: .acquiring) { callsAfterUnregistering.add(1, ordering: .relaxed) }
            guard let details = changeInstance.changeDetails(for: asset.withLock { $0 }) else { return }
            guard let after = details.objectAfterChanges else {
                deletedUnderneath.add(1, ordering: .relaxed)
                return
            }
            asset.withLock { $0 = after }
        }
    }

    @Test func aViewUnregisteredInTheCompletionIsNeverToldOfTheDelete() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let rounds = 300
        let ids = try temporary.seed((0..<rounds).map { _ in SyntheticAsset() })
        let assets = library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil) }
        var violations = 0
        for asset in assets {
            let view = AssetView(asset: asset)
            library.register(view)
            // Registered after the view, so it is called after the view in each delivery: when
            // it has heard of the delete, the view has been called or never will be.
            let later = ChangeWaiter()
            library.register(later)
            let completed = DispatchSemaphore(value: 0)
            library.performChanges {
                PHAssetChangeRequest.deleteAssets([asset] as NSArray)
            } completionHandler: { _, _ in
                library.unregisterChangeObserver(view)
                view.unregistered.store(true, ordering: .releasing)
                completed.signal()
            }
            #expect(completed.wait(timeout: .now() + 20) == .success)
            #expect(library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).count } == 0)
            #expect(later.next() != nil, "the delete was never delivered")
            library.unregisterChangeObserver(later)
            violations += view.callsAfterUnregistering.load(ordering: .relaxed) + view.deletedUnderneath.load(ordering: .relaxed)
        }
        #expect(violations == 0, "\(violations) of \(rounds) deletes reached a view its completion handler had unregistered")
    }

    @Test func observersStillHearOfChangesWithoutACompletionHandler() throws {
        let temporary = try TemporaryLibrary()
        let ids = try temporary.seed([SyntheticAsset()])
        let waiter = ChangeWaiter()
        temporary.library.register(waiter)
        defer { temporary.library.unregisterChangeObserver(waiter) }
        let asset = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil).firstObject })
        temporary.library.performChanges {
            PHAssetChangeRequest(for: asset).isFavorite = true
        }
        let change = try #require(waiter.next())
        #expect(change.changeDetails(for: asset)?.objectAfterChanges?.isFavorite == true)
    }
}
