import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Answers repeated image requests (`GET /api/assets/{id}/image`, already encoded in memory)
/// in the connection's channel pipeline, on its event loop, before Hummingbird's async request
/// handling. The access check, parameters and cache are ``ImageRoutes``'s own; anything it can't
/// answer from memory (not signed in, bad parameters, not cached, a body, `Connection: close`)
/// goes on to the application unchanged, which gives the full answer, errors included.
///
/// Requests on a connection are answered in order: while a request is with the application,
/// later ones follow it there.
final class CachedImageHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let service: LibraryService
    /// Requests passed to the application whose response hasn't ended.
    private var withApplication = 0
    /// The answer to the request being read, sent at its end.
    private var answer: (head: HTTPResponse, body: ByteBuffer?)?

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
            if let body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { withApplication = max(0, withApplication - 1) }
        context.write(data, promise: promise)
    }

    private func cachedAnswer(_ request: HTTPRequest) -> (head: HTTPResponse, body: ByteBuffer?)? {
        guard request.method == .get, let target = request.path, let (id, query) = Self.split(imageTarget: target),
            request.headerFields[.connection]?.lowercased() != "close"
        else { return nil }
        let bearer = request.headerFields[.authorization].flatMap(AccessMiddleware.bearerToken)
        let session = bearer == nil ? Self.cookie(AccessGate.cookieName, in: request.headerFields) : nil
        guard let client = try? service.gate.client(bearer: bearer, session: session), client.level != .addOnly,
            let identifier = try? ObjectID.asset(String(id)), client.sees(identifier),
            let assetVersion = service.imageVersions.version(of: identifier),
            let parameters = try? ImageRoutes.Parameters(QueryParameters(query: query))
        else { return nil }
        let key = parameters.key(identifier, assetVersion: assetVersion)
        guard
            let response = ImageRoutes.cachedResponse(
                key: key, assetVersion: assetVersion, parameters: parameters, ifNoneMatch: request.headerFields[.ifNoneMatch],
                service: service)
        else { return nil }
        var fields = response.fields
        if response.body == nil {
            fields[.xContentTypeOptions] = "nosniff"
            fields[.contentLength] = "0"
        }
        return (HTTPResponse(status: response.status, headerFields: fields), response.body)
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
    static func cookie(_ name: String, in fields: HTTPFields) -> String? {
        for header in fields[values: .cookie] {
            for pair in header.split(separator: ";") {
                let trimmed = pair.drop(while: { $0 == " " })
                if trimmed.hasPrefix(name + "=") { return String(trimmed.dropFirst(name.count + 1)) }
            }
        }
        return nil
    }
}
