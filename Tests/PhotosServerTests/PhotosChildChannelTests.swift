import Foundation
import Hummingbird
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// ``PhotosChildChannel`` on an embedded channel: the handlers of a connection in the order it
/// documents, and a loud failure when hummingbird-websocket's part of the pipeline is not the
/// one it builds around.
@Suite("Server connection pipeline")
struct PhotosChildChannelTests {
    /// What a connection holds once set up, and once its first request is plain HTTP.
    @Test func theConnectionsHandlersComeInOrder() throws {
        let fixture = try ServerFixture(photos: 0)
        let service = LibraryService(library: fixture.library, configuration: ServerConfiguration())
        let webSocketRouter = Router(context: PhotosRequestContext.self)
        LiveRoutes.add(to: webSocketRouter, service: service)
        let childChannel = PhotosChildChannel(
            responder: { _, _, _ in }, webSocketResponder: webSocketRouter.buildResponder(), service: service)
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish() }
        try channel.connect(to: SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        _ = try childChannel.setup(channel: channel, logger: Logger(label: "test")).wait()
        let decoder = "\(ByteToMessageHandler<HTTPRequestDecoder>.self)"
        let upgradeHandler = "\(NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self)"
        #expect(
            Self.handlerTypes(channel) == [
                "HTTPResponseEncoder", "RequestLineWatch", decoder, "UpgradeHeaderFilter", "IdleConnectionTimeout",
                "ProtocolErrorResponder", "LiveUpgradeGate", upgradeHandler, "CachedImageHandler",
            ])
        // A first request that is not an upgrade: the gate and the upgrade handler leave, the
        // HTTP-types codec comes right after the cached-image fast path.
        try channel.writeInbound(ByteBuffer(string: "GET /api/assets HTTP/1.1\r\nHost: localhost\r\n\r\n"))
        let types = Self.handlerTypes(channel)
        #expect(
            Array(types.prefix(9)) == [
                "HTTPResponseEncoder", "RequestLineWatch", decoder, "UpgradeHeaderFilter", "IdleConnectionTimeout",
                "ProtocolErrorResponder", "CachedImageHandler", "HTTP1ToHTTPServerCodec", "HTTPConnectionStateHandler",
            ], "\(types)")
    }

    /// A pipeline without the WebSocket upgrade handler (plain HTTP/1), or with swift-nio's
    /// own HTTP/1 handlers between the decoder and it, is refused with what is wrong.
    @Test func aLayoutItWasNotBuiltForIsRefused() throws {
        let plain = EmbeddedChannel()
        defer { _ = try? plain.finish() }
        try plain.pipeline.syncOperations.configureHTTPServerPipeline()
        let missing = #expect(throws: PhotosChildChannel.LayoutError.self) {
            try PhotosChildChannel.UpgraderHandlers(plain.pipeline.syncOperations)
        }
        #expect(missing?.description.contains("the WebSocket upgrade handler") == true, "\(String(describing: missing))")

        let withDefaults = EmbeddedChannel()
        defer { _ = try? withDefaults.finish() }
        // swift-nio's defaults: pipelining, error handling and header validation on.
        let upgrade = NIOTypedHTTPServerUpgradeConfiguration<HTTP1WebSocketUpgradeChannel.UpgradeResult>(
            upgraders: [], notUpgradingCompletionHandler: { $0.eventLoop.makeFailedFuture(ChannelError.inappropriateOperationForState) })
        _ = try withDefaults.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: .init(upgradeConfiguration: upgrade))
        let added = #expect(throws: PhotosChildChannel.LayoutError.self) {
            try PhotosChildChannel.UpgraderHandlers(withDefaults.pipeline.syncOperations)
        }
        #expect(added?.description.contains("was added") == true, "\(String(describing: added))")
    }

    /// Once the upgrade is complete the connection carries WebSocket frames, which the
    /// cached-image handler (typed for HTTP/1 request parts) must not be left to read.
    @Test func theCachedImageHandlerLeavesOnAnUpgrade() throws {
        let fixture = try ServerFixture(photos: 0)
        let service = LibraryService(library: fixture.library, configuration: ServerConfiguration())
        let channel = EmbeddedChannel(handler: CachedImageHandler(service: service))
        defer { _ = try? channel.finish() }
        let head = HTTPRequestHead(version: .http1_1, method: .GET, uri: "/api/live")
        channel.pipeline.fireUserInboundEventTriggered(HTTPServerUpgradeEvents.upgradeComplete(toProtocol: "websocket", upgradeRequest: head))
        #expect(throws: (any Error).self) { try channel.pipeline.syncOperations.handler(type: CachedImageHandler.self) }
    }

    /// The handlers' types, first to last, from swift-nio's description of the pipeline (one
    /// line a handler: its inbound type, `↓↑`, its outbound type, its name).
    static func handlerTypes(_ channel: EmbeddedChannel) -> [String] {
        channel.pipeline.debugDescription.split(separator: "\n").dropFirst(2).map { line in
            let sides = line.components(separatedBy: "↓↑")
            let inbound = sides[0].trimmingCharacters(in: .whitespaces)
            let outbound = sides.count > 1 ? String(sides[1].split(separator: " ").first ?? "") : ""
            return inbound.isEmpty ? outbound : inbound
        }
    }
}
