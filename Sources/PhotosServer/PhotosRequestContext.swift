public import Hummingbird
public import HummingbirdWebSocket
import NIOCore

/// The context of every request: Hummingbird's storage, the WebSocket upgrade slot, and who
/// the client is once ``AccessMiddleware`` has checked its token or session.
public struct PhotosRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<PhotosRequestContext>
    /// The client's connection (work for it is cancelled when it closes; ``ConnectionWatch``).
    let channel: any Channel
    /// Set by ``AccessMiddleware`` on every `/api` route but sign-in.
    var client: ClientAccess?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
        webSocket = .init()
    }

    /// The client, or 401 (a route outside the access middleware asked).
    func requireClient() throws -> ClientAccess {
        guard let client else { throw APIError(.unauthorized, "Sign in with an access token") }
        return client
    }
}
