import Foundation
import NIOCore
import PhotosLocking
import Testing

@testable import PhotosServer

/// Originals stream through a `ChunkPipe`: the reading thread waits while the client is slow.
@Suite("Original downloads: back-pressure")
struct ChunkPipeTests {
    /// A reader thread sending `count` chunks of `size` bytes; counts what it sent.
    final class Reader: Sendable {
        let sent = Atomic(0)
        let done = DispatchSemaphore(value: 0)

        func start(_ sender: ChunkPipe.Sender, count: Int, size: Int = 1024, stopWhen: @escaping @Sendable () -> Bool = { false }) {
            Thread {
                for index in 0..<count {
                    if stopWhen() { break }
                    sender.send(Data(repeating: UInt8(index % 251), count: size))
                    self.sent.add(1, ordering: .relaxed)
                }
                sender.finish(nil)
                self.done.signal()
            }.start()
        }
    }

    @Test func theReaderStaysAFewChunksAheadOfASlowClient() async throws {
        let (sender, body) = ChunkPipe.make(capacity: 4)
        let reader = Reader()
        reader.start(sender, count: 40)
        var received = 0
        var bytes: [UInt8] = []
        for try await chunk in body {
            // Give the reader time to run ahead if it could.
            try await Task.sleep(for: .milliseconds(5))
            received += 1
            let ahead = reader.sent.load(ordering: .relaxed) - received
            #expect(ahead <= body.capacity, "the reader ran \(ahead) chunks ahead")
            bytes.append(chunk.getBytes(at: chunk.readerIndex, length: 1)![0])
        }
        #expect(received == 40)
        #expect(bytes == (0..<40).map { UInt8($0 % 251) })
    }

    @Test func aClientThatGoesAwayStopsTheReader() async throws {
        let cancelled = Atomic(false)
        let reader = Reader()
        do {
            let (sender, body) = ChunkPipe.make(capacity: 2, onCancel: { cancelled.store(true, ordering: .relaxed) })
            reader.start(sender, count: 10_000, stopWhen: { cancelled.load(ordering: .relaxed) })
            var iterator = body.makeAsyncIterator()
            _ = try await iterator.next()
            try await Task.sleep(for: .milliseconds(50))
            let sent = reader.sent.load(ordering: .relaxed)
            #expect(sent <= 3, "the reader ran ahead of the client")
        }
        // The body is dropped here, as the server drops it when the connection closes.
        let sawCancel = cancelled.load(ordering: .relaxed)
        #expect(sawCancel)
        #expect(reader.done.wait(timeout: .now() + 5) == .success, "the reader is still blocked")
        let sent = reader.sent.load(ordering: .relaxed)
        #expect(sent < 10, "the reader kept reading after the client left")
    }
}
