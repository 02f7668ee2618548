import CoreGraphics
import CoreMedia
import Foundation
import Imaging
import PhotosLocking

/// The frames of one ``AVAssetImageGenerator`` batch: planned into runs, decoded by two threads
/// of its own (each runs one `ffmpeg` process at a time), handed back in the order asked.
///
/// The threads are the batch's own, not Dispatch's: a run blocks its thread reading the
/// process's pipe for up to seconds, and on Linux Dispatch's pool adds a thread for blocked
/// workers only after about a second (a strip waited ~1 s before each second run). Handing back
/// takes no thread either: whichever thread settles the next frame in order delivers it and
/// those after it that are ready, one thread at a time.
final class FrameBatch: Sendable {
    typealias Outcome = Swift.Result<(CGImage, CMTime), any Error>

    private let times: [CMTime]
    private let isCancelled: @Sendable () -> Bool
    private let deliver: @Sendable (CMTime, Outcome) -> Void
    private let state = Mutex(State())

    private struct State {
        var outcomes: [Int: Outcome] = [:]
        /// The next request to hand back, and whether a thread is handing back now.
        var next = 0
        var delivering = false
        var runs: [[Int]] = []
        var nextRun = 0
    }

    init(times: [CMTime], isCancelled: @escaping @Sendable () -> Bool, deliver: @escaping @Sendable (CMTime, Outcome) -> Void) {
        self.times = times
        self.isCancelled = isCancelled
        self.deliver = deliver
    }

    /// Plans and decodes on the batch's threads; returns at once.
    func start(asset: AVAsset, settings: AVAssetImageGenerator.Settings) {
        Thread { self.plan(asset: asset, settings: settings) }.start()
    }

    private func plan(asset: AVAsset, settings: AVAssetImageGenerator.Settings) {
        let plan: FramePlan
        do {
            plan = try FramePlan(asset: asset, settings: settings)
        } catch {
            return settle(Array(times.indices), .failure(error))
        }
        // Each request's frame, or its error; the requests waiting for each frame.
        var waiting: [Int: [Int]] = [:]
        for (index, time) in times.enumerated() {
            do {
                waiting[try plan.frame(at: time), default: []].append(index)
            } catch {
                settle([index], .failure(error))
            }
        }
        let firstRequest = { (run: [Int]) in run.flatMap { waiting[$0] ?? [] }.min() ?? .max }
        let runs = FramePlan.runs(of: Array(waiting.keys), keyframes: MovieKeyframes.read(from: plan.url))
            .sorted { firstRequest($0) < firstRequest($1) }
        state.withLock { $0.runs = runs }
        let requests = waiting
        if runs.count > 1 { Thread { self.decodeRuns(plan, requests) }.start() }
        decodeRuns(plan, requests)
    }

    /// Takes the next run not taken until there is none.
    private func decodeRuns(_ plan: FramePlan, _ requests: [Int: [Int]]) {
        while let run = state.withLock({ state -> [Int]? in
            guard state.nextRun < state.runs.count else { return nil }
            state.nextRun += 1
            return state.runs[state.nextRun - 1]
        }) {
            decode(run, plan, requests)
        }
    }

    private func decode(_ run: [Int], _ plan: FramePlan, _ requests: [Int: [Int]]) {
        let settleFrame = { (frame: Int, outcome: Outcome) in self.settle(requests[frame] ?? [], outcome) }
        guard !isCancelled() else { return run.forEach { settleFrame($0, .failure(CancellationError())) } }
        var given = Set<Int>()
        do throws(AVError) {
            try plan.decode(run) { frame, image in
                given.insert(frame)
                settleFrame(frame, .success((image, plan.time(of: frame))))
                return !isCancelled()
            }
        } catch {
            return run.filter { !given.contains($0) }.forEach { settleFrame($0, .failure(error)) }
        }
        let left = run.filter { !given.contains($0) }
        if isCancelled() { return left.forEach { settleFrame($0, .failure(CancellationError())) } }
        // Frames a run didn't give (a movie shorter than its header says): each alone, for its
        // own frame or its own error.
        for frame in left {
            settleFrame(frame, Swift.Result { () throws(AVError) in (try plan.image(of: frame), plan.time(of: frame)) })
        }
    }

    /// Records the outcome of `requests`, then hands back what is ready in order, unless
    /// another thread is doing so (it will find these when it looks again).
    private func settle(_ requests: [Int], _ outcome: Outcome) {
        state.withLock { state in for index in requests { state.outcomes[index] = outcome } }
        var ready = takeNext(finishing: false)
        while let (index, outcome) = ready {
            deliver(times[index], outcome)
            ready = takeNext(finishing: true)
        }
    }

    /// The next request's outcome if it is ready and no other thread is handing back; with
    /// `finishing`, this thread was handing back and stops being the one unless it takes more.
    private func takeNext(finishing: Bool) -> (Int, Outcome)? {
        state.withLock { state in
            if finishing { state.delivering = false }
            guard !state.delivering, let outcome = state.outcomes.removeValue(forKey: state.next) else { return nil }
            state.delivering = true
            state.next += 1
            return (state.next - 1, outcome)
        }
    }
}
