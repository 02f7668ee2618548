import Foundation
import PhotosLocking

/// The threads of one kind of background work (video renditions, text recognition): each runs
/// the work's `cycle` while it finds something to do, then sleeps until woken (``wake()``, or a
/// change to the library that may have given it work) or until the work's next retry is due
/// (at most 30 s), until ``stop()``.
final class BackgroundWorkers: Sendable {
    private struct State {
        var running = false
        var workers = 0
        /// The change observer that wakes the workers, and its library (held while running).
        var waker: (observer: AssetWorkWaker, library: PHPhotoLibrary)?
    }

    /// The threads' name, numbered (at most 12 characters: Linux keeps 15 of a thread's name).
    private let name: String
    private let state = Mutex(State())
    private let wakeups = DispatchSemaphore(value: 0)

    init(name: String) {
        self.name = name
    }

    /// Starts `count` threads at utility priority, unless they run already; with `library`,
    /// they are woken by its changes that may add work (``PHChange/mayAddAssetWork``).
    /// `cycle` does one piece of work and says whether there was one; `nextRetry` says when
    /// failed work is due again.
    func start(
        count: Int, wakingOnChangesTo library: PHPhotoLibrary?, cycle: @escaping @Sendable () -> Bool,
        nextRetry: @escaping @Sendable () -> Date?
    ) {
        let started = state.withLock { state -> Bool in
            guard !state.running else { return false }
            state.running = true
            state.workers += count
            return true
        }
        guard started else { return }
        if let library {
            let waker = AssetWorkWaker { [weak self] in self?.wake() }
            state.withLock { $0.waker = (waker, library) }
            library.register(waker)
        }
        for index in 0..<count {
            NamedThread.start("\(name).\(index)") { [self] in loop(cycle: cycle, nextRetry: nextRetry) }
        }
    }

    /// Stops the workers after their current piece of work.
    func stop() {
        let (workers, waker) = state.withLock { state in
            state.running = false
            defer { state.waker = nil }
            return (state.workers, state.waker)
        }
        if let waker { waker.library.unregisterChangeObserver(waker.observer) }
        for _ in 0..<workers { wakeups.signal() }
    }

    /// Tells sleeping workers there may be new work.
    func wake() {
        wakeups.signal()
    }

    private func loop(cycle: @Sendable () -> Bool, nextRetry: @Sendable () -> Date?) {
        defer { state.withLock { $0.workers -= 1 } }
        while state.withLock({ $0.running }) {
            if cycle() { continue }
            let wait = min(30, max(0.05, nextRetry().map { $0.timeIntervalSinceNow } ?? 30))
            _ = wakeups.wait(timeout: .now() + wait)
        }
    }
}

/// Wakes background workers on a change to their library that may have given them work
/// (``PHChange/mayAddAssetWork``: an asset imported or edited, here or elsewhere); a favorite
/// toggled doesn't cost them a look at their queue (on PostgreSQL, two transactions).
final class AssetWorkWaker: NSObject, PHPhotoLibraryChangeObserver, Sendable {
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void) {
        self.wake = wake
    }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        if changeInstance.mayAddAssetWork { wake() }
    }
}
