import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing

@testable import PhotosServer

/// ``IdleConnectionTimeout`` on an embedded channel, whose clock moves only when the test
/// moves it: the timeout blames the client only while the server is asking to read.
@Suite("Server idle connection timeout")
struct IdleConnectionTimeoutTests {
    private static let head = HTTPServerRequestPart.head(HTTPRequestHead(version: .http1_1, method: .POST, uri: "/api/changes"))

    private func channel() throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: IdleConnectionTimeout(timeout: 1.5))
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return channel
    }

    /// A route that doesn't take its body yet (the store is busy) asks nothing of the socket;
    /// the client isn't stalling then, however long it lasts. Before, the clock ran from the
    /// head and such a connection was closed under load.
    @Test func aRouteThatIsSlowToTakeItsBodyDoesntBlameTheClient() throws {
        let channel = try channel()
        defer { _ = try? channel.finish() }
        try channel.writeInbound(Self.head)
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        #expect(channel.isActive, "nothing was asked of the client")
        // Now the route reads: from here the client has 1.5 s for its next piece.
        channel.read()
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1400))
        #expect(channel.isActive)
        try channel.writeInbound(HTTPServerRequestPart.body(ByteBuffer(string: "{")))
        channel.read()
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1400))
        #expect(channel.isActive, "the piece restarted the clock")
        // Nothing more: the timeout, then one last look (200 ms), then the close.
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(200))
        #expect(channel.isActive, "given a last look first")
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(250))
        #expect(!channel.isActive, "a body that stopped coming is closed")
    }

    /// A kept-alive connection is timed from its answer's end, while the server waits for its
    /// next request; an answer being written is never limited.
    @Test func aKeptAliveConnectionIsTimedFromItsAnswer() throws {
        let channel = try channel()
        defer { _ = try? channel.finish() }
        try channel.writeInbound(Self.head)
        try channel.writeInbound(HTTPServerRequestPart.end(nil))
        channel.read()
        channel.embeddedEventLoop.advanceTime(by: .seconds(30))
        #expect(channel.isActive, "a slow answer is the server's")
        try channel.writeOutbound(HTTPServerResponsePart.head(HTTPResponseHead(version: .http1_1, status: .ok)))
        try channel.writeOutbound(HTTPServerResponsePart.end(nil))
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(1400))
        #expect(channel.isActive)
        channel.embeddedEventLoop.advanceTime(by: .milliseconds(500))
        #expect(!channel.isActive, "no next request within the timeout")
    }
}
