import Foundation
import Hummingbird
import HummingbirdWebSocket

/// `GET /api/live` upgraded to a WebSocket: the client subscribes fetches and moves preheat
/// windows; the server pushes change details. Only same-origin pages may connect (the
/// `Origin` header, when sent, must name this host), and the client must be signed in.
enum LiveRoutes {
    static func add(to router: Router<PhotosRequestContext>, service: LibraryService) {
        router.add(middleware: AccessMiddleware(gate: service.gate))
        router.ws("api/live") { request, context in
            try check(context.requireClient(), origin: request.headers[.origin], authority: request.head.authority)
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, context in
            // A person's connection follows their own library.
            // try?: a person removed between the upgrade and now gets the connection closed.
            guard let client = context.requestContext.client, let served = try? service.serving(client) else { return }
            let connection = LiveConnection(service: served, client: client)
            served.live.add(connection)
            defer {
                served.live.remove(connection)
                connection.close()
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await text in connection.outbox {
                        try await outbound.writeTextMessage(text)
                    }
                    // The server ended it (a revoked token, a client too slow): say why. The
                    // client's answering close frame then ends the read loop below.
                    if let ending = connection.ending {
                        try await outbound.close(.init(codeNumber: Int(ending.code)), reason: ending.reason)
                    }
                }
                for try await message in inbound.messages(maxSize: 1 << 16) {
                    if case .text(let text) = message { await connection.receive(text) }
                }
                connection.close()
                try await group.waitForAll()
            }
        }
    }

    /// Who may connect: a client that may read, from this server's own pages. ``LiveUpgradeGate``
    /// answers a refusal with its status before the upgrade is attempted; the route checks again.
    static func check(_ client: ClientAccess, origin: String?, authority: String?) throws {
        try client.requireRead()
        if let origin, !sameOrigin(origin, authority: authority) {
            throw APIError(.forbidden, "WebSocket connections must come from this server's own pages")
        }
    }

    /// Whether a page's `Origin` names this server: the same host, and the same port when the
    /// origin has one (browsers always send it for a non-default port, so another port's page
    /// on this host is refused; non-browser clients may leave it out).
    static func sameOrigin(_ origin: String, authority: String?) -> Bool {
        guard let authority, let remainder = origin.components(separatedBy: "://").last, !remainder.isEmpty else { return false }
        return remainder == authority || (!remainder.contains(":") && authority.hasPrefix(remainder + ":"))
    }
}
