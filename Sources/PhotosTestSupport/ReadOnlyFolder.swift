public import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A folder made read-only for real, as a backup drive or a read-only mount is: for root (who
/// writes through permissions) a read-only bind mount of it, for other users its permissions
/// taken away. And a small full file system, to stand for a full disk.
public final class ReadOnlyFolder: @unchecked Sendable {
    // @unchecked Sendable: immutable.
    /// The read-only view of the folder.
    public let url: URL
    private let original: URL
    private let mounted: Bool

    /// Whether read-only views can be made here: always for a user other than root; for root,
    /// when bind mounts are allowed (not in every container).
    public static let isAvailable: Bool = {
        guard getuid() == 0 else { return true }
        guard let probe = try? ReadOnlyFolder(FileManager.default.temporaryDirectory.appendingPathComponent("ro-probe-\(UUID().uuidString)"), create: true) else { return false }
        defer { probe.restore() }
        return !FileManager.default.createFile(atPath: probe.url.appendingPathComponent("x").path, contents: Data())
    }()

    /// Whether a small full file system can be mounted (root only).
    public static let canMountFullDisk: Bool = {
        guard getuid() == 0, let disk = try? FullDisk(bytes: 1 << 20) else { return false }
        disk.unmount()
        return true
    }()

    /// Makes `folder` read-only; ``url`` is where to read it.
    public init(_ folder: URL, create: Bool = false) throws {
        if create { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        original = folder
        if getuid() == 0 {
            let view = folder.deletingLastPathComponent().appendingPathComponent(folder.lastPathComponent + "-read-only")
            try FileManager.default.createDirectory(at: view, withIntermediateDirectories: true)
            try ExternalTool.run("/bin/mount", ["--bind", folder.path, view.path])
            do {
                try ExternalTool.run("/bin/mount", ["-o", "remount,bind,ro", view.path])
            } catch {
                try? ExternalTool.run("/bin/umount", [view.path])
                throw error
            }
            url = view.appendingPathComponent("", isDirectory: true)
            mounted = true
        } else {
            try ExternalTool.run("/bin/chmod", ["-R", "a-w", folder.path])
            url = folder
            mounted = false
        }
    }

    /// Makes the folder writable again.
    public func restore() {
        if mounted {
            try? ExternalTool.run("/bin/umount", [url.path])
            try? FileManager.default.removeItem(at: url)
        } else {
            try? ExternalTool.run("/bin/chmod", ["-R", "u+w", original.path])
        }
    }

    deinit { restore() }
}

/// A small tmpfs, to fill up: a full disk (root only).
public final class FullDisk: @unchecked Sendable {
    // @unchecked Sendable: immutable.
    public let url: URL

    public init(bytes: Int) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("full-disk-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try ExternalTool.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(bytes)", "tmpfs", url.path])
    }

    /// Writes a file that takes every byte left.
    public func fill() {
        let descriptor = open(url.appendingPathComponent("filler").path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0xAB, count: 4096)
        while block.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) > 0 {}
        _ = block.withUnsafeBytes { write(descriptor, $0.baseAddress, 1) }
    }

    public func unmount() {
        try? ExternalTool.run("/bin/umount", [url.path])
        try? FileManager.default.removeItem(at: url)
    }

    deinit { unmount() }
}
