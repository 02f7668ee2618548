import Foundation

/// Random access to bytes, from memory or from a file, for the container parsers.
///
/// Reads are bounds-checked: asking for bytes past the end gives `nil` (or fewer bytes from
/// `prefix`), never a trap. File reads go through a small window cache so parsers can do many
/// tiny reads without a system call each.
protocol ByteSource: AnyObject {
    /// Total number of bytes.
    var size: Int64 { get }
    /// Exactly `count` bytes at `offset`, or `nil` if they are not all there.
    func bytes(at offset: Int64, count: Int) -> [UInt8]?
}

extension ByteSource {
    /// Up to `maxCount` bytes at `offset` (fewer at the end, empty past it).
    func prefix(at offset: Int64, maxCount: Int) -> [UInt8] {
        guard offset >= 0, offset < size, maxCount > 0 else { return [] }
        let n = Int(min(Int64(maxCount), size - offset))
        return bytes(at: offset, count: n) ?? []
    }

    func u8(_ offset: Int64) -> UInt8? { bytes(at: offset, count: 1)?[0] }

    func u16be(_ offset: Int64) -> UInt16? {
        guard let b = bytes(at: offset, count: 2) else { return nil }
        return UInt16(b[0]) << 8 | UInt16(b[1])
    }

    func u32be(_ offset: Int64) -> UInt32? {
        guard let b = bytes(at: offset, count: 4) else { return nil }
        return b.withUnsafeBufferPointer { ByteReading.u32(bigEndian: $0, 0) }
    }

    func u64be(_ offset: Int64) -> UInt64? {
        guard let hi = u32be(offset), let lo = u32be(offset + 4) else { return nil }
        return UInt64(hi) << 32 | UInt64(lo)
    }
}

/// Bytes held in memory.
final class DataSource: ByteSource {
    private let storage: [UInt8]

    init(_ data: Data) { storage = [UInt8](data) }
    init(_ bytes: [UInt8]) { storage = bytes }

    var size: Int64 { Int64(storage.count) }

    func bytes(at offset: Int64, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size, Int64(count) <= size - offset else { return nil }
        let start = Int(offset)
        return Array(storage[start ..< start + count])
    }
}

/// Bytes of a file, read on demand through a cached window; the file is never read whole.
final class FileSource: ByteSource {
    private let handle: FileHandle
    let size: Int64
    private var windowStart: Int64 = 0
    private var window: [UInt8] = []
    private static let windowSize = 64 * 1024

    /// Opens `url` for reading. Throws `.unreadable` if it is missing, a directory or unreadable.
    init(url: URL) throws(ImagingError) {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ImagingError(.unreadable, "\(path): no such file", url: url)
        }
        guard !isDirectory.boolValue else {
            throw ImagingError(.unreadable, "\(path) is a directory, not a file", url: url)
        }
        do {
            handle = try FileHandle(forReadingFrom: url)
            size = Int64(try handle.seekToEnd())
        } catch {
            throw ImagingError(.unreadable, "\(path) cannot be read: \(error.localizedDescription)", url: url)
        }
    }

    deinit { try? handle.close() }

    func bytes(at offset: Int64, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= size, Int64(count) <= size - offset else { return nil }
        if count == 0 { return [] }
        let end = offset + Int64(count)
        if offset >= windowStart, end <= windowStart + Int64(window.count) {
            let s = Int(offset - windowStart)
            return Array(window[s ..< s + count])
        }
        if count > Self.windowSize {
            return read(at: offset, count: count)
        }
        guard let fresh = read(at: offset, count: Int(min(Int64(Self.windowSize), size - offset))),
              fresh.count >= count
        else { return nil }
        windowStart = offset
        window = fresh
        return Array(fresh[0 ..< count])
    }

    private func read(at offset: Int64, count: Int) -> [UInt8]? {
        do {
            try handle.seek(toOffset: UInt64(offset))
            guard let data = try handle.read(upToCount: count), data.count == count else { return nil }
            return [UInt8](data)
        } catch {
            return nil
        }
    }
}

/// Integer reads from byte buffers, bounds-checked by the callers.
enum ByteReading {
    static func u16(bigEndian b: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt16 {
        UInt16(b[i]) << 8 | UInt16(b[i + 1])
    }

    static func u32(bigEndian b: UnsafeBufferPointer<UInt8>, _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    /// The bytes as text for messages: "ff d8 ff e0 ..." (at most `limit` bytes).
    static func hex(_ bytes: [UInt8], limit: Int = 12) -> String {
        bytes.prefix(limit).map { String(format: "%02x", $0) }.joined(separator: " ")
    }
}
