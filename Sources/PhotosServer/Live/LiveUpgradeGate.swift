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
        guard case .head(let head) = unwrapInboundIn(data), let refusal = Self.refusal(of: head, service: service) else {
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
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

    /// Why a request to upgrade `/api/live` is refused, or `nil` (not such a request, or allowed).
    static func refusal(of head: HTTPRequestHead, service: LibraryService) -> APIError? {
        guard head.method == .GET, head.headers.contains(name: "upgrade"),
            head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first == "/api/live"
        else { return nil }
        do {
            let client = try AccessMiddleware.client(head.headers, gate: service.gate)
            try LiveRoutes.check(client, origin: head.headers.first(name: "origin"), authority: head.headers.first(name: "host"))
            return nil
        } catch {
            return APIError(error)
        }
    }
}
