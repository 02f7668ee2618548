import Crypto
import Foundation
import NIOCore
import NIOFileSystem

/// A payload's SHA-256: hex for the signature's `x-amz-content-sha256`, base64 for
/// `x-amz-checksum-sha256`, which the server checks the stored bytes against.
struct SHA256Digest: Sendable {
    var bytes: [UInt8]

    init(_ data: some DataProtocol) {
        bytes = Array(SHA256.hash(data: data))
    }

    /// The digest of the file's bytes in `range`, read in chunks.
    init(file: URL, range: Range<Int64>) async throws(S3Error) {
        var hasher = SHA256()
        do {
            for try await chunk in FileChunkSequence(path: FilePath(file.path), range: range) {
                chunk.withUnsafeReadableBytes { hasher.update(bufferPointer: $0) }
            }
        } catch {
            throw S3Error(.configuration, "Could not read \(file.path): \(error)")
        }
        bytes = Array(hasher.finalize())
    }

    /// The digest of the file at `file` (its bytes in `range`, when given), read in 1 MiB
    /// chunks on the calling thread (for synchronous callers; async ones use
    /// ``init(file:range:)``).
    init(fileAt file: URL, range: Range<Int64>? = nil) throws {
        let handle = try FileHandle(forReadingFrom: file)
        defer { try? handle.close() }
        var hasher = SHA256()
        var left = Int64.max
        if let range {
            try handle.seek(toOffset: UInt64(range.lowerBound))
            left = Int64(range.count)
        }
        while left > 0, let chunk = try handle.read(upToCount: Int(min(1 << 20, left))), !chunk.isEmpty {
            hasher.update(data: chunk)
            left -= Int64(chunk.count)
        }
        bytes = Array(hasher.finalize())
    }

    /// A digest written as 64 hex digits; nil for anything else.
    init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == 64 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        for index in stride(from: 0, to: 64, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index..<index + 2], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(byte)
        }
        self.bytes = bytes
    }

    var hex: String { SignatureV4.hex(bytes) }
    var base64: String { Data(bytes).base64EncodedString() }

    /// `x-amz-checksum-sha256` (and the algorithm's name, which S3 wants with it).
    var headers: [(String, String)] {
        [("x-amz-checksum-sha256", base64), ("x-amz-sdk-checksum-algorithm", "SHA256")]
    }
}

/// A file's bytes in `range`, in chunks of at most 1 MiB, read off the event loops
/// (NIOFileSystem's threads). Each chunk opens the file for its read: no handle outlives a
/// consumer that stops early.
struct FileChunkSequence: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let path: FilePath
    let range: Range<Int64>
    var chunkSize: Int64 = 1 << 20

    struct AsyncIterator: AsyncIteratorProtocol {
        let path: FilePath
        var offset: Int64
        let end: Int64
        let chunkSize: Int64

        mutating func next() async throws -> ByteBuffer? {
            guard offset < end else { return nil }
            let length = Swift.min(chunkSize, end - offset)
            let start = offset
            let chunk = try await FileSystem.shared.withFileHandle(forReadingAt: path) { handle in
                try await handle.readChunk(fromAbsoluteOffset: start, length: .bytes(length))
            }
            guard chunk.readableBytes > 0 else {
                throw S3Error(.integrity, "\(path) ended at byte \(offset), before \(end): it changed while it was being sent")
            }
            offset += Int64(chunk.readableBytes)
            return chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(path: path, offset: range.lowerBound, end: range.upperBound, chunkSize: chunkSize)
    }
}
