package import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// File steps backups, restores and snapshots share: copies that are verified and land by
/// rename, flushed to disk, so an interrupted run leaves either the old file or the new one.
package enum SafeFiles {
    /// Copies `source` to `destination` through a temporary file in `staging` (same file
    /// system as `destination`): copies and hashes in one pass, flushes, reads the copy back
    /// and hashes it again, and renames it into place only when both hashes agree (and equal
    /// `expected`, when given). Returns the SHA-256. An existing `destination` is replaced.
    @discardableResult
    package static func copyVerified(
        from source: URL, to destination: URL, staging: URL, expected: String? = nil
    ) throws(StoreError) -> String {
        try createFolder(staging)
        try createFolder(destination.deletingLastPathComponent())
        let temporary = staging.appendingPathComponent(".copy-\(UUID().uuidString)")
        var landed = false
        defer { if !landed { unlink(temporary.path) } }
        let hash = try ContentHash.copyHashing(from: source, to: temporary)
        try flush(temporary)
        let reread = try ContentHash.sha256(ofFileAt: temporary)
        guard reread == hash else {
            throw StoreError(.fileOperation, "The copy of \(source.path) reads back other bytes than were written (\(destination.path)): the disk is failing")
        }
        if let expected, hash != expected {
            throw StoreError(.fileOperation, "\(source.path) has other bytes than recorded (SHA-256 \(hash), expected \(expected))")
        }
        try rename(temporary, to: destination)
        landed = true
        return hash
    }

    /// Renames `source` to `destination` (same file system), replacing it.
    package static func rename(_ source: URL, to destination: URL) throws(StoreError) {
        guard Glibc.rename(source.path, destination.path) == 0 else {
            throw StoreError(.fileOperation, "Can't move \(source.path) to \(destination.path): \(String(cString: strerror(errno)))")
        }
    }

    /// `fsync` of a file (or a folder, so a rename in it is durable).
    package static func flush(_ url: URL) throws(StoreError) {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw StoreError(.fileOperation, "Can't open \(url.path) to flush it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw StoreError(.fileOperation, "Can't flush \(url.path) to disk: \(String(cString: strerror(errno)))")
        }
    }

    /// Writes `data` to `destination` through a temporary file beside it, flushed, then renamed.
    package static func write(_ data: Data, to destination: URL) throws(StoreError) {
        let temporary = destination.deletingLastPathComponent().appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString)")
        do {
            try data.write(to: temporary)
        } catch {
            throw StoreError(.fileOperation, "Can't write \(destination.path): \(error.localizedDescription)")
        }
        do throws(StoreError) {
            try flush(temporary)
            try rename(temporary, to: destination)
        } catch {
            unlink(temporary.path)
            throw error
        }
        try? flush(destination.deletingLastPathComponent())
    }

    package static func createFolder(_ url: URL) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw StoreError(.fileOperation, "Can't create the folder \(url.path): \(error.localizedDescription)")
        }
    }

    /// Size and modification time (seconds since 1970, with fractions), or nil when missing.
    package static func stat(_ url: URL) -> (size: Int64, modified: Double)? {
        var info = Glibc.stat()
        guard fstatat(AT_FDCWD, url.path, &info, 0) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (Int64(info.st_size), Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    /// Whether a folder is missing or holds nothing.
    package static func isEmptyFolder(_ url: URL) -> Bool {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: url.path) else {
            return !FileManager.default.fileExists(atPath: url.path)
        }
        return names.isEmpty
    }
}

/// A non-blocking advisory lock (`flock`): taken, or nil when another process holds it.
package final class TryLock {
    private let descriptor: Int32

    package init?(_ url: URL) {
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        self.descriptor = descriptor
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
