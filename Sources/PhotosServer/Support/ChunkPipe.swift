import Foundation
import NIOCore

/// Carries a file's chunks from a reader thread (`PHAssetResourceManager`'s data handler) to a
/// response body, holding at most `capacity` chunks: the reader waits while the client is
/// slower than the disk, so a download of a large video keeps a few megabytes in memory, not
/// the file. When the body is dropped before its end (the client went away), `onCancel` runs
/// and a waiting reader is let go.
enum ChunkPipe {
    /// `onFull` (for tests, which wait for it instead of sleeping) runs on the reader's thread
    /// each time a chunk finds no room and the reader is about to wait.
    static func make(
        capacity: Int = 4, onCancel: @escaping @Sendable () -> Void = {}, onFull: (@Sendable () -> Void)? = nil
    ) -> (sender: Sender, body: Body) {
        // Made empty and then filled: libdispatch stops the process when a semaphore is freed
        // below its starting value, which a pipe dropped mid-read would be.
        let space = DispatchSemaphore(value: 0)
        for _ in 0..<capacity { space.signal() }
        let (stream, continuation) = AsyncThrowingStream<ByteBuffer, any Error>.makeStream()
        continuation.onTermination = { termination in
            if case .cancelled = termination { onCancel() }
            // Wake a reader waiting for room: what it sends now is dropped, and it stops at
            // its next check for cancellation.
            for _ in 0..<capacity { space.signal() }
        }
        return (Sender(continuation: continuation, space: space, onFull: onFull), Body(stream: stream, space: space, capacity: capacity))
    }

    /// The reader thread's end. Holds no reference to the body, so dropping the body ends
    /// the stream.
    struct Sender: Sendable {
        fileprivate let continuation: AsyncThrowingStream<ByteBuffer, any Error>.Continuation
        fileprivate let space: DispatchSemaphore
        fileprivate let onFull: (@Sendable () -> Void)?

        /// Waits until there is room, then hands `data` on.
        func send(_ data: Data) {
            if let onFull {
                if space.wait(timeout: .now()) == .timedOut {
                    onFull()
                    space.wait()
                }
            } else {
                space.wait()
            }
            continuation.yield(ByteBuffer(bytes: data))
        }

        /// The end, or the error that stopped the read.
        func finish(_ error: (any Error)?) {
            continuation.finish(throwing: error)
        }
    }

    /// The response body's end: each chunk taken makes room for the next.
    struct Body: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        fileprivate let stream: AsyncThrowingStream<ByteBuffer, any Error>
        fileprivate let space: DispatchSemaphore
        let capacity: Int

        struct AsyncIterator: AsyncIteratorProtocol {
            fileprivate var base: AsyncThrowingStream<ByteBuffer, any Error>.AsyncIterator
            fileprivate let space: DispatchSemaphore

            mutating func next() async throws -> ByteBuffer? {
                let chunk = try await base.next()
                if chunk != nil { space.signal() }
                return chunk
            }
        }

        func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(base: stream.makeAsyncIterator(), space: space)
        }
    }
}
