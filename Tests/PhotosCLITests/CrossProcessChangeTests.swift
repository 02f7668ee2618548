import Foundation
import Photos
import PhotosTestSupport
import PhotosLocking
import Testing

@Suite("Changes from another process", .blocking)
struct CrossProcessChangeTests {
    /// `photos favorite` runs as a child process; this process's observer gets the change with
    /// the same details a local change would have. The library here never looks at the journal
    /// by itself (no fallback timer): only the CLI's signal file can wake its observers.
    @Test func cliChangeReachesThisProcessWithDetails() throws {
        let temporary = try TemporaryLibrary()
        let ids = try temporary.seed((0..<4).map { SyntheticAsset(creationDate: Date(timeIntervalSince1970: 1_000 + Double($0))) })
        var configuration = PHPhotoLibrary.Configuration()
        configuration.changeCheckInterval = .never
        let library = try PHPhotoLibrary(url: temporary.url, configuration: configuration)
        let favorites = PHFetchOptions()
        favorites.predicate = NSPredicate(format: "isFavorite == YES")
        let held = library.withCurrent { PHAsset.fetchAssets(with: favorites) }
        let asset = try #require(library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [ids[2]], options: nil).firstObject })
        let recorder = ArrivalRecorder()
        library.register(recorder)
        defer { library.unregisterChangeObserver(recorder) }

        let output = try CLIRunner(temporary).run(["favorite", ids[2]])
        #expect(output.status == 0, "\(output.stderr)")
        try #require(recorder.arrived.wait(timeout: .now() + 20) == .success, "the signal file did not wake the observers")
        let change = try #require(recorder.received.first)
        let details = try #require(change.changeDetails(for: held))
        #expect(details.insertedIndexes == IndexSet(integer: 0))
        #expect(details.insertedObjects.map(\.localIdentifier) == [ids[2]])
        #expect(change.changeDetails(for: asset)?.objectAfterChanges?.isFavorite == true)
    }
}
