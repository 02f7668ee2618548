import Foundation
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// In every connection's pipeline (``PhotosChildChannel``) ahead of the WebSocket upgrade
/// handler until its first request (the one that may become a WebSocket) has gone on:
///
/// - A refused upgrade of `/api/live` is answered with its status and reason, as the API
///   answers any request: 401 without a valid token or session, 403 for an add-only token or
///   another site's page. (hummingbird-websocket answers every refused upgrade 400, with no
///   body.)
/// - A connection that sends no request is closed after
///   ``ServerConfiguration/firstRequestTimeout`` (nginx's `client_header_timeout`), and at once
///   when the server shuts down. Browsers open spare
///   connections they may never use, and until its first request a connection has none of
///   Hummingbird's idle or shutdown handling: one would hold a graceful shutdown forever.
final class LiveUpgradeGate: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let service: LibraryService
    /// The refused request's remaining parts (and anything after them) are dropped.
    private var refusing = false
    private var timer: Scheduled<Void>?
    /// The upgrade request's parts, held while its check runs on the reads pool (its token or
    /// session isn't in the gate's memory and the store is a database: never read on a loop).
    private var held: [NIOAny]?
    private var removed = false

    init(service: LibraryService) {
        self.service = service
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startTimer(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startTimer(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        removed = true
        timer?.cancel()
        timer = nil
    }

    private func startTimer(_ context: ChannelHandlerContext) {
        guard timer == nil else { return }
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        let timeout = TimeAmount.milliseconds(Int64(service.configuration.firstRequestTimeout * 1000))
        timer = context.eventLoop.scheduleTask(in: timeout) { Self.end(bound.value) }
    }

    /// Ends a connection before its first request as if the client had closed its side: the
    /// upgrade handler then closes it, and Hummingbird takes that as a client gone (closing
    /// the channel under it would be logged as an error).
    private static func end(_ context: ChannelHandlerContext) {
        context.fireUserInboundEventTriggered(ChannelEvent.inputClosed)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusing else { return }
        if held != nil {
            held?.append(data)
            return
        }
        guard case .head(let head) = unwrapInboundIn(data) else { return pass([data], context) }
        switch Self.verdict(of: head, service: service, fromMemoryOnly: true) {
        case .allowed: pass([data], context)
        case .refused(let refusal): refuse(head, refusal, context)
        case .needsStore:
            held = [data]
            timer?.cancel()
            timer = nil
            Self.checkOffTheLoop(
                head, service: service, gate: NIOLoopBound(self, eventLoop: context.eventLoop),
                context: NIOLoopBound(context, eventLoop: context.eventLoop))
        }
    }

    /// ``verdict(of:service:fromMemoryOnly:)`` on the reads pool, reading the store; then
    /// ``decided(_:head:context:)`` back on the connection's loop.
    private static func checkOffTheLoop(
        _ head: HTTPRequestHead, service: LibraryService, gate: NIOLoopBound<LiveUpgradeGate>, context: NIOLoopBound<ChannelHandlerContext>
    ) {
        Task {
            let verdict: Verdict
            do {
                verdict = try await WorkPool.reads.run { Self.verdict(of: head, service: service, fromMemoryOnly: false) }
            } catch {
                verdict = .refused(APIError(error))
            }
            context.eventLoop.execute { gate.value.decided(verdict, head: head, context: context.value) }
        }
    }

    /// The held request goes on, or is refused, once its check is done.
    private func decided(_ verdict: Verdict, head: HTTPRequestHead, context: ChannelHandlerContext) {
        guard !removed, let parts = held else { return }
        held = nil
        if case .refused(let refusal) = verdict { return refuse(head, refusal, context) }
        pass(parts, context)
        context.fireChannelReadComplete()
    }

    /// Sends the request on and leaves the pipeline: this connection's first request is in.
    private func pass(_ parts: [NIOAny], _ context: ChannelHandlerContext) {
        for part in parts { context.fireChannelRead(part) }
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }

    private func refuse(_ head: HTTPRequestHead, _ refusal: APIError, _ context: ChannelHandlerContext) {
        refusing = true
        timer?.cancel()
        let body = ByteBuffer(data: refusal.jsonBody)
        var headers: HTTPHeaders = [
            "Content-Type": "application/json; charset=utf-8", "Content-Length": "\(body.readableBytes)", "Connection": "close",
            "X-Content-Type-Options": "nosniff",
        ]
        for field in refusal.headers { headers.add(name: field.name.rawName, value: field.value) }
        let status = HTTPResponseStatus(statusCode: refusal.status.code, reasonPhrase: refusal.status.reasonPhrase)
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in Self.end(bound.value) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The server is shutting down and this connection has asked nothing: nothing is lost.
        if event is ChannelShouldQuiesceEvent {
            Self.end(context)
            return
        }
        context.fireUserInboundEventTriggered(event)
    }

    enum Verdict: Sendable {
        case allowed
        case refused(APIError)
        /// The check needs the store, which is not read on an event loop.
        case needsStore
    }

    /// Whether a request to upgrade `/api/live` is refused (`allowed` for any other request).
    /// With `fromMemoryOnly`, a token or session the gate doesn't hold in memory is not looked
    /// up in a database store (``AccessGate/fromMemoryOnly``).
    static func verdict(of head: HTTPRequestHead, service: LibraryService, fromMemoryOnly: Bool) -> Verdict {
        guard head.method == .GET, head.headers.contains(name: "upgrade"),
            head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first == "/api/live"
        else { return .allowed }
        do {
            let client = try AccessGate.$fromMemoryOnly.withValue(fromMemoryOnly) { try AccessMiddleware.client(head.headers, gate: service.gate) }
            try LiveRoutes.check(client, origin: head.headers.first(name: "origin"), authority: head.headers.first(name: "host"))
            return .allowed
        } catch is AccessGate.NeedsStore {
            return .needsStore
        } catch {
            return .refused(APIError(error))
        }
    }
}
