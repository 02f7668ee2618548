import Foundation
import NIOCore
import NIOHTTP1

/// Closes a connection whose client stalls after its first request, as nginx's
/// `client_body_timeout` and `keepalive_timeout` do:
///
/// - a request whose body stops coming (a head with `Content-Length: 100` and then nothing,
///   or nothing more for ``ServerConfiguration/idleTimeout``) — without this, the route
///   waiting for the body (and an upload's staging file) was held for good;
/// - a kept-alive connection that sends no next request (or only part of its head) that long
///   after its last answer ended.
///
/// A request being answered is never limited: a long video download or a slow render goes on
/// however long the client takes to read it. Bytes trickling in keep a body alive (the limit
/// is between two reads, not on the whole body). The clock runs only while the server has
/// asked for more (a `read` passed on its way to the socket) and nothing has come: a route
/// that is slow to take its body (a loaded machine, a store waiting for a connection) leaves
/// the bytes in the socket, and that wait is the server's, not the client's. Before its first
/// request a connection is ``LiveUpgradeGate``'s (``ServerConfiguration/firstRequestTimeout``).
///
/// Sits after the HTTP/1 request decoder, ahead of ``CachedImageHandler``
/// (``PhotosChildChannel``), so it sees every request part, those ``CachedImageHandler``
/// answers included, and every response part on its way out; it leaves the pipeline on a
/// WebSocket upgrade.
final class IdleConnectionTimeout: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    private let timeout: TimeAmount
    /// Requests whose head was read and whose answer hasn't ended.
    private var unanswered = 0
    /// A request's head was read and its end not yet.
    private var readingBody = false
    /// The first request has come: until then the connection is ``LiveUpgradeGate``'s.
    private var started = false
    /// The server asked to read (a `read` came through on its way to the socket) and no
    /// request part has come since.
    private var awaitingData = false
    private var lastActivity = NIODeadline.uptimeNanoseconds(0)
    private var timer: Scheduled<Void>?
    /// The timeout has passed once and the connection is being given a last look: a loop that
    /// was starved (a loaded machine) runs its timers and its waiting reads in one turn, and
    /// the reads must win before the client is blamed.
    private var lastLook = false

    init(timeout: TimeInterval) {
        self.timeout = .nanoseconds(Int64(timeout * 1_000_000_000))
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func read(context: ChannelHandlerContext) {
        if !awaitingData {
            // The client is waited for from now: before, the server wasn't asking.
            awaitingData = true
            lastActivity = context.eventLoop.now
            schedule(context)
        }
        context.read()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        lastActivity = context.eventLoop.now
        lastLook = false
        awaitingData = false
        switch unwrapInboundIn(data) {
        case .head(let head) where head.headers.contains(name: "upgrade"):
            // A WebSocket upgrade takes the HTTP codec out of the pipeline: leave first.
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        case .head:
            started = true
            unanswered += 1
            readingBody = true
        case .body:
            break
        case .end:
            readingBody = false
        }
        schedule(context)
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            unanswered = max(0, unanswered - 1)
            lastActivity = context.eventLoop.now
            schedule(context)
        }
        context.write(data, promise: promise)
    }

    /// Whether the client is the one keeping the connection waiting.
    private var clientStalls: Bool { started && awaitingData && (readingBody || unanswered == 0) }

    private func schedule(_ context: ChannelHandlerContext) {
        guard timer == nil, clientStalls else { return }
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(deadline: lastActivity + timeout) {
            bound.value.handler.timerFired(bound.value.context)
        }
    }

    private func timerFired(_ context: ChannelHandlerContext) {
        timer = nil
        guard clientStalls else { return }
        if context.eventLoop.now >= lastActivity + timeout {
            guard lastLook else {
                // Read what has come meanwhile first; close only if nothing did.
                lastLook = true
                context.read()
                let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
                timer = context.eventLoop.scheduleTask(in: .milliseconds(200)) {
                    bound.value.handler.timerFired(bound.value.context)
                }
                return
            }
            context.close(promise: nil)
        } else {
            schedule(context)
        }
    }
}
