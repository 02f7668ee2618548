package import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A quick fingerprint of a file: the SHA-256 of its size, its first and its last 64 KiB
/// (the whole file when smaller), as 64 lowercase hex digits.
///
/// Reading 128 KiB instead of the whole file is what lets an import in place (referenced
/// originals) keep up with the disk's seek rate rather than its bandwidth. Two files with the
/// same signature are only *probably* the same; ``LibraryDatabase/duplicates(of:)`` confirms a
/// match by comparing the bytes (or full hashes) before calling anything a duplicate. A photo's
/// headers (EXIF dates, unique IDs) sit in the first bytes, so real photos that differ almost
/// always differ there.
package enum ContentSignature {
    /// Bytes read from each end.
    package static let edgeSize = 64 * 1024

    /// The signature of the file at `url`, `size` bytes long.
    package static func signature(ofFileAt url: URL, size: Int64) throws(StoreError) -> String {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw StoreError(.fileOperation, "Can't read \(url.path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        let digest = ContentHash.Digest()
        withUnsafeBytes(of: size.littleEndian) { digest.update($0) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: edgeSize, alignment: 64)
        defer { buffer.deallocate() }
        let edge = Int64(edgeSize)
        var ranges: [(offset: Int64, count: Int64)] = [(offset: 0, count: min(size, 2 * edge))]
        if size > 2 * edge { ranges = [(offset: 0, count: edge), (offset: size - edge, count: edge)] }
        for range in ranges {
            var done: Int64 = 0
            while done < range.count {
                let wanted = Int(min(range.count - done, edge))
                let count = pread(descriptor, buffer.baseAddress, wanted, off_t(range.offset + done))
                if count < 0 {
                    if errno == EINTR { continue }
                    throw StoreError(.fileOperation, "Can't read \(url.path): \(String(cString: strerror(errno)))")
                }
                if count == 0 {
                    throw StoreError(.fileOperation, "\(url.path) is shorter than its \(size) bytes: it changed while being read")
                }
                digest.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                done += Int64(count)
            }
        }
        return digest.finish()
    }

    /// Whether two files hold the same bytes, compared chunk by chunk (stops at the first
    /// difference).
    package static func sameBytes(_ first: URL, _ second: URL) throws(StoreError) -> Bool {
        let a = open(first.path, O_RDONLY | O_CLOEXEC)
        guard a >= 0 else { throw StoreError(.fileOperation, "Can't read \(first.path): \(String(cString: strerror(errno)))") }
        defer { close(a) }
        let b = open(second.path, O_RDONLY | O_CLOEXEC)
        guard b >= 0 else { throw StoreError(.fileOperation, "Can't read \(second.path): \(String(cString: strerror(errno)))") }
        defer { close(b) }
        posix_fadvise(a, 0, 0, POSIX_FADV_SEQUENTIAL)
        posix_fadvise(b, 0, 0, POSIX_FADV_SEQUENTIAL)
        let size = ContentHash.chunkSize
        let left = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 64)
        let right = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 64)
        defer {
            left.deallocate()
            right.deallocate()
        }
        func fill(_ descriptor: Int32, _ buffer: UnsafeMutableRawBufferPointer, _ url: URL) throws(StoreError) -> Int {
            var total = 0
            while total < size {
                let count = read(descriptor, buffer.baseAddress! + total, size - total)
                if count < 0 {
                    if errno == EINTR { continue }
                    throw StoreError(.fileOperation, "Can't read \(url.path): \(String(cString: strerror(errno)))")
                }
                if count == 0 { break }
                total += count
            }
            return total
        }
        while true {
            let countA = try fill(a, left, first)
            let countB = try fill(b, right, second)
            guard countA == countB else { return false }
            if countA == 0 { return true }
            if memcmp(left.baseAddress!, right.baseAddress!, countA) != 0 { return false }
        }
    }
}
