import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1

/// Answers repeated image requests (`GET /api/assets/{id}/image`, already encoded in memory)
/// in the connection's channel pipeline, on its event loop, before swift-nio's conversion to
/// HTTP types and Hummingbird's async request handling. The access check, parameters and
/// cache are ``ImageRoutes``'s own; anything it can't answer from memory (not signed in, bad
/// parameters, not cached, a body, a connection not kept alive) goes on unchanged to the
/// application, which gives the full answer, errors included.
///
/// Requests on a connection are answered in order: while a request is with the application,
/// later ones follow it there.
///
/// ``PhotosChildChannel`` puts it right after the WebSocket upgrade handler, so the HTTP-types
/// codec that handler appends when the first request isn't an upgrade comes next; on an upgrade
/// it leaves before the first frame.
final class CachedImageHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let service: LibraryService
    /// Requests passed to the application whose response hasn't ended.
    private var withApplication = 0
    /// The answer to the request being read, sent at its end.
    private var answer: (head: HTTPResponseHead, body: ByteBuffer?)?

    init(service: LibraryService) {
        self.service = service
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let request):
            if withApplication == 0, let cached = cachedAnswer(request) {
                answer = cached
                return
            }
            withApplication += 1
            context.fireChannelRead(data)
        case .body:
            // A GET with a body is unusual; the cached answer ignores it.
            if answer == nil { context.fireChannelRead(data) }
        case .end:
            guard let (head, body) = answer else {
                context.fireChannelRead(data)
                return
            }
            answer = nil
            context.write(wrapOutboundOut(.head(head)), promise: nil)
            if let body { context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    /// A client that closes its side (a browser aborting a request: a grid cell scrolled
    /// away) will read nothing more: the connection is closed, so work for it is cancelled
    /// (``ConnectionWatch``), as nginx ends a request whose client closed (its 499).
    /// Hummingbird allows half-closure, which would otherwise keep the connection, and the
    /// render, until the answer is written.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            context.close(promise: nil)
            return
        }
        context.fireUserInboundEventTriggered(event)
        // The connection is a WebSocket now: the frames that follow are not HTTP.
        if case .upgradeComplete = event as? HTTPServerUpgradeEvents {
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { withApplication = max(0, withApplication - 1) }
        context.write(data, promise: promise)
    }

    private func cachedAnswer(_ request: HTTPRequestHead) -> (head: HTTPResponseHead, body: ByteBuffer?)? {
        guard request.method == .GET, request.isKeepAlive, let (id, query) = Self.split(imageTarget: request.uri) else { return nil }
        // From the gate's memory only: a check that needs a database round trip goes to the
        // router, which does it off the event loop.
        guard let client = try? AccessGate.$fromMemoryOnly.withValue(true, operation: { try AccessMiddleware.client(request.headers, gate: service.gate) }),
            client.level != .addOnly,
            let identifier = try? ObjectID.asset(String(id)), client.sees(identifier),
            // A person's image versions are of the assets they were shown: nobody else's.
            let assetVersion = (try? service.serving(client))?.imageVersions.version(of: identifier),
            let parameters = try? ImageRoutes.Parameters(QueryParameters(query: query))
        else { return nil }
        let key = parameters.key(identifier, assetVersion: assetVersion)
        if let match = request.headers.first(name: "if-none-match") {
            let etag = ImageRoutes.etag(key)
            if ImageRoutes.matches(match, etag: etag) {
                let headers: HTTPHeaders = [
                    "ETag": etag, "Cache-Control": ImageRoutes.cacheControl(parameters, assetVersion: assetVersion),
                    "X-Content-Type-Options": "nosniff", "Content-Length": "0",
                ]
                return (HTTPResponseHead(version: request.version, status: .notModified, headers: headers), nil)
            }
        }
        guard let entry = service.encodedImages.entry(for: key) else { return nil }
        let headers = parameters.requestedVersion == assetVersion ? entry.immutableHeaders : entry.revalidatedHeaders
        return (HTTPResponseHead(version: request.version, status: .ok, headers: headers), entry.bytes)
    }

    /// `{id}` and the query of `/api/assets/{id}/image?...` (bytes compared: this runs for
    /// every request).
    static func split(imageTarget target: String) -> (id: Substring, query: Substring)? {
        let prefix = "/api/assets/".utf8
        let suffix = "/image".utf8
        let bytes = target.utf8
        let question = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.endIndex
        let path = bytes[..<question]
        guard path.count > prefix.count + suffix.count, path.starts(with: prefix), path.reversed().starts(with: suffix.reversed()) else {
            return nil
        }
        let idStart = bytes.index(path.startIndex, offsetBy: prefix.count)
        let idEnd = bytes.index(question, offsetBy: -suffix.count)
        guard !bytes[idStart..<idEnd].contains(UInt8(ascii: "/")) else { return nil }
        let query = question == bytes.endIndex ? target[target.endIndex...] : target[target.index(after: question)...]
        return (target[idStart..<idEnd], query)
    }

    /// A cookie's value from `Cookie` headers (`a=1; photos_session=...`).
    static func cookie(_ name: String, in headers: HTTPHeaders) -> String? {
        for header in headers["cookie"] {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop(while: { $0 == " " })
                if trimmed.hasPrefix(name + "=") { return String(trimmed.dropFirst(name.count + 1)) }
            }
        }
        return nil
    }
}
