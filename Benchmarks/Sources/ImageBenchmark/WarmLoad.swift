import BenchmarkSupport
import Foundation
import Photos
import Synchronization

/// The warm runs: the cold run's requests again and again, every one a memory-cache hit, from
/// several threads at once for a fixed time. Each delivered image must be the very object the
/// cold run got (a re-render or an eviction would hand back a new one: counted as a miss).
///
/// - ``synchronous()``: `isSynchronous = true`; the latency is the `requestImage` call, which
///   returns after calling the handler on the calling thread.
/// - ``asynchronous(deliveryMode:)``: the same requests without `isSynchronous`, each thread
///   keeping up to `window` in flight; with `.highQualityFormat` the latency runs from the call
///   to the handler on the manager's serial delivery queue (a hop to another thread, plus
///   waiting behind the other deliveries); with the default `.opportunistic` a hit is answered
///   on the calling thread before the call returns.
struct WarmLoad {
    struct Outcome {
        let mode: String
        let threads: Int
        let window: Int
        let requests: Int
        let misses: Int
        let failures: Int
        let wallNanos: UInt64
        let latencies: Samples

        var hitsPerSecond: Double { Double(requests - misses - failures) / (Double(wallNanos) / 1e9) }
    }

    let assets: [PHAsset]
    let expected: [UIImage?]
    let size: Int
    let threads: Int
    let seconds: Double
    let window: Int

    /// One thread's tally.
    private struct ThreadResult: Sendable {
        var latencies: [UInt64] = []
        var misses = 0
        var failures = 0
        var start: UInt64 = 0
        var end: UInt64 = 0
    }

    /// Delivery-side bookkeeping of one asynchronous thread, touched only on the manager's
    /// serial delivery queue until the thread has taken back every permit of its window.
    private final class AsyncTally: @unchecked Sendable {
        var result = ThreadResult()
    }

    /// The delivered image of a synchronous request, written by the handler on the calling
    /// thread before `requestImage` returns.
    private final class Probe: @unchecked Sendable {
        var image: UIImage?
    }

    func synchronous() -> Outcome {
        let options = requestOptions(synchronous: true)
        return onThreads(mode: "sync", window: 1) { thread, deadline in
            let manager = PHImageManager.default()
            let target = CGSize(width: size, height: size)
            let probe = Probe()
            var result = ThreadResult()
            result.latencies.reserveCapacity(1 << 20)
            var index = thread * assets.count / threads
            result.start = monotonicNanos()
            var now = result.start
            while now < deadline {
                let before = now
                manager.requestImage(for: assets[index], targetSize: target, contentMode: .aspectFit, options: options) { image, _ in
                    probe.image = image
                }
                now = monotonicNanos()
                result.latencies.append(now - before)
                if let image = probe.image {
                    if image !== expected[index] { result.misses += 1 }
                } else {
                    result.failures += 1
                }
                probe.image = nil
                index = index + 1 == assets.count ? 0 : index + 1
            }
            result.end = now
            return result
        }
    }

    /// `.highQualityFormat` (mode `async`: delivered on the manager's queue) or the default
    /// `.opportunistic` (mode `async-default`: what a gallery asks; a memory-cache hit is
    /// answered before `requestImage` returns, as on Apple platforms).
    func asynchronous(deliveryMode: PHImageRequestOptionsDeliveryMode = .highQualityFormat) -> Outcome {
        let options = requestOptions(synchronous: false, deliveryMode: deliveryMode)
        return onThreads(mode: deliveryMode == .highQualityFormat ? "async" : "async-default", window: window) { thread, deadline in
            let manager = PHImageManager.default()
            let target = CGSize(width: size, height: size)
            let permits = DispatchSemaphore(value: window)
            let tally = AsyncTally()
            tally.result.latencies.reserveCapacity(1 << 20)
            let expected = self.expected
            var index = thread * assets.count / threads
            let start = monotonicNanos()
            var requests = 0
            while monotonicNanos() < deadline {
                permits.wait()
                let asked = index
                let before = monotonicNanos()
                manager.requestImage(for: assets[index], targetSize: target, contentMode: .aspectFit, options: options) { image, _ in
                    tally.result.latencies.append(monotonicNanos() - before)
                    if let image {
                        if image !== expected[asked] { tally.result.misses += 1 }
                    } else {
                        tally.result.failures += 1
                    }
                    permits.signal()
                }
                requests += 1
                index = index + 1 == assets.count ? 0 : index + 1
            }
            for _ in 0..<window { permits.wait() }  // every delivery is in
            // libdispatch traps when a semaphore goes away below its initial value.
            for _ in 0..<window { permits.signal() }
            var result = tally.result
            result.start = start
            result.end = monotonicNanos()
            precondition(result.latencies.count == requests, "lost deliveries")
            return result
        }
    }

    private func requestOptions(
        synchronous: Bool, deliveryMode: PHImageRequestOptionsDeliveryMode = .highQualityFormat
    ) -> PHImageRequestOptions {
        let options = PHImageRequestOptions()
        options.deliveryMode = deliveryMode
        options.isSynchronous = synchronous
        return options
    }

    /// Runs `body` on `threads` threads started together; each gets its number and the
    /// common deadline.
    private func onThreads(
        mode: String, window: Int, _ body: @escaping @Sendable (Int, UInt64) -> ThreadResult
    ) -> Outcome {
        let results = Mutex<[ThreadResult]>([])
        let ready = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        let done = DispatchGroup()
        let deadline = Mutex<UInt64>(0)
        for thread in 0..<threads {
            done.enter()
            let worker = Thread {
                ready.signal()
                go.wait()
                let result = body(thread, deadline.withLock { $0 })
                results.withLock { $0.append(result) }
                done.leave()
            }
            worker.name = "warm-\(mode)-\(thread)"
            worker.start()
        }
        for _ in 0..<threads { ready.wait() }
        deadline.withLock { $0 = monotonicNanos() + UInt64(seconds * 1e9) }
        for _ in 0..<threads { go.signal() }
        done.wait()

        let all = results.withLock { $0 }
        let start = all.map(\.start).min() ?? 0
        let end = all.map(\.end).max() ?? 0
        return Outcome(
            mode: mode, threads: threads, window: window, requests: all.reduce(0) { $0 + $1.latencies.count },
            misses: all.reduce(0) { $0 + $1.misses }, failures: all.reduce(0) { $0 + $1.failures },
            wallNanos: end - start, latencies: Samples(all.flatMap(\.latencies)))
    }
}
