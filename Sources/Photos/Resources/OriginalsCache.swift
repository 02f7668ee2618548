import Foundation
import Logging
import PhotosLocking
import PhotosStore

/// What a library's cache of originals holds: the local copies of originals kept in a bucket
/// or another remote store (`cache/remote/`).
///
/// Linux addition, with ``PHPhotoLibrary/originalsCacheStatus()``: Apple's "Optimize Storage"
/// manages its downloads of iCloud originals itself.
public struct PHOriginalsCacheStatus: Sendable, Equatable {
    /// Local copies of originals.
    public var files = 0
    public var bytes: Int64 = 0
    /// The most bytes the copies may take (``PHPhotoLibrary/originalsCacheLimit``).
    public var limit: Int64 = 0
}

/// The local copies of a library's remote originals as a cache with a byte budget: each copy
/// fetched or kept after an upload counts toward the library's limit, and past it the least
/// recently used copies go (a copy's modification time is its last use, stamped at most once
/// an hour). A copy being read when it goes is read to its end (its file stays open).
///
/// One per library folder in a process: fetches find it by the copy's folder.
final class OriginalsCache: Sendable {
    let folder: URL
    private let limitValue: Atomic<Int64>
    /// The bytes of copies as last counted plus those kept since (nil: not counted yet), and
    /// whether a trim is under way.
    private let state = Mutex<(estimate: Int64?, trimming: Bool)>((nil, false))
    private let logger: Logger

    /// 16 GiB unless the library is opened with another limit.
    static let defaultLimit: Int64 = 16 << 30

    private static let caches = Mutex<[String: OriginalsCache]>([:])

    init(layout: LibraryLayout, limit: Int64, logger: Logger) {
        folder = layout.root.appendingPathComponent("cache/remote", isDirectory: true)
        limitValue = Atomic(limit)
        self.logger = logger
        Self.caches.withLock { $0[folder.standardizedFileURL.path] = self }
    }

    var limit: Int64 {
        get { limitValue.load(ordering: .relaxed) }
        set {
            limitValue.store(newValue, ordering: .relaxed)
            noteKept(0, sparing: nil)
        }
    }

    /// A copy was kept at `file` (fetched, or an upload's staged file): counts it toward the
    /// budget of its library's cache, trimming past the limit (then and there, sparing `file`,
    /// which its caller is about to read).
    static func noteKept(_ file: URL) {
        let path = file.standardizedFileURL.path
        let cache = caches.withLock { caches in caches.first { path.hasPrefix($0.key + "/") }?.value }
        // try?: a copy gone already (trimmed by another process) counts nothing.
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        cache?.noteKept(size, sparing: file)
    }

    /// Renames `file` to `copy` (making its folder), the local copy of a remote original, and
    /// counts it toward its library's budget.
    static func keep(_ file: URL, as copy: URL) throws {
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard rename(file.path, copy.path) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        noteKept(copy)
    }

    /// A copy was used: its stamp is renewed (at most once an hour), so it goes last.
    static func noteUsed(_ file: URL) {
        DerivativeCache.noteUsed(file)
    }

    private func noteKept(_ bytes: Int64, sparing: URL?) {
        let due = state.withLock { state -> Bool in
            state.estimate = (state.estimate ?? Self.count(folder).bytes) + bytes
            guard state.estimate! > limit, !state.trimming else { return false }
            state.trimming = true
            return true
        }
        if due { trim(toBytes: limit, sparing: sparing) }
    }

    /// Removes copies, least recently used first, until they take at most `bytes` (`sparing`
    /// one, whatever its age); returns how many went. One that can't be removed is logged and
    /// stays counted.
    @discardableResult
    func trim(toBytes bytes: Int64, sparing: URL? = nil) -> Int {
        let spared = sparing?.standardizedFileURL.path
        let all = Self.files(folder)
        var total = all.reduce(0) { $0 + $1.size }
        var files = all.filter { $0.url.standardizedFileURL.path != spared }.sorted { $0.used < $1.used }
        var removed = 0
        while total > bytes, !files.isEmpty {
            let file = files.removeFirst()
            do {
                try FileManager.default.removeItem(at: file.url)
                total -= file.size
                removed += 1
            } catch {
                logger.failed(.warning, "remove the local copy \(file.url.path) of a remote original", error)
            }
        }
        state.withLock { $0 = (total, false) }
        return removed
    }

    func status() -> PHOriginalsCacheStatus {
        let counted = Self.count(folder)
        return PHOriginalsCacheStatus(files: counted.files, bytes: counted.bytes, limit: limit)
    }

    private static func count(_ folder: URL) -> (files: Int, bytes: Int64) {
        let files = files(folder)
        return (files.count, files.reduce(0) { $0 + $1.size })
    }

    /// The copies (not the temporary files of downloads under way).
    private static func files(_ folder: URL) -> [(url: URL, size: Int64, used: Date)] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys) else { return [] }
        var found: [(URL, Int64, Date)] = []
        while let url = enumerator.nextObject() as? URL {
            // try?: a file gone since the folder was listed (another trim) is not counted.
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true,
                !url.lastPathComponent.hasPrefix(".")
            else { continue }
            found.append((url, Int64(values.fileSize ?? 0), values.contentModificationDate ?? .distantPast))
        }
        return found
    }
}

extension PHPhotoLibrary {
    /// The most bytes of local copies of remote originals (a bucket's, `cache/remote/`) this
    /// library keeps on this machine; past it, the least recently used copies are removed
    /// (fetched again on next need). 16 GiB unless set.
    ///
    /// Linux addition, the counterpart of Apple's "Optimize Storage".
    public var originalsCacheLimit: Int64 {
        get { originalsCache.limit }
        set { originalsCache.limit = newValue }
    }

    /// What the cache of originals holds now. Linux addition (`photos cache status`).
    public func originalsCacheStatus() -> PHOriginalsCacheStatus {
        originalsCache.status()
    }

    /// Removes local copies of remote originals, least recently used first, until they take
    /// at most `bytes`; returns how many went. Linux addition (`photos cache trim`).
    @discardableResult
    public func trimOriginalsCache(toBytes bytes: Int64) -> Int {
        originalsCache.trim(toBytes: bytes)
    }
}
