import NIOCore
import NIOPosix
import PhotosLocking

/// Process-wide set-up for a server process.
public enum ServerRuntime {
    /// Makes the server's event loops Swift concurrency's global executor, so a request's
    /// handler runs on the thread that read it instead of hopping to the concurrency pool and
    /// back (measured: see docs/performance.md, serving). Call first thing in `main`, before any
    /// task starts; returns `false` when it was too late or not supported.
    @discardableResult
    public static func adoptEventLoopsAsGlobalExecutor() -> Bool {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }

    /// Runs the process's heavy background work (renders, encodes, edits, imports: the server's
    /// work pools and the image manager's renders) at nice `niceness` (Linux, per thread), below
    /// the event loops, so cached answers keep their speed while renders run. `photos serve`
    /// calls it at start (`--background-niceness`, 10 by default); tests don't, since threads
    /// that low wait behind every busy process on a loaded machine. Call before any such work:
    /// a thread lowered once stays low.
    public static func runHeavyWorkInBackground(niceness: Int32 = 10) {
        BackgroundPriority.set(niceness: niceness)
    }
}
