import CCrypto
package import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The SHA-256 of a file's bytes, as 64 lowercase hex digits: how the library recognises an
/// original it already holds, whatever the file is called.
package enum ContentHash {
    /// Bytes read per call; large enough that the digest, not the system call, dominates.
    static let chunkSize = 1 << 20

    /// Hashes the file at `url`, reading it once from start to end.
    package static func sha256(ofFileAt url: URL) throws(StoreError) -> String {
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw StoreError(.fileOperation, "Can't read \(url.path) to hash it: \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        posix_fadvise(descriptor, 0, 0, POSIX_FADV_SEQUENTIAL)
        let digest = Digest()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer.baseAddress, chunkSize)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw StoreError(.fileOperation, "Can't read \(url.path) to hash it: \(String(cString: strerror(errno)))")
            }
            digest.update(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
        }
        return digest.finish()
    }

    /// Copies the file at `source` to `destination` (created, must not exist) and hashes it in
    /// the same pass: the bytes are read once, for the hash and for the copy.
    package static func copyHashing(from source: URL, to destination: URL) throws(StoreError) -> String {
        let input = open(source.path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else {
            throw StoreError(.fileOperation, "Can't read \(source.path): \(String(cString: strerror(errno)))")
        }
        defer { close(input) }
        posix_fadvise(input, 0, 0, POSIX_FADV_SEQUENTIAL)
        let output = open(destination.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard output >= 0 else {
            throw StoreError(.fileOperation, "Can't create \(destination.path): \(String(cString: strerror(errno)))")
        }
        var finished = false
        defer {
            close(output)
            if !finished { unlink(destination.path) }
        }
        let digest = Digest()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 64)
        defer { buffer.deallocate() }
        while true {
            let count = read(input, buffer.baseAddress, chunkSize)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw StoreError(.fileOperation, "Can't read \(source.path): \(String(cString: strerror(errno)))")
            }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[..<count])
            digest.update(chunk)
            var written = 0
            while written < count {
                let result = write(output, chunk.baseAddress! + written, count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    throw StoreError(.fileOperation, "Can't write \(destination.path): \(String(cString: strerror(errno)))")
                }
                written += result
            }
        }
        finished = true
        return digest.finish()
    }

    /// Hashes bytes in memory.
    package static func sha256(of data: Data) -> String {
        let digest = Digest()
        data.withUnsafeBytes { digest.update($0) }
        return digest.finish()
    }

    /// A running SHA-256 over libcrypto's EVP interface.
    final class Digest {
        private let context: OpaquePointer

        init() {
            context = EVP_MD_CTX_new()
            EVP_DigestInit_ex(context, EVP_sha256(), nil)
        }

        deinit { EVP_MD_CTX_free(context) }

        func update(_ bytes: UnsafeRawBufferPointer) {
            guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
            EVP_DigestUpdate(context, base, bytes.count)
        }

        func finish() -> String {
            var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            EVP_DigestFinal_ex(context, &output, &length)
            let hex = Array("0123456789abcdef".utf8)
            var text = [UInt8]()
            text.reserveCapacity(Int(length) * 2)
            for byte in output.prefix(Int(length)) {
                text.append(hex[Int(byte >> 4)])
                text.append(hex[Int(byte & 15)])
            }
            return String(decoding: text, as: UTF8.self)
        }
    }
}
