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
    /// Calls `body` with exactly `count` bytes at `offset` and returns true, or returns false if
    /// they are not all there. The bytes are not copied where the source holds them: for the
    /// small reads parsers make by the thousand (a 2-byte tag, a 4-byte offset), where a fresh
    /// array each was most of the work. Not generic: through `any ByteSource` a generic one
    /// runs unspecialized, looking up its result type's metadata on every call. `body` must not
    /// read from the source itself.
    func visitBytes(at offset: Int64, count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool
}

extension ByteSource {
    func visitBytes(at offset: Int64, count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard let bytes = bytes(at: offset, count: count) else { return false }
        bytes.withUnsafeBufferPointer(body)
        return true
    }

    /// Up to `maxCount` bytes at `offset` (fewer at the end, empty past it).
    func prefix(at offset: Int64, maxCount: Int) -> [UInt8] {
        guard offset >= 0, offset < size, maxCount > 0 else { return [] }
        let n = Int(min(Int64(maxCount), size - offset))
        return bytes(at: offset, count: n) ?? []
    }

    func u8(_ offset: Int64) -> UInt8? {
        var value: UInt8 = 0
        return visitBytes(at: offset, count: 1) { value = $0[0] } ? value : nil
    }

    func u16be(_ offset: Int64) -> UInt16? {
        var value: UInt16 = 0
        return visitBytes(at: offset, count: 2) { value = ByteReading.u16(bigEndian: $0, 0) } ? value : nil
    }

    func u32be(_ offset: Int64) -> UInt32? {
        var value: UInt32 = 0
        return visitBytes(at: offset, count: 4) { value = ByteReading.u32(bigEndian: $0, 0) } ? value : nil
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

    func visitBytes(at offset: Int64, count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard offset >= 0, count >= 0, offset <= size, Int64(count) <= size - offset else { return false }
        let start = Int(offset)
        storage.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[start ..< start + count])) }
        return true
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
        if count > Self.windowSize {
            return read(at: offset, count: count)
        }
        guard let s = windowIndex(of: offset, count: count) else { return nil }
        return Array(window[s ..< s + count])
    }

    func visitBytes(at offset: Int64, count: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        guard offset >= 0, count >= 0, offset <= size, Int64(count) <= size - offset else { return false }
        if count == 0 || count > Self.windowSize {
            guard let bytes = bytes(at: offset, count: count) else { return false }
            bytes.withUnsafeBufferPointer(body)
            return true
        }
        guard let s = windowIndex(of: offset, count: count) else { return false }
        window.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[s ..< s + count])) }
        return true
    }

    /// Where `count` (at most `windowSize`) bytes at `offset` start in the window, reading a
    /// new window from `offset` when they are not all in it.
    private func windowIndex(of offset: Int64, count: Int) -> Int? {
        if offset >= windowStart, offset + Int64(count) <= windowStart + Int64(window.count) {
            return Int(offset - windowStart)
        }
        guard let fresh = read(at: offset, count: Int(min(Int64(Self.windowSize), size - offset))),
              fresh.count >= count
        else { return nil }
        windowStart = offset
        window = fresh
        return 0
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
