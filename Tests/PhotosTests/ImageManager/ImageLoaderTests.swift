import Foundation
import Imaging
import PhotosTestSupport
import PhotosLocking
import Testing

@testable import Photos

/// The loader's scheduling, with renders that record when they run: one worker, its first job
/// held on a gate, so the order of what follows is exact.
@Suite("Image loader scheduling")
struct ImageLoaderTests {
    static func key(_ name: String) -> ImageKey {
        let geometry = ImageGeometry.plan(
            sourceWidth: 100, sourceHeight: 100, target: CGSize(width: 10, height: 10), contentMode: .aspectFit,
            resizeMode: .exact, normalizedCrop: .zero)
        return ImageKey(assetUUID: name, version: .current, geometry: geometry, library: 0, sourceID: 0)
    }

    final class Recorder: Sendable {
        let order = Mutex<[String]>([])
        let gate = DispatchSemaphore(value: 0)
        let image: UIImage

        init() throws {
            image = UIImage(decoded: try VipsImage.solid(width: 4, height: 4, rgb: [1, 2, 3]).materialized())
        }

        func render(_ name: String, waitingOnGate: Bool = false) -> @Sendable () throws(PHPhotosError) -> UIImage {
            { [self] () throws(PHPhotosError) -> UIImage in
                if waitingOnGate { gate.wait() }
                order.withLock { $0.append(name) }
                return image
            }
        }
    }

    @Test func visibleRequestsRunBeforeQueuedPreheats() throws {
        let recorder = try Recorder()
        let log = ImageLoaderEventLog()
        let loader = ImageLoader(cache: ImageMemoryCache(costLimit: 1 << 20), maximumConcurrentRenders: 1, delegate: EventDelegate(imageLoader: log.hook))
        loader.preheat(Self.key("P0"), render: recorder.render("P0", waitingOnGate: true))
        for index in 1...3 { loader.preheat(Self.key("P\(index)"), render: recorder.render("P\(index)")) }
        let done = DispatchSemaphore(value: 0)
        loader.load(Self.key("V"), requestID: 1, priority: .visible, render: recorder.render("V")) { _ in done.signal() }
        recorder.gate.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(log.wait { $0.filter(\.isFinish).count == 5 })
        #expect(recorder.order.withLock { $0 } == ["P0", "V", "P1", "P2", "P3"])
        #expect(log.all.filter { if case .started = $0 { true } else { false } } == [
            .started(assetUUID: "P0", preheat: true), .started(assetUUID: "V", preheat: false),
            .started(assetUUID: "P1", preheat: true), .started(assetUUID: "P2", preheat: true), .started(assetUUID: "P3", preheat: true),
        ])
    }

    @Test func identicalRequestsShareARenderAndCancelledOnesAreDropped() throws {
        let recorder = try Recorder()
        let log = ImageLoaderEventLog()
        let loader = ImageLoader(cache: ImageMemoryCache(costLimit: 1 << 20), maximumConcurrentRenders: 1, delegate: EventDelegate(imageLoader: log.hook))
        let delivered = Mutex<[Int32]>([])
        let done = DispatchGroup()
        loader.load(Self.key("busy"), requestID: 1, priority: .visible, render: recorder.render("busy", waitingOnGate: true)) { _ in }
        for id: Int32 in [2, 3] {
            done.enter()
            loader.load(Self.key("same"), requestID: id, priority: .visible, render: recorder.render("same")) { _ in
                delivered.withLock { $0.append(id) }
                done.leave()
            }
        }
        loader.load(Self.key("dropped"), requestID: 4, priority: .visible, render: recorder.render("dropped")) { _ in
            delivered.withLock { $0.append(4) }
        }
        #expect(loader.cancel(requestID: 4, key: Self.key("dropped")))
        #expect(!loader.cancel(requestID: 4, key: Self.key("dropped")), "already gone")
        loader.preheat(Self.key("stopped"), render: recorder.render("stopped"))
        loader.stopPreheating(Self.key("stopped"))
        // Both left the queue before the gate opened: they can never run.
        #expect(log.all.filter(\.isDrop) == [.dropped(assetUUID: "dropped"), .dropped(assetUUID: "stopped")])
        recorder.gate.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(log.wait { $0.contains(.finished(assetUUID: "same")) })
        #expect(recorder.order.withLock { $0 } == ["busy", "same"], "one render for both, none for the dropped")
        #expect(Set(delivered.withLock { $0 }) == [2, 3])
        #expect(loader.queuedCount == 0)
        // Now cached: a later load answers at once, without rendering.
        loader.load(Self.key("same"), requestID: 5, priority: .visible, render: recorder.render("again")) { _ in }
        #expect(!recorder.order.withLock { $0 }.contains("again"))
    }
}
