import NIOCore
import NIOHTTP1

/// Answers a request the HTTP parser refused (a control character in a header, a request line
/// or head larger than the parser takes) at once, and closes the connection: 431 for a head
/// too large, 400 for anything malformed. Without it the parser's error reached no handler
/// that answers, and the client waited for the idle timeout (60 s) with no reply.
///
/// Sits after the HTTP/1 request decoder, ahead of the WebSocket upgrade negotiation
/// (``PhotosChildChannel``), so it also answers a connection's first request; its answer goes
/// out through the response encoder at the head of the pipeline.
final class ProtocolErrorResponder: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private var answered = false
    /// Watches the bytes before the decoder: whether the request line of the request being
    /// read has ended (a head too large before it is a URI too long).
    private let watch: RequestLineWatch
    /// How long the connection stays open for reading after the answer (`linger` seconds).
    private let linger: TimeAmount

    init(watch: RequestLineWatch, linger: Double = 5) {
        self.watch = watch
        self.linger = .milliseconds(Int64(linger * 1000))
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head) where head.headers.contains(name: "upgrade"):
            // A WebSocket upgrade takes the HTTP codec out of the pipeline; these two go first,
            // so the frames that follow pass untouched.
            let pipeline = context.pipeline.syncOperations
            pipeline.removeHandler(watch, promise: nil)
            context.fireChannelRead(data)
            pipeline.removeHandler(context: context, promise: nil)
            return
        case .end:
            watch.state.reset()
        default:
            break
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let parserError = error as? HTTPParserError else {
            context.fireErrorCaught(error)
            return
        }
        guard !answered else { return }
        answered = true
        var (status, reason) = Self.answer(to: parserError)
        if case .headerOverflow = parserError, watch.state.requestLineIsTooLong {
            (status, reason) = (.uriTooLong, "The request's path and query are too long (the limit is 80 KB)")
        }
        var headers = HTTPHeaders()
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
        let body = context.channel.allocator.buffer(string: reason + "\n")
        headers.add(name: "Content-Length", value: String(body.readableBytes))
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(body))), promise: nil)
        // Close the sending side only, and read (and drop) what the client is still sending:
        // closing outright with unread bytes resets the connection, and the client loses the
        // answer. The connection closes when the client does, or after `linger` (5 s).
        let channel = context.channel
        let linger = linger
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            channel.close(mode: .output, promise: nil)
            channel.eventLoop.scheduleTask(in: linger) { channel.close(promise: nil) }
        }
    }

    static func answer(to error: HTTPParserError) -> (HTTPResponseStatus, String) {
        switch error {
        case .headerOverflow:
            (.requestHeaderFieldsTooLarge, "The request line or headers are too large (the limit is 80 KB)")
        case .invalidURL:
            (.badRequest, "The request's path is not a valid URL")
        case .invalidHeaderToken, .invalidCharactersUsed, .lfExpected, .invalidConstant:
            (.badRequest, "The request's headers are malformed (\(error))")
        default:
            (.badRequest, "The request is malformed (\(error))")
        }
    }
}

/// Watches the bytes before the HTTP decoder for the end of a request's first line, so a
/// request refused as too large can be told apart: a URI too long (414) or headers (431).
final class RequestLineWatch: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    /// The parser's limit on a request's head (llhttp's `HTTP_MAX_HEADER_SIZE`, 80 KiB).
    static let headLimit = 80 * 1024

    /// Shared by the two handlers of one connection, on its event loop.
    final class State {
        /// Whether the request line of the request being read has ended.
        var ended = false
        /// Its length so far (to its end once `ended`).
        var length = 0

        /// The request line alone is over the parser's limit, or hadn't ended when the parser
        /// gave up: the head is too large because of its URI (414), not its headers (431).
        /// Decided by where the line ends, not by whether the read that overflowed held a line
        /// end: a client sends a long URI and its headers in one write (curl, browsers), and
        /// the read that crosses the limit then holds both.
        var requestLineIsTooLong: Bool { !ended || length > RequestLineWatch.headLimit }

        func reset() {
            ended = false
            length = 0
        }
    }

    let state = State()

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !state.ended {
            let bytes = unwrapInboundIn(data).readableBytesView
            if let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                state.length += newline - bytes.startIndex
                state.ended = true
            } else {
                state.length += bytes.count
            }
        }
        context.fireChannelRead(data)
    }
}
