import Foundation
import Imaging
import Logging
import PhotosStore
import PhotosLocking

/// What the library's derivative cache holds.
///
/// Linux addition, with the methods below: Apple's Photos manages its thumbnail tables itself.
public struct PHDerivativeCacheStatus: Sendable, Equatable {
    /// Grid thumbnails (256 px squares), one per photo once made; never evicted.
    public var thumbnails = 0
    /// Previews (fit 1440 px), made when first needed; evicted least recently used first.
    public var previews = 0
    public var thumbnailBytes: Int64 = 0
    public var previewBytes: Int64 = 0
}

/// A library's derivatives (grid thumbnails, previews) as a cache it keeps in `derivatives/`:
/// making the missing ones, counting and trimming them, and the limit on previews
/// (``PreviewBudget``). Reached as ``PHPhotoLibrary/derivatives``; the public methods of
/// ``PHPhotoLibrary`` forward here.
package final class LibraryDerivatives: Sendable {
    let store: LibraryDatabase
    /// The limit of the library's preview files and the bytes written toward the next trim.
    let previewBudget: PreviewBudget
    /// Where a derivative not kept, a claim or a render failure not recorded is reported (the
    /// library's logger).
    let logger: Logger

    init(store: LibraryDatabase, previewLimit: Int64, logger: Logger) {
        self.store = store
        self.logger = logger
        previewBudget = PreviewBudget(limit: previewLimit, logger: logger)
    }

    /// Makes the derivatives that are missing for every photo (its current version), on every
    /// core; returns how many were made and how many photos failed (unreadable, unsupported).
    /// Each file is written to a temporary name and renamed, so readers never see a torn one.
    /// A photo that can't be decoded is recorded as unrenderable (`photos check` lists it);
    /// one recorded earlier that renders now is forgotten.
    ///
    /// Linux addition (`photos cache warm`).
    @discardableResult
    package func make(previews: Bool = false) throws -> (made: Int, failed: Int) {
        let files = try store.currentImageFiles()
        let layout = store.layout
        let made = Atomic<Int>(0), failed = Atomic<Int>(0)
        let recorded = Set(try store.renderFailures.all().map(\.assetUUID))
        let kinds: [StandardDerivative] = previews ? [.thumbnail, .preview] : [.thumbnail]
        let logger = logger
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let file = files[index]
            func missing() -> Set<StandardDerivative> {
                Set(kinds.filter { kind in
                    !FileManager.default.fileExists(atPath: layout.url(forRelativePath: kind.relativePath(assetUUID: file.assetUUID)).path)
                })
            }
            guard !missing().isEmpty else { return }
            // Passed over while another process or instance makes them; asked again under
            // the claims, since one may have finished meanwhile.
            var claims: [any JobClaim] = []
            defer { for claim in claims { claim.release() } }
            for kind in kinds {
                let claim = logger.attempt(.warning, "claim the \(kind) of \(file.assetUUID)") {
                    try store.claimJob(kind.jobKey(assetUUID: file.assetUUID), waiting: false)
                }
                guard let claim else { return }
                claims.append(claim)
            }
            let missing = missing()
            guard !missing.isEmpty else { return }
            do throws(ImagingError) {
                for (kind, data) in try StandardDerivative.render(missing, photoAt: layout.url(forRelativePath: file.path)) {
                    let url = layout.url(forRelativePath: kind.relativePath(assetUUID: file.assetUUID))
                    DerivativeCache.write(data, to: url, logger: logger)
                    made.add(1, ordering: .relaxed)
                }
                if recorded.contains(file.assetUUID) {
                    logger.attempt(.warning, "forget the render failure of \(file.assetUUID)") {
                        try store.renderFailures.clear(assetUUID: file.assetUUID)
                    }
                }
            } catch {
                failed.add(1, ordering: .relaxed)
                if error.code != .unreadable {
                    logger.attempt(.warning, "record that \(file.assetUUID) can't be rendered (\(error.message))") {
                        try store.renderFailures.record(assetUUID: file.assetUUID, reason: error.message)
                    }
                }
            }
        }
        return (made.load(ordering: .relaxed), failed.load(ordering: .relaxed))
    }

    /// Counts the derivatives on disk. Linux addition.
    package func status() -> PHDerivativeCacheStatus {
        DerivativeCache.status(of: store.layout)
    }

    /// Removes previews, least recently used first, until they take at most `bytes`
    /// (thumbnails stay: a grid needs every one). Returns how many files went. Linux addition;
    /// the image manager trims to ``previewCacheLimit`` on its own.
    @discardableResult
    package func trim(toBytes bytes: Int64) -> Int {
        DerivativeCache.trim(store.layout, toBytes: bytes, logger: logger)
    }
}

extension PHPhotoLibrary {
    /// Makes the derivatives that are missing for every photo (its current version), on every
    /// core; returns how many were made and how many photos failed (unreadable, unsupported).
    /// Each file is written to a temporary name and renamed, so readers never see a torn one.
    /// A photo that can't be decoded is recorded as unrenderable (`photos check` lists it);
    /// one recorded earlier that renders now is forgotten.
    ///
    /// Linux addition (`photos cache warm`).
    @discardableResult
    public func makeDerivatives(previews: Bool = false) throws -> (made: Int, failed: Int) {
        try derivatives.make(previews: previews)
    }

    /// Counts the derivatives on disk. Linux addition.
    public func derivativeCacheStatus() -> PHDerivativeCacheStatus {
        derivatives.status()
    }

    /// Removes previews, least recently used first, until they take at most `bytes`
    /// (thumbnails stay: a grid needs every one). Returns how many files went. Linux addition;
    /// the image manager trims to ``previewCacheLimit`` on its own.
    @discardableResult
    public func trimDerivativeCache(toBytes bytes: Int64) -> Int {
        derivatives.trim(toBytes: bytes)
    }
}

/// A library's limit on preview files, and the bytes of previews written since its last trim
/// check: each library has its own (see ``PHPhotoLibrary/Configuration``).
final class PreviewBudget: Sendable {
    private let limitValue: Atomic<Int64>
    private let written = Mutex<Int64>(0)
    /// Where the trims it starts report previews they could not remove.
    private let logger: Logger
    /// A check runs after this many bytes of new previews.
    static let checkInterval: Int64 = 64 << 20

    init(limit: Int64, logger: Logger) {
        limitValue = Atomic(limit)
        self.logger = logger
    }

    var limit: Int64 {
        get { limitValue.load(ordering: .relaxed) }
        set { limitValue.store(newValue, ordering: .relaxed) }
    }

    /// A preview was written: trims the library's previews to the limit when enough has been
    /// written since the last check.
    func noteWritten(_ bytes: Int, layout: LibraryLayout) {
        let due = written.withLock { written -> Bool in
            written += Int64(bytes)
            guard written >= Self.checkInterval else { return false }
            written = 0
            return true
        }
        if due {
            let (limit, logger) = (limit, logger)
            DispatchQueue.global(qos: .utility).async { DerivativeCache.trim(layout, toBytes: limit, logger: logger) }
        }
    }
}

/// The derivatives folder as a cache: atomic writes, use stamps, trimming.
enum DerivativeCache {
    /// Writes `data` to a temporary name beside `url` and renames it there. A derivative that
    /// can't be kept (a folder that can't be made, a full disk) is logged as a warning and left
    /// to be made again on next need.
    static func write(_ data: Data, to url: URL, logger: Logger) {
        let folder = url.deletingLastPathComponent()
        // try?: a folder that can't be made fails the write below, which is logged.
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = folder.appendingPathComponent(".\(UUID().uuidString).tmp")
        do {
            try data.write(to: temporary)
            if rename(temporary.path, url.path) != 0 {
                let reason = String(cString: strerror(errno))
                logger.warning("Could not keep the derivative \(url.path): \(reason)")
                // try?: a `.tmp` left behind is removed by a later trim (once an hour old).
                try? FileManager.default.removeItem(at: temporary)
            }
        } catch {
            logger.failed(.warning, "keep the derivative \(url.path)", error)
            // try?: usually nothing was written; a `.tmp` left behind is removed by a later trim.
            try? FileManager.default.removeItem(at: temporary)
        }
    }

    /// Marks a derivative as used (its modification time), at most once an hour, for LRU trimming.
    static func noteUsed(_ url: URL) {
        // try?: a stamp not read or not written only makes the preview look older to the next
        // trim (it is made again if trimmed); image requests pass here, so nothing is logged.
        guard let modified = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date,
            Date().timeIntervalSince(modified) > 3600
        else { return }
        // try?: as above.
        try? FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
    }

    private static func files(of layout: LibraryLayout) -> [(url: URL, preview: Bool, size: Int64, used: Date)] {
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey, .isRegularFileKey]
        guard let enumerator = FileManager.default.enumerator(at: layout.derivatives, includingPropertiesForKeys: keys) else { return [] }
        var found: [(URL, Bool, Int64, Date)] = []
        while let url = enumerator.nextObject() as? URL {
            // try?: a file gone since the folder was listed (another trim) is not counted.
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isRegularFile == true,
                !url.lastPathComponent.hasPrefix(".")
            else { continue }
            found.append(
                (url, url.lastPathComponent.hasSuffix("_preview.jpg"), Int64(values.fileSize ?? 0), values.contentModificationDate ?? .distantPast))
        }
        return found
    }

    /// Temporary files a crashed writer left (`.<UUID>.tmp`, `.<UUID>.download`), an hour old.
    private static func removeAbandonedTemporaries(_ layout: LibraryLayout) {
        for folder in [layout.derivatives, layout.root.appendingPathComponent("cache/remote")] {
            guard let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.contentModificationDateKey])
            else { continue }
            while let url = enumerator.nextObject() as? URL {
                let name = url.lastPathComponent
                guard name.hasPrefix("."), name.hasSuffix(".tmp") || name.hasSuffix(".download"),
                    // try?: a file gone since the folder was listed (another trim) is passed over.
                    let modified = try? url.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate,
                    Date().timeIntervalSince(modified) > 3600
                else { continue }
                // try?: a leftover that can't be removed now is tried again at the next trim;
                // another process's trim may have removed it first.
                try? FileManager.default.removeItem(at: url)
            }
        }
    }

    static func status(of layout: LibraryLayout) -> PHDerivativeCacheStatus {
        var status = PHDerivativeCacheStatus()
        for file in files(of: layout) {
            if file.preview {
                status.previews += 1
                status.previewBytes += file.size
            } else if file.url.lastPathComponent.hasSuffix("_thumbnail.jpg") {
                status.thumbnails += 1
                status.thumbnailBytes += file.size
            }
        }
        return status
    }

    /// Removes previews, least recently used first, until they take at most `bytes`; returns
    /// how many went. One that can't be removed is logged and stays counted.
    @discardableResult
    static func trim(_ layout: LibraryLayout, toBytes bytes: Int64, logger: Logger) -> Int {
        removeAbandonedTemporaries(layout)
        let previews = files(of: layout).filter(\.preview).sorted { $0.used < $1.used }
        var total = previews.reduce(0) { $0 + $1.size }
        var removed = 0
        for preview in previews where total > bytes {
            do {
                try FileManager.default.removeItem(at: preview.url)
                total -= preview.size
                removed += 1
            } catch let error as CocoaError where error.code == .fileNoSuchFile {
                // Another trim (this process's or another's) removed it first.
                logger.debug("The preview \(preview.url.path) was removed by another trim")
            } catch {
                logger.failed(.notice, "remove the preview \(preview.url.path) to keep the cache under its limit", error)
            }
        }
        return removed
    }
}
