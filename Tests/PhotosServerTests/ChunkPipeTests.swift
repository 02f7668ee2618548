import Foundation
import NIOCore
import PhotosLocking
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// Originals stream through a `ChunkPipe`: the reading thread waits while the client is slow.
@Suite("Original downloads: back-pressure")
struct ChunkPipeTests {
    /// A reader thread sending `count` chunks of `size` bytes; counts what it sent and tells
    /// `events` each time it finds the pipe full (``ChunkPipe/make(capacity:onCancel:onFull:)``)
    /// and when it is done, so a test waits for the reader to go as far as it can instead of
    /// sleeping.
    final class Reader: Sendable {
        enum Event: Sendable, Equatable { case full, done }

        let sent = Atomic(0)
        let done = DispatchSemaphore(value: 0)
        let events: AsyncStream<Event>
        private let continuation: AsyncStream<Event>.Continuation

        init() { (events, continuation) = AsyncStream.makeStream(of: Event.self) }

        /// The pipe's `onFull`.
        var full: @Sendable () -> Void { { [continuation] in continuation.yield(.full) } }

        func start(_ sender: ChunkPipe.Sender, count: Int, size: Int = 1024, stopWhen: @escaping @Sendable () -> Bool = { false }) {
            Thread {
                for index in 0..<count {
                    if stopWhen() { break }
                    sender.send(Data(repeating: UInt8(index % 251), count: size))
                    self.sent.add(1, ordering: .relaxed)
                }
                sender.finish(nil)
                self.continuation.yield(.done)
                self.continuation.finish()
                self.done.signal()
            }.start()
        }
    }

    /// The client takes a chunk only once the reader has gone as far as it can (found the pipe
    /// full, or sent everything): each time, the reader is exactly `capacity` chunks ahead.
    @Test(.timeLimit(.minutes(1 * TestTimeScale.factor))) func theReaderStaysAFewChunksAheadOfASlowClient() async throws {
        let reader = Reader()
        let (sender, body) = ChunkPipe.make(capacity: 4, onFull: reader.full)
        reader.start(sender, count: 40)
        var events = reader.events.makeAsyncIterator()
        var chunks = body.makeAsyncIterator()
        var received = 0
        var fullEvents = 0
        var readerDone = false
        var bytes: [UInt8] = []
        while true {
            if !readerDone {
                let event = await events.next()
                readerDone = event != .full
                let ahead = reader.sent.load(ordering: .relaxed) - received
                if readerDone {
                    #expect(ahead <= body.capacity, "the reader ran \(ahead) chunks ahead and finished without waiting")
                } else {
                    fullEvents += 1
                    #expect(ahead == body.capacity, "the reader waited for room \(ahead) chunks ahead")
                }
            }
            guard let chunk = try await chunks.next() else { break }
            received += 1
            bytes.append(chunk.getBytes(at: chunk.readerIndex, length: 1)![0])
        }
        #expect(received == 40)
        #expect(fullEvents == 40 - body.capacity, "the reader waited once for each chunk taken until its last")
        #expect(bytes == (0..<40).map { UInt8($0 % 251) })
    }

    @Test(.timeLimit(.minutes(1 * TestTimeScale.factor))) func aClientThatGoesAwayStopsTheReader() async throws {
        let cancelled = Atomic(false)
        let reader = Reader()
        do {
            let (sender, body) = ChunkPipe.make(capacity: 2, onCancel: { cancelled.store(true, ordering: .relaxed) }, onFull: reader.full)
            reader.start(sender, count: 10_000, stopWhen: { cancelled.load(ordering: .relaxed) })
            var events = reader.events.makeAsyncIterator()
            #expect(await events.next() == .full)
            #expect(reader.sent.load(ordering: .relaxed) == 2, "the reader filled the pipe, no more")
            var iterator = body.makeAsyncIterator()
            _ = try await iterator.next()
            // Room for one chunk: the reader sends it and waits again.
            #expect(await events.next() == .full)
            let sent = reader.sent.load(ordering: .relaxed)
            #expect(sent == 3, "the reader ran ahead of the client")
        }
        // The body is dropped here, as the server drops it when the connection closes.
        let sawCancel = cancelled.load(ordering: .relaxed)
        #expect(sawCancel)
        #expect(reader.done.wait(timeout: .now() + 5) == .success, "the reader is still blocked")
        let sent = reader.sent.load(ordering: .relaxed)
        #expect(sent < 10, "the reader kept reading after the client left")
    }
}
