import Foundation
import PhotosLocking
@testable import Photos
import PhotosPostgres
import PhotosStore
@testable import PhotosStorePostgres
import PhotosTestSupport
import Testing

/// A commit's snapshot for its observers is sent without waiting for the server
/// (`makeSnapshot(sentAhead:)`): the next commit waits for it to be taken before its own
/// `COMMIT`, so each change still arrives alone, however late the server runs the snapshot.
@Suite("PostgreSQL snapshots sent ahead", .postgresInstalled)
struct PostgresSnapshotTests {
    private final class Recorder: PHPhotoLibraryChangeObserver, Sendable {
        let received = Mutex<[PHChange]>([])
        func photoLibraryDidChange(_ changeInstance: PHChange) {
            received.withLock { $0.append(changeInstance) }
        }
    }

    @Test func aSnapshotRunLateStillSeesItsOwnCommitAlone() throws {
        let server = try ThrowawayPostgres()
        let (library, first, folder) = try PostgresRoundTripTests.libraryWithAPhoto(on: try server.createDatabase())
        defer { try? FileManager.default.removeItem(at: folder) }
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! TestImages.jpeg(), options: nil)
        }
        let second = try #require(library.withCurrent { PHAsset.fetchAssets(with: nil) }.objects(at: IndexSet(0..<2)).first { $0 != first })
        let engine = try #require(library.store.engine as? PostgresEngine)
        let recorder = Recorder()
        library.register(recorder)
        defer { library.unregisterChangeObserver(recorder) }

        // The server sleeps before each snapshot: the second commit is ready long before the
        // first commit's snapshot would be taken.
        engine.snapshotLagMilliseconds.store(1000, ordering: .relaxed)
        var started = Date()
        try library.performChangesAndWait { PHAssetChangeRequest(for: first).isFavorite = true }
        let firstTook = Date().timeIntervalSince(started)
        started = Date()
        try library.performChangesAndWait { PHAssetChangeRequest(for: second).isFavorite = true }
        let secondTook = Date().timeIntervalSince(started)
        let position = try library.currentPosition()
        let deadline = Date().addingTimeInterval(20)
        while recorder.received.withLock({ $0.last?.position ?? 0 }) < position, Date() < deadline { usleep(1000) }
        engine.snapshotLagMilliseconds.store(0, ordering: .relaxed)

        let changes = recorder.received.withLock { $0 }
        #expect(changes.count == 2, "\(changes.count) changes delivered for 2 commits")
        #expect(changes.first?.changeDetails(for: first) != nil)
        #expect(changes.first?.changeDetails(for: second) == nil, "the first change's snapshot saw the second commit")
        #expect(changes.last?.changeDetails(for: second) != nil)
        // The first commit went on without waiting for its snapshot; the second waited for it.
        #expect(firstTook < 1, "the first commit took \(firstTook) s")
        #expect(secondTook > 0.5, "the second commit took \(secondTook) s")
    }

    /// A commit's delivery reads the journal with its snapshot's first read, both sent when the
    /// commit took the snapshot: a change and its delivery wait for the change block's one
    /// answer (its `COMMIT`) and none more (3 when the delivery read the journal on its own, 2
    /// while the block read the asset's row before updating it).
    @Test func aDeliveryReadsTheJournalWithItsSnapshot() throws {
        let server = try ThrowawayPostgres()
        let (library, asset, folder) = try PostgresRoundTripTests.libraryWithAPhoto(on: try server.createDatabase())
        defer { try? FileManager.default.removeItem(at: folder) }
        let engine = try #require(library.store.engine as? PostgresEngine)
        let recorder = Recorder()
        library.register(recorder)
        defer { library.unregisterChangeObserver(recorder) }
        func delivered(_ count: Int) {
            let deadline = Date().addingTimeInterval(10)
            while recorder.received.withLock({ $0.count }) < count, Date() < deadline { usleep(500) }
        }
        var waits: [Int] = []
        for (index, value) in [true, false, true, false, true].enumerated() {
            let before = engine.answersWaitedFor
            try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = value }
            delivered(index + 1)
            waits.append(engine.answersWaitedFor - before)
        }
        print("answers waited for per change and its delivery: \(waits)")
        #expect(recorder.received.withLock { $0.count } == 5)
        // The first has no snapshot before it to start from; a wake-up's look at the position
        // (the commit's own NOTIFY) may add one to any.
        #expect(waits.dropFirst().min() == 1, "\(waits)")
        #expect(waits.allSatisfy { $0 <= 3 }, "\(waits)")
    }
}
