import Foundation
import Imaging
import PhotosTestSupport
import PhotosLocking
import Testing

@testable import Photos

/// Issue 19: once renders go idle, the heap's free pages go back to the kernel, once per idle
/// spell; and the memory cache's figures stay within its bound.
@Suite("Idle memory release")
struct IdleMemoryReleaseTests {
    /// Counts releases and lets a test wait for the next one.
    final class Releases: Sendable {
        let counts = Mutex<[Int]>([])
        let arrived = DispatchSemaphore(value: 0)

        func make(delay: DispatchTimeInterval, queue: DispatchQueue = DispatchQueue(label: "test.memoryRelease")) -> IdleMemoryRelease {
            IdleMemoryRelease(delay: delay, queue: queue) { [self] count in
                counts.withLock { $0.append(count) }
                arrived.signal()
            }
        }

        func waitForOne() -> Bool { arrived.wait(timeout: .now() + 30) == .success }
    }

    /// A loader's renders, one held on a gate and one queued behind it: no release while
    /// either is busy, one when the last has ended.
    @Test func releasesOnceWhenTheLoaderDrains() throws {
        let releases = Releases()
        let memoryRelease = releases.make(delay: .milliseconds(0))
        let recorder = try ImageLoaderTests.Recorder()
        let log = ImageLoaderEventLog()
        let loader = ImageLoader(
            cache: ImageMemoryCache(costLimit: 1 << 20), maximumConcurrentRenders: 1, memoryRelease: memoryRelease, delegate: EventDelegate(imageLoader: log.hook))
        let done = DispatchGroup()
        for (name, gated) in [("held", true), ("queued", false)] {
            done.enter()
            loader.load(ImageLoaderTests.key(name), requestID: name == "held" ? 1 : 2, priority: .visible, render: recorder.render(name, waitingOnGate: gated)) { _ in
                done.leave()
            }
        }
        #expect(log.wait { $0.contains(.started(assetUUID: "held", preheat: false)) })
        #expect(memoryRelease.releaseCount == 0, "a render is running")
        recorder.gate.signal()
        #expect(done.wait(timeout: .now() + 30) == .success)
        #expect(releases.waitForOne())
        #expect(releases.counts.withLock { $0 } == [1])
        #expect(log.all.filter(\.isFinish).count == 2)
    }

    /// Work that begins again before the delay is over cancels the release scheduled when the
    /// previous work ended: a scrolling gallery doesn't walk the heap between two screens. The
    /// releases' queue is held while the work ends, begins and ends again, so both scheduled
    /// releases are waiting, in order, when it goes on.
    @Test func workBeginningAgainSkipsTheScheduledRelease() {
        let releases = Releases()
        let queue = DispatchQueue(label: "test.memoryRelease.held")
        queue.suspend()
        let memoryRelease = releases.make(delay: .milliseconds(0), queue: queue)
        memoryRelease.begin()
        memoryRelease.end()  // schedules a release...
        memoryRelease.begin()  // ...which this makes stale
        memoryRelease.end()  // and this schedules the one that runs
        queue.resume()
        #expect(releases.waitForOne())
        // The stale one was first on the same serial queue: had it run, it would be here.
        queue.sync {}
        #expect(releases.counts.withLock { $0 } == [1])
        #expect(memoryRelease.releaseCount == 1)
    }

    /// The public figures: the cache stays within its bound through evictions, and the
    /// library's renders lead to a release.
    @Test func statisticsShowTheCacheWithinItsBound() throws {
        let releases = Releases()
        let log = ImageLoaderEventLog()
        var configuration = log.configuration(maximumConcurrentDecodes: 2)
        // Room for two 160 × 120 RGB images (57,600 bytes each), not three.
        configuration.imageCacheBytes = 120_000
        configuration.memoryRelease = releases.make(delay: .milliseconds(0))
        let temporary = try TemporaryLibrary(configuration: configuration)
        let assets = try (0..<4).map { try PHImageManagerTests.asset(temporary, width: 640, height: 480, name: "s\($0).jpg") }
        for asset in assets {
            let delivered = PHImageManagerTests.request(asset, CGSize(width: 160, height: 160)) { $0.deliveryMode = .highQualityFormat }
            #expect(delivered.last?.image != nil)
        }
        #expect(releases.waitForOne())
        let statistics = temporary.library.imageMemoryStatistics
        #expect(statistics.cacheLimit == 120_000)
        #expect(statistics.cachedImages == 2, "the two most recent; the others evicted")
        #expect(statistics.cachedBytes == 2 * 160 * 120 * 3)
        #expect(statistics.peakCachedBytes <= statistics.cacheLimit && statistics.peakCachedBytes >= statistics.cachedBytes)
        #expect(statistics.idleMemoryReleases >= 1)
    }
}
