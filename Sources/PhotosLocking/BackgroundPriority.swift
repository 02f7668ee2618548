#if canImport(Glibc)
    import Glibc
#endif

/// How much lower than the rest of the process its heavy background work runs: image renders
/// and encodes, edits, imports.
///
/// A process-wide setting, because on Linux a thread's priority (its nice value) is its own and
/// the threads that run such work (Dispatch's, the server's work pools) are shared: once lowered,
/// an unprivileged thread can't come back up. `photos serve` sets it (``ServerRuntime``) so that
/// its event loops, which answer cached thumbnails from memory, win the CPU from renders; other
/// processes leave it at 0 and nothing changes.
package enum BackgroundPriority {
    private static let setting = Atomic<Int32>(0)

    /// The nice value background work runs at (0: as the rest of the process).
    package static var niceness: Int32 { setting.load(ordering: .relaxed) }

    /// Sets ``niceness``; call before the first background job (threads already lowered stay).
    package static func set(niceness: Int32) {
        setting.store(max(0, min(19, niceness)), ordering: .relaxed)
    }

    /// Lowers the calling thread to ``niceness`` if it runs higher. Cheap enough to call at the
    /// start of every job.
    package static func lowerCurrentThread() {
        let wanted = niceness
        guard wanted > 0 else { return }
        #if os(Linux)
            // With `PRIO_PROCESS` and 0, Linux's setpriority names the calling thread.
            if getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) < wanted {
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, wanted)
            }
        #endif
    }
}
