import Foundation
import NIOCore
import NIOEmbedded
import PhotosLocking
import Testing

@testable import PhotosServer

/// Renders for a client that went away are cancelled: its connection's close cancels them.
@Suite("Work cancelled with its connection")
struct ConnectionWatchTests {
    @Test func workForAClosedConnectionIsCancelled() async throws {
        let watch = ConnectionWatch()
        let channel = NIOAsyncTestingChannel()
        let (started, startedSource) = AsyncStream.makeStream(of: Void.self)
        let work = Task {
            try await watch.run(on: channel) {
                startedSource.yield()
                try await Task.sleep(for: .seconds(30))
                return 1
            }
        }
        var iterator = started.makeAsyncIterator()
        _ = await iterator.next()
        #expect(watch.watchedConnections == 1)
        try await channel.close()
        let result = await work.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(watch.watchedConnections == 0)
    }

    @Test func aConnectionKeepsOneWatchForManyRequests() async throws {
        let watch = ConnectionWatch()
        let channel = NIOAsyncTestingChannel()
        for value in 0..<3 {
            let answer = try await watch.run(on: channel) { value * 2 }
            #expect(answer == value * 2)
        }
        #expect(watch.watchedConnections == 1, "one close callback, kept while the connection is open")
        try await channel.close()
        #expect(watch.watchedConnections == 0)
        // Work on a connection that has already closed is cancelled at once.
        let late = await Task { try await watch.run(on: channel) { try await Task.sleep(for: .seconds(30)) } }.result
        #expect(throws: CancellationError.self) { try late.get() }
    }
}
