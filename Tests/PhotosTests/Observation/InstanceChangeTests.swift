import Foundation
import Photos
import PhotosTestSupport
import Testing

/// Two handles on one library (two `photos serve` instances over one database, or two
/// processes on one folder): a change through one reaches the other's observers with the same
/// details, woken by the engine (SQLite: the signal file; PostgreSQL: `NOTIFY`), not by a timer.
@Suite("Changes from another instance")
struct InstanceChangeTests {
    /// The other handle looks only when woken (no fallback timer).
    private static func quietHandle(_ temporary: TemporaryLibrary) throws -> PHPhotoLibrary {
        var configuration = PHPhotoLibrary.Configuration()
        configuration.changeCheckInterval = .never
        return try temporary.openAgain(configuration: configuration)
    }

    @Test func aFavoriteThroughOneHandleReachesTheOthersObserversWithDetails() throws {
        let temporary = try TemporaryLibrary()
        let ids = try temporary.seed((0..<4).map { SyntheticAsset(creationDate: Date(timeIntervalSince1970: 1_000 + Double($0))) })
        let other = try Self.quietHandle(temporary)
        let favorites = PHFetchOptions()
        favorites.predicate = NSPredicate(format: "isFavorite == YES")
        let held = other.withCurrent { PHAsset.fetchAssets(with: favorites) }
        let heldAsset = try #require(other.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [ids[1]], options: nil).firstObject })
        let recorder = ArrivalRecorder()
        other.register(recorder)
        defer { other.unregisterChangeObserver(recorder) }

        let asset = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [ids[1]], options: nil).firstObject })
        try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }

        try #require(recorder.arrived.wait(timeout: .now() + 20) == .success, "the other handle's observers were not woken")
        let change = try #require(recorder.received.first)
        let details = try #require(change.changeDetails(for: held))
        #expect(details.insertedObjects.map(\.localIdentifier) == [ids[1]])
        #expect(details.insertedIndexes == IndexSet(integer: 0))
        #expect(change.changeDetails(for: heldAsset)?.objectAfterChanges?.isFavorite == true)
    }

    /// A server answering a page right after another instance answered a change: asked to,
    /// the handle delivers what was committed elsewhere before returning, not when its
    /// wake-up (the signal file, `NOTIFY`) comes. Five changes, each told before the call
    /// returns.
    @Test func changesCommittedElsewhereAreDeliveredOnRequest() throws {
        let temporary = try TemporaryLibrary()
        let ids = try temporary.seed((0..<5).map { SyntheticAsset(creationDate: Date(timeIntervalSince1970: 1_000 + Double($0))) })
        let other = try Self.quietHandle(temporary)
        let all = other.withCurrent { PHAsset.fetchAssets(with: nil) }
        let recorder = ArrivalRecorder()
        other.register(recorder)
        defer { other.unregisterChangeObserver(recorder) }
        // Nothing new: a position read and nothing told.
        try other.deliverChangesCommittedElsewhere()
        #expect(recorder.received.isEmpty)

        for (index, id) in ids.enumerated() {
            let asset = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil).firstObject })
            try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = true }
            try other.deliverChangesCommittedElsewhere()
            let told = recorder.received.compactMap { $0.changeDetails(for: all) }.flatMap(\.changedObjects).map(\.localIdentifier)
            #expect(Set(told) == Set(ids[...index]), "change \(index + 1) was not told before the call returned")
        }
    }

    /// PostgreSQL: the listening connection dropped (a server restart, a network blip) comes
    /// back by itself, and the handle reads what was committed meanwhile from the history.
    @Test(.enabled(if: TestStore.isPostgres, "PostgreSQL's LISTEN connection"))
    func aDroppedListenConnectionReconnectsAndCatchesUp() throws {
        let temporary = try TemporaryLibrary()
        let ids = try temporary.seed([SyntheticAsset(), SyntheticAsset()])
        let other = try Self.quietHandle(temporary)
        let all = other.withCurrent { PHAsset.fetchAssets(with: nil) }
        let recorder = ArrivalRecorder()
        other.register(recorder)
        defer { other.unregisterChangeObserver(recorder) }
        // Wait for the first LISTEN, then cut every listening connection.
        try #require(try temporary.waitForListeners(atLeast: 1, timeout: 20), "no LISTEN connection came up")
        #expect(try temporary.terminateListeners() >= 1)

        let asset = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [ids[0]], options: nil).firstObject })
        try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: asset).isHidden = true }

        try #require(recorder.arrived.wait(timeout: .now() + 20) == .success, "no wake-up after the connection was cut")
        let details = try #require(recorder.received.compactMap { $0.changeDetails(for: all) }.last)
        #expect(details.fetchResultAfterChanges.count == 1)
        #expect(details.removedObjects.map(\.localIdentifier) == [ids[0]])
    }
}
