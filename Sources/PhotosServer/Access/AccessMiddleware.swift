import Foundation
import Hummingbird
import NIOHTTP1

/// Lets a request through only with a valid bearer token or session cookie (or on a server
/// started without tokens), and records who the client is in the context; 401 otherwise.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = PhotosRequestContext

    let gate: AccessGate

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let authorization = request.headers[.authorization]
        let session = authorization == nil ? request.cookies[AccessGate.cookieName]?.value : nil
        let link = authorization == nil && session == nil ? request.cookies[AccessGate.linkCookieName]?.value : nil
        var context = context
        let unlock = request.cookies[AccessGate.linkUnlockCookieName]?.value
        let host = request.head.authority
        let gate = self.gate
        let check = { @Sendable () throws -> ClientAccess in
            try Self.client(authorization: authorization, session: session, link: link.map { ($0, unlock) }, host: host, gate: gate)
        }
        let client: ClientAccess
        do {
            // From the gate's memory, here on the event loop; a check that needs the store
            // is done on the reads pool instead.
            client = try AccessGate.$fromMemoryOnly.withValue(true) { try check() }
        } catch is AccessGate.NeedsStore {
            client = try await WorkPool.reads.run(check)
        }
        if let secret = client.session, request.method != .get, request.method != .head {
            try Self.checkCSRF(request.headers[.csrfToken], session: secret)
        }
        context.client = client
        return try await next(request, context)
    }

    /// A change made with a session cookie must carry the session's CSRF token
    /// (``ClientAccess/csrfToken(forSession:)``) in `X-CSRF-Token`: a page of another site can
    /// make the browser send the cookie (`SameSite=Lax` lets top-level navigations through)
    /// but can't read the token. Bearer tokens aren't sent by browsers on their own and need none.
    static func checkCSRF(_ header: String?, session: String) throws {
        guard let header, header == ClientAccess.csrfToken(forSession: session) else {
            throw APIError(
                .forbidden,
                header == nil
                    ? "A change made with a session cookie needs the session's X-CSRF-Token header (GET /api/session gives it)"
                    : "The X-CSRF-Token header is not this session's")
        }
    }

    /// ``client(authorization:session:host:gate:)`` for a request read by a channel handler
    /// (``CachedImageHandler``, ``LiveUpgradeGate``), before the conversion to HTTP types.
    static func client(_ headers: HTTPHeaders, gate: AccessGate) throws -> ClientAccess {
        let authorization = headers.first(name: "authorization")
        let session = authorization == nil ? CachedImageHandler.cookie(AccessGate.cookieName, in: headers) : nil
        let link = authorization == nil && session == nil ? CachedImageHandler.cookie(AccessGate.linkCookieName, in: headers) : nil
        return try client(
            authorization: authorization, session: session,
            link: link.map { ($0, CachedImageHandler.cookie(AccessGate.linkUnlockCookieName, in: headers)) }, host: headers.first(name: "host"),
            gate: gate)
    }

    /// The client of an `Authorization` header or else a session cookie, or the 401 to answer.
    /// A server without tokens lets a request without either in only when its `Host` is a
    /// loopback name (403 otherwise; ``ServerConfiguration/isLoopback(hostHeader:)``); `host`
    /// is read only then.
    static func client(
        authorization: String?, session: String?, link: (secret: String, unlock: String?)? = nil, host: @autoclosure () -> String?,
        gate: AccessGate
    ) throws -> ClientAccess {
        // A public link's visitor (no token, no session): the link's photos, or 401.
        if let link {
            let visitor: ClientAccess?
            do { visitor = try gate.client(link: link.secret, unlock: link.unlock) } catch let error as APIError { throw error } catch let error as AccessGate.NeedsStore {
                throw error
            } catch {
                throw APIError(error)
            }
            if let visitor { return visitor }
        }
        var bearer: String?
        if let authorization {
            bearer = bearerToken(authorization)
            guard bearer != nil else { throw unauthorized("The Authorization header must be 'Bearer <token>'") }
        }
        let client: ClientAccess?
        do {
            client = try gate.client(bearer: bearer, session: session)
        } catch let error as AccessGate.NeedsStore {
            throw error
        } catch {
            throw APIError(error)
        }
        guard let client else {
            throw unauthorized(bearer != nil ? "The access token is not valid" : "Sign in with an access token or as a person")
        }
        if client.token == nil, case let host = host(), !ServerConfiguration.isLoopback(hostHeader: host) {
            throw APIError(
                .forbidden, "A server without tokens answers only requests to localhost, 127.0.0.1 or [::1], not to '\((host ?? "").prefix(80))'")
        }
        return client
    }

    /// The token of `Bearer <token>` (the scheme in any case, spaces around the token ignored).
    /// Plain string work: this runs on every request.
    static func bearerToken(_ header: String) -> String? {
        let utf8 = header.utf8
        guard utf8.count > 7, utf8.prefix(6).elementsEqual("bearer".utf8, by: { $0 | 0x20 == $1 }),
            utf8.dropFirst(6).first == UInt8(ascii: " ")
        else { return nil }
        let token = utf8.dropFirst(7).drop(while: { $0 == UInt8(ascii: " ") })
        let trimmed = token.reversed().drop(while: { $0 == UInt8(ascii: " ") }).count
        return String(decoding: token.prefix(trimmed), as: UTF8.self)
    }

    static func unauthorized(_ reason: String) -> APIError {
        var error = APIError(.unauthorized, reason)
        error.headers[.wwwAuthenticate] = "Bearer realm=\"photos\""
        return error
    }
}

/// Requests that change something (any method but GET and HEAD) from a web page must come
/// from this server's own pages: a browser names the page's origin, and another site's page
/// is refused (403) whatever cookie or lack of one it relies on. Clients that send no
/// `Origin` (command-line tools, scripts) are not browsers and pass.
struct SameOriginWritesMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if request.method != .get, request.method != .head, let origin = request.headers[.origin],
            !LiveRoutes.sameOrigin(origin, authority: request.head.authority)
        {
            throw APIError(.forbidden, "Changes must come from this server's own pages, not from '\(origin.prefix(80))'")
        }
        return try await next(request, context)
    }
}

/// Headers for every response: no MIME sniffing; for HTML, a strict Content-Security-Policy
/// (no inline scripts, no framing) and no referrer leaks.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        // The policy matters for documents only (the gallery's page); images and JSON skip it.
        if response.headers[.contentType]?.hasPrefix("text/html") == true {
            response.headers[.contentSecurityPolicy] =
                "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"
            response.headers[.referrerPolicy] = "same-origin"
        }
        response.headers[.xContentTypeOptions] = "nosniff"
        return response
    }
}
