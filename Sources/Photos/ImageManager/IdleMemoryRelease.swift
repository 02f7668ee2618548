import Foundation
import Imaging
import PhotosLocking

/// Gives the C heap's free pages back to the kernel (``HeapMemory/releaseFreePages()``) once
/// the image work it is told of has been idle for ``delay``.
///
/// Renders allocate their decode buffers from glibc malloc on several threads at once, so each
/// gets an arena, and glibc keeps what they free: after a burst of renders (a gallery's first
/// screen, the image benchmark's cold run) the process stayed ~200 MB resident with little in
/// use (issue 19). Image loaders (and `photos serve`'s render and encode pool) bracket each job
/// with ``begin()`` and ``end()``; when the last job ends, a release is scheduled after
/// ``delay``, and skipped if work began again in between, so a scrolling gallery doesn't pay a
/// heap walk between every two screens. One release walks every arena of the process, so one
/// instance (``shared``) serves every library.
package final class IdleMemoryRelease: Sendable {
    /// What the process's image loaders and `photos serve`'s work pool use: a release 1 s after
    /// the last job ends.
    package static let shared = IdleMemoryRelease(delay: .seconds(1))

    /// How long the work must stay idle before a release.
    package let delay: DispatchTimeInterval

    private struct State {
        var busy = 0
        /// Bumped whenever work begins: a scheduled release from before is stale.
        var generation = 0
        var releases = 0
    }

    private let state = Mutex(State())
    /// Where releases run, one at a time, in the order they were scheduled.
    private let queue: DispatchQueue
    /// Told after each release (tests wait for it instead of sleeping).
    private let released: (@Sendable (Int) -> Void)?

    /// - Parameters:
    ///   - queue: a serial queue for the releases (tests suspend theirs to hold them).
    ///   - released: called after each release, on `queue`, with the count of releases so far.
    package init(
        delay: DispatchTimeInterval, queue: DispatchQueue = DispatchQueue(label: "PHImageManager.memoryRelease", qos: .utility),
        released: (@Sendable (Int) -> Void)? = nil
    ) {
        self.delay = delay
        self.queue = queue
        self.released = released
    }

    /// A job is starting.
    package func begin() {
        state.withLock { state in
            state.busy += 1
            state.generation &+= 1
        }
    }

    /// A job has ended; the last one schedules a release.
    package func end() {
        let generation = state.withLock { state -> Int? in
            precondition(state.busy > 0, "IdleMemoryRelease.end() without begin()")
            state.busy -= 1
            return state.busy == 0 ? state.generation : nil
        }
        guard let generation else { return }
        queue.asyncAfter(deadline: .now() + delay) { [self] in release(ifStill: generation) }
    }

    /// Releases run so far.
    package var releaseCount: Int { state.withLock(\.releases) }

    private func release(ifStill generation: Int) {
        let idle = state.withLock { $0.busy == 0 && $0.generation == generation }
        guard idle else { return }
        HeapMemory.releaseFreePages()
        let count = state.withLock { state in
            state.releases += 1
            return state.releases
        }
        released?(count)
    }
}
