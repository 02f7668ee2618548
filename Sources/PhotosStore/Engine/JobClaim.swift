package import Foundation
import PhotosLocking

/// A piece of shared work (a video's rendition, an asset's thumbnail or preview, an import
/// batch) that one
/// process or instance at a time may do. ``LibraryDatabase/claimJob(_:waiting:)`` takes it.
package struct JobKey: Hashable, Sendable, CustomStringConvertible {
    /// What kind of work: ``rendition``, ``thumbnail``, ``preview``, ``importBatch``.
    package let kind: Int32
    /// Which object: an asset's row id, or a hash of its UUID.
    package let id: Int64

    package static func rendition(assetID: Int64) -> JobKey { JobKey(kind: 1, id: assetID) }
    package static func thumbnail(assetUUID: String) -> JobKey { JobKey(kind: 2, id: hash(assetUUID)) }
    package static func preview(assetUUID: String) -> JobKey { JobKey(kind: 3, id: hash(assetUUID)) }
    /// By the batch's UUID, which exists before its row: the instance that receives an upload
    /// claims it before enqueuing it, so no other instance starts it meanwhile.
    package static func importBatch(uuid: String) -> JobKey { JobKey(kind: 4, id: hash(uuid)) }
    /// A photo's text recognition (``TextRecognitionQueue``).
    package static func textRecognition(assetID: Int64) -> JobKey { JobKey(kind: 5, id: assetID) }

    /// A stable 40-bit number for a UUID (its first 10 hex digits): the same in every process.
    /// Two UUIDs that share it only make one wait for the other's unrelated work.
    static func hash(_ uuid: String) -> Int64 {
        Int64(uuid.filter(\.isHexDigit).prefix(10), radix: 16) ?? 0
    }

    package var description: String { "job \(kind):\(id)" }
}

/// Shared work held by this process: no other process or instance can claim the same
/// ``JobKey`` until ``release()``, or until this process is gone (killed, crashed: the
/// engine's lock dies with it, so the work is never lost, only done again by whoever claims
/// it next). Released when the value is released, too.
package protocol JobClaim: AnyObject, Sendable {
    func release()
}

/// Claims on one lock file: each claim is an open file description's lock (`F_OFD_SETLK`) on
/// one byte of `file`, at an offset made of the job's kind and id. The kernel drops the lock
/// when the descriptor closes, whoever closes it (``release()``, or the exit of a process
/// killed with -9). Used by SQLite libraries, whose processes share one machine.
package struct FileJobClaims: Sendable {
    let file: URL

    package init(file: URL) {
        self.file = file
    }

    /// Linux's open-file-description locks (`<fcntl.h>` with `_GNU_SOURCE`).
    private static let setLock: Int32 = 37  // F_OFD_SETLK
    private static let setLockWaiting: Int32 = 38  // F_OFD_SETLKW

    /// Claims `key`; nil when another process holds it and `waiting` is false (with `waiting`,
    /// blocks until the holder lets go). Throws when the lock file can't be opened.
    package func claim(_ key: JobKey, waiting: Bool) throws(StoreError) -> (any JobClaim)? {
        let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StoreError(.database, "can't open the job lock file \(file.path): \(String(cString: strerror(errno)))")
        }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = off_t(Int64(key.kind) << 40 | (key.id & (1 << 40 - 1)))
        lock.l_len = 1
        while fcntl(descriptor, waiting ? Self.setLockWaiting : Self.setLock, &lock) != 0 {
            let error = errno
            if error == EINTR { continue }
            close(descriptor)
            if error == EAGAIN || error == EACCES { return nil }
            throw StoreError(.database, "can't lock \(key) in \(file.path): \(String(cString: strerror(error)))")
        }
        return FileJobClaim(descriptor: descriptor)
    }
}

/// One held ``FileJobClaims`` lock: its descriptor, closed once.
final class FileJobClaim: JobClaim {
    private let descriptor: Int32
    private let closed = Mutex(false)

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { release() }

    func release() {
        guard !closed.withLock({ closed in defer { closed = true }; return closed }) else { return }
        close(descriptor)
    }
}

extension LibraryDatabase {
    /// Claims shared work for this process (see ``JobClaim``): nil when another process or
    /// instance holds it and `waiting` is false; with `waiting`, blocks until the holder lets go.
    package func claimJob(_ key: JobKey, waiting: Bool) throws(StoreError) -> (any JobClaim)? {
        try StoreError.mapping("Can't claim \(key)") { try engine.claimJob(key, waiting: waiting) }
    }
}
