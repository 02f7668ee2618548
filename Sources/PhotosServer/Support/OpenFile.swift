import Foundation
import Hummingbird
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#endif

/// A regular file opened for reading, with what `fstat` said of it when it was opened: the
/// size and dates a response announces are those of the bytes it sends, even if the file is
/// replaced meanwhile. Closed when the last reference goes (the response body when it has
/// been written, else the handler that opened it). Opening and reads run on NIO's blocking-I/O
/// thread pool, never on the event loops that run the server's tasks.
final class OpenFile: Sendable {
    /// An error reading a file: the file vanished or got shorter while it was being sent.
    struct ReadError: Error, CustomStringConvertible {
        let description: String
    }

    let descriptor: CInt
    /// Bytes, when the file was opened.
    let size: Int64
    /// Last modification, whole seconds and nanoseconds since 1970.
    let modifiedSeconds: Int64
    let modifiedNanoseconds: Int64

    private init(descriptor: CInt, size: Int64, modifiedSeconds: Int64, modifiedNanoseconds: Int64) {
        self.descriptor = descriptor
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
    }

    deinit {
        close(descriptor)
    }

    /// The regular file at `url`, or `nil` when there is none (missing, a folder, unreadable).
    static func open(_ url: URL, threadPool: NIOThreadPool = .singleton) async throws -> OpenFile? {
        let path = url.path
        return try await threadPool.runIfActive { () -> OpenFile? in
            let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return nil }
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                close(descriptor)
                return nil
            }
            return OpenFile(
                descriptor: descriptor, size: Int64(info.st_size), modifiedSeconds: Int64(info.st_mtim.tv_sec),
                modifiedNanoseconds: Int64(info.st_mtim.tv_nsec))
        }
    }

    /// A body sending `range` in chunks of `chunkSize` bytes: each chunk is read while the one
    /// before it is being written, and the next read waits for that write (the connection's
    /// backpressure), so a slow client holds two chunks in memory, not the range.
    func body(_ range: ClosedRange<Int64>, chunkSize: Int, threadPool: NIOThreadPool = .singleton) -> ResponseBody {
        ResponseBody(contentLength: range.count) { writer in
            var offset = range.lowerBound
            var pending = self.readAhead(at: offset, upTo: range.upperBound, chunkSize: chunkSize, threadPool: threadPool)
            // A client gone mid-range leaves a read ahead: let it go.
            defer { pending?.cancel() }
            while let next = pending {
                let chunk = try await next.value
                offset += Int64(chunk.readableBytes)
                pending = self.readAhead(at: offset, upTo: range.upperBound, chunkSize: chunkSize, threadPool: threadPool)
                try await writer.write(chunk)
            }
            try await writer.finish(nil)
        }
    }

    /// A read of the chunk at `offset` (at most up to `last`) started on the thread pool, or
    /// `nil` past `last`.
    private func readAhead(at offset: Int64, upTo last: Int64, chunkSize: Int, threadPool: NIOThreadPool) -> Task<ByteBuffer, any Error>? {
        guard offset <= last else { return nil }
        let count = Int(min(Int64(chunkSize), last - offset + 1))
        return Task { try await threadPool.runIfActive { try self.read(at: offset, count: count) } }
    }

    /// Exactly `count` bytes at `offset`.
    func read(at offset: Int64, count: Int) throws -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        try buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { target in
            var done = 0
            while done < count {
                let read = pread(descriptor, target.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if read < 0, errno == EINTR { continue }
                guard read > 0 else {
                    throw ReadError(description: read == 0 ? "the file ended early" : String(cString: strerror(errno)))
                }
                done += read
            }
            return done
        }
        return buffer
    }
}
