import NIOCore
import NIOPosix

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
}
