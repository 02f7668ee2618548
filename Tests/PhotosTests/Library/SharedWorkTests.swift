import Foundation
import Imaging
import PhotosLocking
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// Work shared by every process and instance on one library (video renditions, thumbnails
/// and previews): claimed through the engine (SQLite: a lock file's byte locks; PostgreSQL:
/// advisory locks on a session of the claim's own), so each piece is done by one of them.
@Suite("Shared work")
struct SharedWorkTests {
    @Test func aClaimHeldThroughOneHandleIsRefusedToAnother() throws {
        let temporary = try TemporaryLibrary()
        let first = try temporary.openStoreAgain(gazetteer: .custom(nil))
        let second = try temporary.openStoreAgain(gazetteer: .custom(nil))
        let key = JobKey.rendition(assetID: 7)
        let held = try #require(try first.claimJob(key, waiting: false))
        #expect(try second.claimJob(key, waiting: false) == nil, "held through the first handle")
        #expect(try second.claimJob(.rendition(assetID: 8), waiting: false) != nil, "another job is free")
        #expect(try second.claimJob(.thumbnail(assetUUID: "00000000-0000-4000-8000-000000000007"), waiting: false) != nil, "another kind is free")

        // A waiting claim gets it once the holder lets go.
        let granted = DispatchSemaphore(value: 0)
        let waiter = Mutex<(any JobClaim)?>(nil)
        Thread {
            let claim = try? second.claimJob(key, waiting: true)
            waiter.withLock { $0 = claim ?? nil }
            granted.signal()
        }.start()
        held.release()
        #expect(granted.wait(timeout: .now() + 30) == .success)
        let claim = try #require(waiter.withLock { $0 })
        #expect(try first.claimJob(key, waiting: false) == nil, "now the second handle holds it")
        claim.release()
        #expect(try first.claimJob(key, waiting: false) != nil)
    }

    @Test(.enabled(if: TestStore.isPostgres, "PostgreSQL: a claim's session dropped by the server (as when its instance is killed)"))
    func aClaimWhoseSessionIsGoneIsFree() throws {
        let temporary = try TemporaryLibrary()
        let first = try temporary.openStoreAgain(gazetteer: .custom(nil))
        let second = try temporary.openStoreAgain(gazetteer: .custom(nil))
        let key = JobKey.rendition(assetID: 42)
        let held = try #require(try first.claimJob(key, waiting: false))
        #expect(try second.claimJob(key, waiting: false) == nil)
        let holders = try temporary.texts("SELECT pid::text FROM pg_locks WHERE locktype = 'advisory' AND classid = 1 AND objid = 42")
        #expect(holders.count == 1)
        // With a timeout the call returns once the backend is gone (and its locks with it), not
        // when the signal is sent: a busy machine may take a moment to end it.
        try temporary.execute("SELECT pg_terminate_backend(\(try #require(holders.first.flatMap { Int32($0) }))::int, 10000)")
        #expect(try second.claimJob(key, waiting: false) != nil, "the server let go of the dead session's lock")
        held.release()
    }

    /// A preview another process or instance is making (it holds the claim) is waited for and
    /// read when it is there, not made a second time over it.
    @Test func aPreviewBeingMadeElsewhereIsWaitedForAndRead() throws {
        let events = ImageLoaderEventLog()
        let temporary = try TemporaryLibrary(configuration: events.configuration())
        let asset = try DerivativeUseTests.imported(temporary)
        let preview = DerivativeUseTests.derivative(temporary, asset, .preview)
        let elsewhere = try temporary.openStoreAgain(gazetteer: .custom(nil))
        let claim = try #require(try elsewhere.claimJob(.preview(assetUUID: asset.uuid), waiting: false))

        let delivered = Mutex<UIImage?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread {
            delivered.withLock { $0 = DerivativeUseTests.request(asset, CGSize(width: 900, height: 900), .aspectFit) }
            done.signal()
        }.start()
        // The render has begun; the other side finishes its preview, then lets go.
        #expect(events.wait { $0.contains(.started(assetUUID: asset.uuid, preheat: false)) })
        let made = try TestImages.image(width: 1440, height: 960).jpegData(quality: 90)
        try made.write(to: preview)
        claim.release()
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(delivered.withLock { $0?.size } == CGSize(width: 900, height: 600))
        #expect(try Data(contentsOf: preview) == made, "the waiting render read the preview instead of writing its own")
    }

    @Test(.enabled(if: TestClip.isAvailable, "needs ffmpeg (apt install ffmpeg)"))
    func twoHandlesMakeEachRenditionOnce() async throws {
        let temporary = try TemporaryLibrary()
        var videos: [PHAsset] = []
        for index in 0..<4 {
            videos.append(try VideoRequestTests.addVideo(temporary, TestClip.iPhone(duration: 1), name: "IMG_00\(index).MOV"))
        }
        // Two processes or instances on the library, each with its background workers.
        let log = Mutex<[(handle: Int, event: VideoRenditionEvent)]>([])
        let (events, continuation) = AsyncStream<Void>.makeStream()
        func configuration(_ handle: Int) -> PHPhotoLibrary.Configuration {
            var configuration = PHPhotoLibrary.Configuration()
            configuration.delegate = EventDelegate(videoRenditions: { event in
                log.withLock { $0.append((handle, event)) }
                continuation.yield()
            })
            return configuration
        }
        let handles = [try temporary.openAgain(configuration: configuration(0)), try temporary.openAgain(configuration: configuration(1))]
        for handle in handles { handle.videoRenditions.startBackgroundWork() }
        defer { for handle in handles { handle.videoRenditions.stopBackgroundWork() } }
        for await _ in events {
            let finished = log.withLock { $0.filter { if case .finished = $0.event { true } else { false } }.count }
            if finished >= videos.count { break }
        }
        let started = log.withLock { $0.compactMap { entry -> String? in if case .started(let uuid, _) = entry.event { uuid } else { nil } } }
        #expect(started.count == videos.count, "each rendition started once: \(started)")
        #expect(Set(started) == Set(videos.map(\.uuid)))
        #expect(try temporary.library.videoRenditions.counts() == RenditionCounts(made: videos.count))
    }
}
