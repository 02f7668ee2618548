import NIOCore
import NIOPosix
import Photos
import PhotosLocking

/// Threads for the server's CPU-heavy and blocking work, off the event loops.
///
/// `photos serve` makes its event loops Swift concurrency's executor (``ServerRuntime``), so
/// anything a route handler does inline runs on the loop that reads and writes its
/// connections: a libvips render or a JPEG encode there stalls every connection of that loop,
/// cached thumbnails (``CachedImageHandler``) included. Such work goes through a pool instead:
/// ``cpu`` for decoding, rendering and encoding, ``writes`` for library writes (a change
/// block's commit, with an import's probing, hashing and thumbnails; token and session rows),
/// which can wait up to SQLite's busy timeout on another process's lock, ``reads`` for
/// fetches of whole views.
///
/// The pools are process-wide, like NIO's own: servers in one process (tests) share them. The
/// jobs of ``cpu`` and ``writes`` run at ``BackgroundPriority`` (nice +10 in `photos serve`): when both want the CPU,
/// answering from memory goes first and renders and imports take the rest, and when the loops
/// are idle they get every core (measured: docs/performance.md, serving, issue 18). Each job
/// is told to ``IdleMemoryRelease/shared``, as the image loaders' renders are: once both have
/// been idle a moment, the heap's free pages go back to the kernel (issue 19).
final class WorkPool: Sendable {
    /// Renders and encodes, one thread per core.
    static let cpu = WorkPool(threads: System.coreCount)
    /// Library writes. The library commits one change block at a time; more threads than one so
    /// that a write waiting on another process's lock doesn't hold up another library's (tests
    /// run many servers in one process).
    static let writes = WorkPool(threads: 4)
    /// Reads a person waits for: a fetch of a whole view (0.1–0.6 s at 1,000,000 assets,
    /// ``FetchResultCache``), a stored thumbnail's file, a photo's embedded thumbnail. At normal
    /// priority and apart from ``cpu``, so that neither a page of a view nor a cell's quick
    /// image waits behind the renders and encodes of a cold scroll.
    static let reads = WorkPool(threads: 2, background: false)

    private let pool: NIOThreadPool
    private let background: Bool

    private init(threads: Int, background: Bool = true) {
        pool = NIOThreadPool(numberOfThreads: max(1, threads))
        self.background = background
        pool.start()
    }

    /// Runs `body` on one of the pool's threads and returns its result; jobs start in the
    /// order they were asked for. When `cancellable`, a job whose task is cancelled before it
    /// starts doesn't run (`CancellationError`); one that started runs to its end.
    func run<T: Sendable>(cancellable: Bool = true, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        if cancellable { try Task.checkCancellation() }
        let cancelled = CancelFlag()
        let background = background
        return try await withTaskCancellationHandler {
            try await pool.runIfActive {
                if cancellable && cancelled.isSet { throw CancellationError() }
                if background { BackgroundPriority.lowerCurrentThread() }
                IdleMemoryRelease.shared.begin()
                defer { IdleMemoryRelease.shared.end() }
                return try body()
            }
        } onCancel: {
            cancelled.set()
        }
    }
}

private final class CancelFlag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}
