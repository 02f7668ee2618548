import Foundation
import Hummingbird

/// Lets a request through only with a valid bearer token or session cookie (or on a server
/// started without tokens), and records who the client is in the context; 401 otherwise.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = PhotosRequestContext

    let gate: AccessGate

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var bearer: String?
        if let authorization = request.headers[.authorization] {
            guard authorization.lowercased().hasPrefix("bearer ") else {
                throw Self.unauthorized("The Authorization header must be 'Bearer <token>'")
            }
            bearer = String(authorization.dropFirst("bearer ".count)).trimmingCharacters(in: .whitespaces)
        }
        let session = request.cookies[AccessGate.cookieName]?.value
        let client: ClientAccess?
        do {
            client = try gate.client(bearer: bearer, session: session)
        } catch {
            throw APIError(error)
        }
        guard let client else {
            throw Self.unauthorized(bearer != nil ? "The access token is not valid" : "Sign in with an access token")
        }
        var context = context
        context.client = client
        return try await next(request, context)
    }

    static func unauthorized(_ reason: String) -> APIError {
        var error = APIError(.unauthorized, reason)
        error.headers[.wwwAuthenticate] = "Bearer realm=\"photos\""
        return error
    }
}

/// Headers every response carries: a strict Content-Security-Policy for the gallery, no MIME
/// sniffing, no framing, no referrer leaks.
struct SecurityHeadersMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response: Response
        do {
            response = try await next(request, context)
        } catch let error as any HTTPResponseError {
            response = try error.response(from: request, context: context)
        }
        response.headers[.contentSecurityPolicy] =
            "default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"
        response.headers[.xContentTypeOptions] = "nosniff"
        response.headers[.referrerPolicy] = "same-origin"
        return response
    }
}
