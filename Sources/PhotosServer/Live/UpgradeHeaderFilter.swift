import NIOCore
import NIOHTTP1

/// Takes the `Upgrade` header (and the `upgrade` token of `Connection`) off every request but a
/// WebSocket upgrade of `/api/live`, so such a request is answered as plain HTTP/1.1, as RFC
/// 9110 §7.8 lets a server do: `curl --http2` asks `Upgrade: h2c` on every first request.
///
/// swift-nio's typed upgrade handler loses the head of a request whose `Upgrade` names no
/// protocol it follows, or names WebSocket for a path the live route doesn't serve (it waits
/// for the request's end without keeping the head, then hands the HTTP/1 pipeline only what
/// came after): the connection closed without an answer.
///
/// First after the HTTP/1 request decoder (``PhotosChildChannel``), so every other handler
/// sees a real upgrade only; it leaves the pipeline on one.
final class UpgradeHeaderFilter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data), head.headers.contains(name: "upgrade") else {
            context.fireChannelRead(data)
            return
        }
        if Self.isLiveUpgrade(head) {
            // The HTTP codec leaves the pipeline with the upgrade: leave first.
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        head.headers.remove(name: "upgrade")
        let connection = head.headers[canonicalForm: "connection"].filter { $0.lowercased() != "upgrade" }
        head.headers.remove(name: "connection")
        for token in connection { head.headers.add(name: "Connection", value: String(token)) }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    /// `GET /api/live` asking `Upgrade: websocket` with `Connection: upgrade`: what the live
    /// route upgrades (or refuses with its reason, ``LiveUpgradeGate``).
    static func isLiveUpgrade(_ head: HTTPRequestHead) -> Bool {
        head.method == .GET
            && head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first == "/api/live"
            && head.headers[canonicalForm: "upgrade"].contains { $0.lowercased() == "websocket" }
            && head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "upgrade" }
    }
}
