import Foundation
import Photos
import PhotosTestSupport
import PhotosLocking
import Testing

@Suite("Changes from another process")
struct CrossProcessChangeTests {
    final class Recorder: PHPhotoLibraryChangeObserver, Sendable {
        let received = Mutex<[(PHChange, Date)]>([])
        func photoLibraryDidChange(_ changeInstance: PHChange) {
            received.withLock { $0.append((changeInstance, Date())) }
        }
    }

    /// `photos favorite` runs as a child process; this process's observer gets the change with
    /// the same details a local change would have.
    @Test func cliChangeReachesThisProcessWithDetails() throws {
        let temporary = try TemporaryLibrary()
        let ids = try temporary.seed((0..<4).map { SyntheticAsset(creationDate: Date(timeIntervalSince1970: 1_000 + Double($0))) })
        let library = temporary.library
        let favorites = PHFetchOptions()
        favorites.predicate = NSPredicate(format: "isFavorite == YES")
        let held = library.withCurrent { PHAsset.fetchAssets(with: favorites) }
        let asset = try #require(library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [ids[2]], options: nil).firstObject })
        let recorder = Recorder()
        library.register(recorder)
        defer { library.unregisterChangeObserver(recorder) }

        let output = try CLIRunner(temporary).run(["favorite", ids[2]])
        #expect(output.status == 0, "\(output.stderr)")
        let exited = Date()
        let deadline = Date().addingTimeInterval(5)
        while recorder.received.withLock({ $0.isEmpty }) && Date() < deadline { usleep(500) }
        let (change, arrived) = try #require(recorder.received.withLock { $0.first })
        let details = try #require(change.changeDetails(for: held))
        #expect(details.insertedIndexes == IndexSet(integer: 0))
        #expect(details.insertedObjects.map(\.localIdentifier) == [ids[2]])
        #expect(change.changeDetails(for: asset)?.objectAfterChanges?.isFavorite == true)
        // Woken by the signal file, not the one-second fallback look.
        #expect(arrived.timeIntervalSince(exited) < 0.9, "delivered \(arrived.timeIntervalSince(exited)) s after the CLI exited")
    }
}
