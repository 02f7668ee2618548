import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOEmbedded
import NIOHTTP1

/// The channel pipeline of every connection `photos serve` accepts, built here and nowhere
/// else, in the order a request passes through it:
///
/// 1. ``RequestLineWatch``: notes where the request line ends (a head too large is a URI too
///    long, 414, or headers, 431).
/// 2. swift-nio's HTTP/1 request decoder (its response encoder before it, for every answer).
/// 3. ``UpgradeHeaderFilter``: an `Upgrade` header the server won't follow is dropped.
/// 4. ``IdleConnectionTimeout``: a client that stalls after its first request is closed.
/// 5. ``ProtocolErrorResponder``: a request the parser refused is answered and the connection
///    closed.
/// 6. ``LiveUpgradeGate``: until the first request, a refused `/api/live` upgrade is answered
///    with its reason and a connection that asks nothing is closed.
/// 7. swift-nio's WebSocket upgrade handler: the first request upgrades `/api/live`, or hands
///    the connection over to HTTP and leaves.
/// 8. ``CachedImageHandler``: repeated thumbnails answered from memory.
/// 9. swift-nio's HTTP-types codec and Hummingbird's connection state handler, which the
///    upgrade handler appends when the first request is not an upgrade; then Hummingbird's
///    router.
///
/// On an upgrade, 1 and 3–6 leave when the upgrade request passes them, the upgrade handler
/// takes the decoder and encoder out, appends the WebSocket's frame codec and leaves, and 8
/// leaves when told the upgrade is complete, before the first frame.
///
/// hummingbird-websocket's `HTTP1WebSocketUpgradeChannel` negotiates the upgrade and runs
/// either side of it (the router or the live route): its setup adds the encoder, the decoder
/// and the upgrade handler (2 and 7). This type places its own handlers around those three,
/// found by their exact types, with hummingbird-websocket's options that would add more
/// (pipelining, error handling, header validation) ruled out. An update of
/// hummingbird-websocket or swift-nio that changes that part of the pipeline makes
/// ``setup(channel:logger:)`` throw a ``LayoutError``, and ``checkLayout(logger:)``, run when
/// the server starts, stops it with that error: no handler is ever silently missing.
struct PhotosChildChannel: ServerChildChannel {
    typealias Value = HTTP1WebSocketUpgradeChannel.Value

    /// Adds 2 and 7, negotiates the upgrade, then runs HTTP or the WebSocket.
    private let upgradeChannel: HTTP1WebSocketUpgradeChannel
    private let service: LibraryService

    /// - Parameters:
    ///   - responder: Hummingbird's responder for HTTP requests.
    ///   - webSocketResponder: The router that upgrades `/api/live` (``LiveRoutes``).
    init<WebSocketResponder: HTTPResponder>(
        responder: @escaping HTTPChannelHandler.Responder, webSocketResponder: WebSocketResponder, service: LibraryService
    ) where WebSocketResponder.Context: WebSocketRequestContext {
        upgradeChannel = HTTP1WebSocketUpgradeChannel(
            responder: responder, webSocketResponder: webSocketResponder, configuration: .init(ws: .init(maxFrameSize: 1 << 16)))
        self.service = service
    }

    /// Builds a new connection's pipeline, 1 to 8 (9 comes with its first request).
    ///
    /// - Throws: In the future, ``LayoutError`` when hummingbird-websocket's handlers aren't
    ///   the ones this type builds around.
    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let service = service
        return upgradeChannel.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let upgrader = try UpgraderHandlers(pipeline)
            let watch = RequestLineWatch()
            try pipeline.addHandler(watch, position: .before(upgrader.decoder))
            try pipeline.addHandlers(
                [
                    UpgradeHeaderFilter(),
                    IdleConnectionTimeout(timeout: service.configuration.idleTimeout),
                    ProtocolErrorResponder(watch: watch, linger: service.configuration.refusedRequestLinger),
                    LiveUpgradeGate(service: service),
                ],
                position: .after(upgrader.decoder))
            try pipeline.addHandler(CachedImageHandler(service: service), position: .after(upgrader.upgradeHandler))
            return value
        }
    }

    /// Runs the connection: Hummingbird's router, or the live route once upgraded.
    func handle(value: Value, logger: Logger) async {
        await upgradeChannel.handle(value: value, logger: logger)
    }

    /// Builds the pipeline once on an embedded channel (no socket, no request), so that a
    /// layout it can't build stops the server when it starts instead of failing every
    /// connection.
    ///
    /// - Throws: ``LayoutError``.
    func checkLayout(logger: Logger) throws {
        let channel = EmbeddedChannel()
        defer { _ = try? channel.finish() }
        // Completed at once: an embedded channel runs its event loop's work inline.
        _ = try setup(channel: channel, logger: logger).wait()
    }

    /// The handlers hummingbird-websocket's setup adds that this type places its own around.
    struct UpgraderHandlers {
        /// swift-nio's HTTP/1 request decoder: ``RequestLineWatch`` goes before it, 3–6 after.
        let decoder: ByteToMessageHandler<HTTPRequestDecoder>
        /// swift-nio's WebSocket upgrade handler: ``CachedImageHandler`` goes after it, so the
        /// HTTP-types codec it appends comes next.
        let upgradeHandler: NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>

        /// Finds them, and makes sure nothing else of swift-nio's HTTP/1 server sits between.
        ///
        /// - Throws: ``LayoutError`` when one is missing (or of another type) or another is there.
        init(_ pipeline: ChannelPipeline.SynchronousOperations) throws {
            func find<Handler: ChannelHandler>(_ type: Handler.Type, _ role: String) throws -> Handler {
                guard let handler = try? pipeline.handler(type: type) else { throw LayoutError(role, "is missing", type) }
                return handler
            }
            func absent<Handler: ChannelHandler>(_ type: Handler.Type, _ role: String) throws {
                if (try? pipeline.handler(type: type)) != nil { throw LayoutError(role, "was added", type) }
            }
            _ = try find(HTTPResponseEncoder.self, "the HTTP/1 response encoder")
            decoder = try find(ByteToMessageHandler<HTTPRequestDecoder>.self, "the HTTP/1 request decoder")
            upgradeHandler = try find(
                NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self, "the WebSocket upgrade handler")
            try absent(HTTPServerPipelineHandler.self, "swift-nio's HTTP/1 pipelining handler")
            try absent(HTTPServerProtocolErrorHandler.self, "swift-nio's HTTP/1 error handler")
            try absent(NIOHTTPResponseHeadersValidator.self, "swift-nio's response header validator")
        }
    }

    /// hummingbird-websocket's part of the pipeline is not the one this type builds around (an
    /// update of hummingbird-websocket or swift-nio changed it).
    struct LayoutError: Error, CustomStringConvertible {
        let description: String

        init(_ role: String, _ what: String, _ type: any ChannelHandler.Type) {
            description =
                "photos serve can't build its connection pipeline: after hummingbird-websocket's setup, \(role) (\(type)) \(what);"
                + " PhotosChildChannel places its handlers around that setup's and needs updating"
        }
    }
}
