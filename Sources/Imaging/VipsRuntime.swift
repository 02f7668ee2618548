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
        return takeErrorBufferUnlocked()
    }

    private static func takeErrorBufferUnlocked() -> String {
        guard let raw = vips_error_buffer_copy() else { return "" }
        defer { g_free(raw) }
        return String(cString: raw)
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
