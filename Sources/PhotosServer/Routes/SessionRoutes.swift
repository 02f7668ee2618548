import Foundation
import Hummingbird

/// `POST /api/session` signs in with a token and sets an HttpOnly, SameSite=Strict session
/// cookie; `GET` says who is signed in; `DELETE` signs out.
struct SessionRoutes {
    let service: LibraryService

    private struct SignIn: Decodable {
        let token: String?
    }

    /// The routes that work without a session (signing in).
    func addPublic(to group: RouterGroup<PhotosRequestContext>) {
        group.post("session") { request, context in try await signIn(request, context) }
        // Signing out works with an expired session too: it clears the cookie either way.
        group.delete("session") { request, _ in
            if let id = request.cookies[AccessGate.cookieName]?.value {
                let gate = service.gate
                try await service.writing("session") { gate.endSession(id) }
            }
            var response = Response(status: .noContent)
            response.setCookie(Cookie(name: AccessGate.cookieName, value: "", maxAge: 0, path: "/", httpOnly: true, sameSite: .strict))
            return response
        }
    }

    func add(to group: RouterGroup<PhotosRequestContext>) {
        group.get("session") { _, context in JSONResponse.make(try context.requireClient().summary) }
    }

    private func signIn(_ request: Request, _ context: PhotosRequestContext) async throws -> Response {
        let body = try await JSONResponse.decode(SignIn.self, from: request, limit: 4096)
        let started: (id: String, client: ClientAccess)?
        do {
            // A new session is a row written (off the event loop: it can wait on a lock).
            let gate = service.gate
            started = try await service.writing("session") { try gate.startSession(secret: body.token) }
        } catch {
            throw APIError(error)
        }
        guard let started else { throw AccessMiddleware.unauthorized("The access token is not valid") }
        var response = JSONResponse.make(started.client.summary)
        response.setCookie(
            Cookie(
                name: AccessGate.cookieName, value: started.id, maxAge: Int(service.configuration.sessionLifetime), path: "/",
                httpOnly: true, sameSite: .strict))
        return response
    }
}
