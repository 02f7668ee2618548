import Foundation
import Hummingbird
import NIOCore
import Photos

/// `POST /api/session` signs in, with a token or, in a library with people, with a name and a
/// password, and sets the session cookie: `HttpOnly`, `SameSite=Lax`, and `Secure` when the
/// request came over TLS (through a proxy that says `X-Forwarded-Proto: https`). `GET` says who
/// is signed in and gives the session's CSRF token; `DELETE` signs out; `POST
/// /api/session/password` changes the signed-in person's password and ends their other sessions.
struct SessionRoutes {
    let service: LibraryService

    private struct SignIn: Decodable {
        var token: String?
        var name: String?
        var password: String?
    }

    private struct PasswordChange: Decodable {
        let currentPassword: String
        let newPassword: String
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
            response.setCookie(Self.cookie("", maxAge: 0, request))
            return response
        }
    }

    func add(to group: RouterGroup<PhotosRequestContext>) {
        group.get("session") { _, context in JSONResponse.make(try context.requireClient().summary) }
        group.post("session/password") { request, context in try await changePassword(request, context) }
    }

    /// The session cookie, `Secure` when the client reached the server over TLS.
    static func cookie(_ value: String, maxAge: Int, _ request: Request) -> Cookie {
        let overTLS = request.headers[.xForwardedProto]?.lowercased() == "https" || request.uri.scheme == .https
        return Cookie(name: AccessGate.cookieName, value: value, maxAge: maxAge, path: "/", secure: overTLS, httpOnly: true, sameSite: .lax)
    }

    private func signIn(_ request: Request, _ context: PhotosRequestContext) async throws -> Response {
        let body = try await JSONResponse.decode(SignIn.self, from: request, limit: 4096)
        let started: (id: String, client: ClientAccess)
        if let name = body.name {
            guard body.token == nil else { throw APIError(.badRequest, "Sign in with a token or with a name and a password, not both") }
            guard let password = body.password else { throw APIError(.badRequest, "A name needs its 'password'") }
            started = try await signIn(name: name, password: password, address: Self.address(request, context))
        } else {
            guard body.password == nil else { throw APIError(.badRequest, "A password needs its person's 'name'") }
            let found: (id: String, client: ClientAccess)?
            do {
                // A new session is a row written (off the event loop: it can wait on a lock).
                let gate = service.gate
                found = try await service.writing("session") { try gate.startSession(secret: body.token) }
            } catch {
                throw APIError(error)
            }
            guard let found else {
                throw AccessMiddleware.unauthorized(
                    body.token?.isEmpty == false ? "The access token is not valid" : "Sign in with a token, or with a name and a password")
            }
            started = found
        }
        var response = JSONResponse.make(started.client.summary)
        response.setCookie(Self.cookie(started.id, maxAge: Int(service.configuration.sessionLifetime), request))
        return response
    }

    /// A person's sign-in: throttled (``SignInThrottle``), the password checked by bcrypt off the
    /// event loops, the same answer for a name nobody has as for a wrong password.
    private func signIn(name: String, password: String, address: String?) async throws -> (id: String, client: ClientAccess) {
        let throttle = SignInThrottle(people: service.library.people)
        let keys = SignInThrottle.keys(name: name, address: address)
        try await throttle.refuseWhileWaiting(keys: keys, what: "failed sign-ins", service: service)
        let people = service.library.people
        let person: PHLibraryPerson?
        do {
            person = try await service.offLoop("sign-in") { try people.authenticate(name: name, password: password) }
        } catch {
            throw APIError(error)
        }
        guard let person else {
            try await service.writing("session") { try throttle.failed(keys: keys) }
            throw AccessMiddleware.unauthorized("The name or the password is wrong")
        }
        let gate = service.gate
        do {
            return try await service.writing("session") {
                try throttle.succeeded(keys: keys)
                return try gate.startSession(for: person)
            }
        } catch {
            throw APIError(error)
        }
    }

    private func changePassword(_ request: Request, _ context: PhotosRequestContext) async throws -> Response {
        let client = try context.requireClient()
        guard let person = client.person else {
            throw APIError(.forbidden, "Only a person signed in with their password can change it (this is \(client.name))")
        }
        guard client.token == nil, let session = client.session else {
            throw APIError(.forbidden, "Change a password from a signed-in browser session, not with a token")
        }
        let body = try await JSONResponse.decode(PasswordChange.self, from: request, limit: 4096)
        let people = service.library.people
        let throttle = SignInThrottle(people: people)
        let keys = SignInThrottle.keys(name: person.name, address: Self.address(request, context))
        try await throttle.refuseWhileWaiting(keys: keys, what: "failed sign-ins", service: service)
        do {
            guard try await service.offLoop("sign-in", { try people.verify(password: body.currentPassword, of: person) }) else {
                try await service.writing("session") { try throttle.failed(keys: keys) }
                throw APIError(.forbidden, "The current password is wrong")
            }
            try await service.offLoop("password") {
                try people.setPassword(body.newPassword, forPersonNamed: person.identifier, keptSessionSecret: session)
            }
        } catch let error as PHPhotosError {
            throw APIError(error)
        }
        service.accessChanged()
        return Response(status: .noContent)
    }

    /// The client's address: the connection's peer, or, when that peer is a proxy on this
    /// machine, the last address its `X-Forwarded-For` appended.
    static func address(_ request: Request, _ context: PhotosRequestContext) -> String? {
        let peer = context.channel.remoteAddress?.ipAddress
        if let peer, peer == "127.0.0.1" || peer == "::1",
            let forwarded = request.headers[.xForwardedFor]?.split(separator: ",").last?.trimmingCharacters(in: .whitespaces),
            !forwarded.isEmpty
        {
            return String(forwarded.prefix(64))
        }
        return peer
    }
}
