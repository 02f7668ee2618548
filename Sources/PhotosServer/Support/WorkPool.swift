#if canImport(Glibc)
    import Glibc
#endif
import NIOCore
import NIOPosix
import PhotosLocking

/// Threads for the server's CPU-heavy and blocking work, off the event loops.
///
/// `photos serve` makes its event loops Swift concurrency's executor (``ServerRuntime``), so
/// anything a route handler does inline runs on the loop that reads and writes its
/// connections: a libvips render or a JPEG encode there stalls every connection of that loop,
/// cached thumbnails (``CachedImageHandler``) included. Such work goes through a pool instead:
/// ``cpu`` for decoding, rendering and encoding, ``writes`` for library writes (a change
/// block's commit, with an import's probing, hashing and thumbnails; token and session rows),
/// which can wait up to SQLite's busy timeout on another process's lock.
///
/// The pools' threads run at a lower priority (nice +10) than the event loops: when both want
/// the CPU, answering from memory goes first and renders and imports take the rest, and when
/// the loops are idle they get every core (measured: docs/performance.md, serving, issue 18).
final class WorkPool: Sendable {
    /// Renders and encodes, one thread per core.
    static let cpu = WorkPool(threads: System.coreCount, niceness: 10)
    /// Library writes: one at a time, as the library commits them, in the order asked.
    static let writes = WorkPool(threads: 1, niceness: 10)

    private let pool: NIOThreadPool
    let threads: Int
    /// How much lower the pool's threads run than the event loops (Linux nice value).
    let niceness: Int32

    private init(threads: Int, niceness: Int32) {
        self.threads = max(1, threads)
        self.niceness = niceness
        pool = NIOThreadPool(numberOfThreads: self.threads)
        pool.start()
    }

    /// Runs `body` on one of the pool's threads and returns its result; jobs start in the
    /// order they were asked for. When `cancellable`, a job whose task is cancelled before it
    /// starts doesn't run (`CancellationError`); one that started runs to its end.
    func run<T: Sendable>(cancellable: Bool = true, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        if cancellable { try Task.checkCancellation() }
        let cancelled = CancelFlag()
        let niceness = niceness
        return try await withTaskCancellationHandler {
            try await pool.runIfActive {
                if cancellable && cancelled.isSet { throw CancellationError() }
                Self.lowerPriority(to: niceness)
                return try body()
            }
        } onCancel: {
            cancelled.set()
        }
    }

    /// Lowers the calling thread's priority to `niceness` (Linux's nice value is per thread;
    /// `setpriority` with 0 names the calling one). Cheap enough to repeat per job.
    private static func lowerPriority(to niceness: Int32) {
        #if os(Linux)
            if niceness > 0, getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0) < niceness {
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
            }
        #endif
    }
}

private final class CancelFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
