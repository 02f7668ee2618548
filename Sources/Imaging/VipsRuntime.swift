import Foundation
import PhotosLocking
internal import CVips

/// libvips' process-wide state: initialised once, lazily and thread-safely, on first use.
enum VipsRuntime {
    /// Operation-cache limits. libvips' operation cache is off: it keys file loads by path, so
    /// a file replaced on disk (an edit saved over the original) would come back stale from
    /// `vips_image_new_from_file` (measured on 8.14), and a cached `vips_copy` would be shared
    /// by callers that then set different metadata on it. A photo library reads each file once
    /// per job anyway, so the cache buys nothing. The memory and file limits are kept low too,
    /// in case a later libvips or `VIPS_*` setting re-enables it.
    static let cacheMaxOperations = 0
    static let cacheMaxMemory = 32 * 1024 * 1024
    static let cacheMaxFiles = 4

    /// `nil` until the first call; then the outcome of `vips_init` (an error message on failure).
    private static let state = Mutex<InitState>(.notStarted)

    private enum InitState: Sendable {
        case notStarted
        case ready
        case failed(String)
    }

    /// Initialises libvips if that has not happened yet. Safe to call from any thread, any number
    /// of times; only the first call does work. Traps only if libvips itself cannot start, which
    /// means the installation is broken.
    static func ensureInitialized() {
        state.withLock { state in
            guard case .notStarted = state else { return }
            if cvips_init("photokit") != 0 {
                state = .failed(takeErrorBufferUnlocked())
                return
            }
            vips_cache_set_max_mem(cacheMaxMemory)
            vips_cache_set_max(Int32(cacheMaxOperations))
            vips_cache_set_max_files(Int32(cacheMaxFiles))
            // Callers parallelise across images (the image manager's and importer's pools are
            // sized to the cores), so each pipeline runs on its own thread: extra libvips worker
            // threads only contend for the same cores (measured: faster and ~50 MB less at peak
            // with 66 concurrent thumbnails). VIPS_CONCURRENCY still wins if set.
            if ProcessInfo.processInfo.environment["VIPS_CONCURRENCY"] == nil {
                vips_concurrency_set(1)
            }
            // Decode buffers in their own mappings and arena tops trimmed, instead of glibc's
            // dynamic thresholds keeping ~80 MB after a burst of decodes (issue 19).
            HeapMemory.limitRetention()
            state = .ready
        }
        if case .failed(let message) = state.withLock({ $0 }) {
            fatalError("libvips failed to initialise: \(message)")
        }
    }

    /// libvips' error buffer, trimmed, then cleared (in one step). The buffer is per-process
    /// and libvips guards it with its own lock.
    ///
    /// Lines "<file>: bad seek to N" are left out: libvips' HEIF reader writes one for every
    /// HEIF it reads to the end (libheif asks whether 8 bytes past the last box exist), so the
    /// buffer holds them from files that loaded fine, other threads' too.
    static func takeErrorBuffer() -> String {
        ensureInitialized()
        if holdsReasons { return takeErrorBufferUnlocked() }
        return reasons.withLock { _ in takeErrorBufferUnlocked() }
    }

    /// Held while the buffer is taken, and across a retry in ``keepingReasons(_:)``; counts the
    /// retries. (Not a `Mutex(())`: ThreadSanitizer takes the empty value's accesses for
    /// accesses to the lock's pointer beside it, and reports a race.)
    private static let reasons = Mutex(0)
    /// The thread holding ``reasons`` in ``keepingReasons(_:)`` (`pthread_self`), 0 when none:
    /// its own takes of the buffer don't wait for the lock it holds.
    private static let reasonsHolder = Atomic<UInt>(0)
    private static var holdsReasons: Bool { reasonsHolder.load(ordering: .acquiring) == UInt(pthread_self()) }

    /// Decodes in ``keepingReasons(_:)`` run holding it for reading; a retry holds it for
    /// writing, so no other such decode runs (libvips clears and writes the buffer inside them).
    /// (`nonisolated(unsafe)`: the pointer never changes; what it points to is touched only by
    /// pthread's rwlock calls, which synchronise themselves.)
    nonisolated(unsafe) private static let decodes: UnsafeMutablePointer<pthread_rwlock_t> = {
        let lock = UnsafeMutablePointer<pthread_rwlock_t>.allocate(capacity: 1)
        lock.initialize(to: pthread_rwlock_t())
        pthread_rwlock_init(lock, nil)
        return lock
    }()

    /// Runs `body` (a decode); when it fails in libvips' words, runs it once more alone and
    /// throws that failure.
    ///
    /// libvips' error buffer is the process's: a call failing at the same moment on another
    /// thread may take this call's words with its own, and libvips itself clears it inside some
    /// calls, so a reason could be empty or name another file's damage. Such decodes run sharing
    /// a read-write lock; the retry holds it for writing (no other of them runs) and the lock
    /// every take of the buffer waits for, with the buffer emptied first, so what the buffer then
    /// holds is this call's words. A failed decode costs twice and, for its retry, runs alone;
    /// failures are rare (a damaged file). When the retry succeeds, its result is returned.
    static func keepingReasons<T>(_ body: () throws(ImagingError) -> T) throws(ImagingError) -> T {
        // Inside a retry (a RAW's preview thumbnail within its file's): the lock is held.
        if holdsReasons { return try body() }
        let first = Result { () throws(ImagingError) -> T in
            pthread_rwlock_rdlock(decodes)
            defer { pthread_rwlock_unlock(decodes) }
            return try body()
        }
        guard case .failure(let error) = first, error.code == .decodeFailed || error.code == .corrupt else { return try first.get() }
        pthread_rwlock_wrlock(decodes)
        defer { pthread_rwlock_unlock(decodes) }
        var retried: Result<T, ImagingError> = .failure(error)
        reasons.withLock { retries in
            reasonsHolder.store(UInt(pthread_self()), ordering: .releasing)
            defer { reasonsHolder.store(0, ordering: .releasing) }
            // A retry whose failure came without libvips' words (1 of 75 Huffman failures in
            // one CI run, alone under the write lock: a libvips worker of an earlier call may
            // still clear the buffer) runs once more, up to 3 tries in all.
            for _ in 0 ..< 3 {
                retries += 1
                _ = takeErrorBufferUnlocked()
                wordsTaken.store(0, ordering: .relaxed)
                retried = Result { () throws(ImagingError) -> T in try body() }
                guard case .failure = retried, wordsTaken.load(ordering: .relaxed) == 0 else { break }
            }
        }
        return try retried.get()
    }

    /// How many takes of the buffer found words during a retry in ``keepingReasons(_:)``.
    private static let wordsTaken = Atomic<Int>(0)

    private static func takeErrorBufferUnlocked() -> String {
        guard let raw = vips_error_buffer_copy() else { return "" }
        defer { g_free(raw) }
        let words = words(in: raw)
        if !words.isEmpty && holdsReasons { wordsTaken.add(1, ordering: .relaxed) }
        return words
    }

    /// The buffer's lines, trimmed, without HEIF seek probes, joined by "; ".
    private static func words(in raw: UnsafeMutablePointer<CChar>) -> String {
        String(cString: raw)
            .split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !isSeekProbe($0) }
            .joined(separator: "; ")
    }

    /// "…: bad seek to 2641928": libvips' HEIF reader answering libheif past the end of a file.
    static func isSeekProbe(_ line: some StringProtocol) -> Bool {
        guard let range = line.range(of: ": bad seek to ", options: .backwards) else { return false }
        let tail = line[range.upperBound...]
        return !tail.isEmpty && tail.allSatisfy(\.isNumber)
    }
}
