import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Photos
import PhotosServer
import PhotosTestSupport
import Testing

@testable import PhotosStorePostgres

/// PhotoKit's authorization as tokens: read-write, add-only, limited; sessions; open mode.
@Suite("Server access levels")
struct AccessTests {
    @Test func everyAPIRouteWantsATokenAndTheGalleryDoesNot() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = ServerFixture.uuid(fixture.assets[0])
        try await fixture.withServer { client in
            for (method, uri) in [
                (HTTPRequest.Method.get, "/api/assets"), (.get, "/api/assets/\(id)"), (.get, "/api/assets/\(id)/image"),
                (.get, "/api/assets/\(id)/original"), (.get, "/api/collections"), (.post, "/api/changes"), (.get, "/api/changes"),
                (.post, "/api/uploads"), (.get, "/api/session"), (.get, "/api/tokens"),
            ] {
                let response = try await client.call(method, uri, token: nil)
                #expect(response.status == .unauthorized, "\(method) \(uri)")
                #expect(response.headers[.wwwAuthenticate] == "Bearer realm=\"photos\"")
            }
            let wrong = try await client.call(.get, "/api/assets", token: "pk_not-a-real-token")
            #expect(wrong.status == .unauthorized)
            #expect(try wrong.reason() == "The access token is not valid")
            let basic = try await client.call(.get, "/api/assets", token: nil, headers: [.authorization: "Basic Zm9vOmJhcg=="])
            #expect(basic.status == .unauthorized)
            for path in ["/", "/openapi.json", "/api/openapi.json"] {
                #expect(try await client.call(.get, path, token: nil).status == .ok, "\(path)")
            }
            let page = try await client.call(.get, "/", token: nil)
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            #expect(page.headers[.xContentTypeOptions] == "nosniff")
        }
    }

    @Test func readWriteSeesAndChangesEverything() async throws {
        let fixture = try ServerFixture(photos: 3)
        try await fixture.withServer { client in
            let spaced = try await client.call(.get, "/api/assets", token: nil, headers: [.authorization: "bearer   \(fixture.readWrite)  "])
            #expect(spaced.status == .ok, "the scheme in any case, spaces around the token")
            let page = try await client.call(.get, "/api/assets", token: fixture.readWrite).json()
            #expect(page["count"] as? Int == 3)
            let session = try await client.call(.get, "/api/session", token: fixture.readWrite).json()
            #expect(session["accessLevel"] as? String == "readWrite")
            #expect(session["authorizationStatus"] as? String == "authorized")
            let album = try await client.call(
                .post, "/api/changes", token: fixture.readWrite, json: #"{"operations":[{"op":"createAlbum","title":"Mine","ref":"m"}]}"#)
            #expect(album.status == .ok)
        }
    }

    @Test func addOnlyMayUploadAndSeesNothing() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = ServerFixture.uuid(fixture.assets[0])
        let jpeg = try TestImages.jpeg(width: 80, height: 60)
        try await fixture.withServer { client in
            for uri in ["/api/assets", "/api/assets/\(id)", "/api/assets/\(id)/image", "/api/assets/\(id)/original", "/api/collections"] {
                let response = try await client.call(.get, uri, token: fixture.addOnly)
                #expect(response.status == .forbidden, "\(uri)")
            }
            let favorite = try await client.call(
                .post, "/api/changes", token: fixture.addOnly, json: #"{"operations":[{"op":"favorite","assets":["\#(id)"],"value":true}]}"#)
            #expect(favorite.status == .forbidden)
            #expect(try await client.call(.get, "/api/tokens", token: fixture.addOnly).status == .forbidden)
            let session = try await client.call(.get, "/api/session", token: fixture.addOnly).json()
            #expect(session["accessLevel"] as? String == "addOnly")

            let upload = try await client.call(.post, "/api/uploads?filename=new.jpg", token: fixture.addOnly, body: ByteBuffer(bytes: jpeg))
            #expect(upload.status == .created)
            let body = try upload.json()
            #expect(body["assets"] == nil, "an add-only client sees nothing, not even what it added")
            let created = try #require(body["localIdentifiers"] as? [String])
            #expect(created.count == 1)
            #expect(fixture.asset(created[0]) != nil)
        }
    }

    @Test func limitedSeesOnlyItsAllowListAndItsOwnUploads() async throws {
        let fixture = try ServerFixture(photos: 3)
        let allowed = ServerFixture.uuid(fixture.assets[0])
        let other = ServerFixture.uuid(fixture.assets[1])
        try await fixture.withServer { client in
            let page = try await client.call(.get, "/api/assets", token: fixture.limited).json()
            #expect(page["count"] as? Int == 1)
            #expect((page["assets"] as? [[String: Any]])?.first?["id"] as? String == allowed)
            #expect(try await client.call(.get, "/api/assets/\(allowed)", token: fixture.limited).status == .ok)
            for uri in ["/api/assets/\(other)", "/api/assets/\(other)/image", "/api/assets/\(other)/original"] {
                #expect(try await client.call(.get, uri, token: fixture.limited).status == .notFound, "\(uri) must not leak")
            }
            let change = try await client.call(
                .post, "/api/changes", token: fixture.limited, json: #"{"operations":[{"op":"favorite","assets":["\#(other)"],"value":true}]}"#)
            #expect(change.status == .notFound)
            #expect(fixture.asset(fixture.assets[1])?.isFavorite == false)
            let own = try await client.call(
                .post, "/api/changes", token: fixture.limited, json: #"{"operations":[{"op":"favorite","assets":["\#(allowed)"],"value":true}]}"#)
            #expect(own.status == .ok)
            let album = try await client.call(.post, "/api/changes", token: fixture.limited, json: #"{"operations":[{"op":"createAlbum","title":"x"}]}"#)
            #expect(album.status == .forbidden)
            let collections = try await client.call(.get, "/api/collections?type=moment", token: fixture.limited).json()
            #expect(collections["count"] as? Int == 0)
            let session = try await client.call(.get, "/api/session", token: fixture.limited).json()
            #expect(session["authorizationStatus"] as? String == "limited")

            // What a limited client adds joins its selection, as on Apple's platforms.
            let upload = try await client.call(
                .post, "/api/uploads?filename=mine.jpg", token: fixture.limited, body: ByteBuffer(bytes: try TestImages.jpeg()))
            #expect(upload.status == .created)
            #expect(try await client.call(.get, "/api/assets", token: fixture.limited).json()["count"] as? Int == 2)
        }
    }

    @Test func allowListEditsAndRevocationTakeEffectAtOnce() async throws {
        let fixture = try ServerFixture(photos: 2)
        let second = ServerFixture.uuid(fixture.assets[1])
        try await fixture.withServer { client in
            #expect(try await client.call(.get, "/api/assets/\(second)", token: fixture.limited).status == .notFound)
            let edit = try await client.call(
                .post, "/api/tokens/\(fixture.limitedIdentifier)/assets", token: fixture.readWrite, json: #"{"add":["\#(second)"]}"#)
            #expect(edit.status == .ok)
            #expect(try edit.json()["count"] as? Int == 2)
            #expect(try await client.call(.get, "/api/assets/\(second)", token: fixture.limited).status == .ok)
            // Another process (the CLI) edits the list: the server sees the new version.
            try fixture.temporary.openAgain().changeLimitedLibrary(ofAccessToken: fixture.limitedIdentifier, .remove([fixture.assets[1]]))
            try await waitUntil { try await client.call(.get, "/api/assets/\(second)", token: fixture.limited).status == .notFound }
            // A limited client may not edit lists; unknown assets fail the edit.
            #expect(
                try await client.call(.post, "/api/tokens/\(fixture.limitedIdentifier)/assets", token: fixture.limited, json: #"{"add":[]}"#).status
                    == .forbidden)
            let unknown = try await client.call(
                .post, "/api/tokens/\(fixture.limitedIdentifier)/assets", token: fixture.readWrite,
                json: #"{"add":["\#(UUID().uuidString)"]}"#)
            #expect(unknown.status == .notFound)

            let created = try await client.call(.post, "/api/tokens", token: fixture.readWrite, json: #"{"name":"tv","level":"read-write"}"#)
            #expect(created.status == .created)
            let body = try created.json()
            let secret = try #require(body["secret"] as? String)
            let identifier = try #require(body["identifier"] as? String)
            #expect(try await client.call(.get, "/api/assets", token: secret).status == .ok)
            #expect(try await client.call(.delete, "/api/tokens/\(identifier)", token: fixture.readWrite).status == .noContent)
            #expect(try await client.call(.get, "/api/assets", token: secret).status == .unauthorized)
            #expect(try await client.call(.delete, "/api/tokens/\(identifier)", token: fixture.readWrite).status == .notFound)
            let bad = try await client.call(.post, "/api/tokens", token: fixture.readWrite, json: #"{"name":"x","level":"admin"}"#)
            #expect(bad.status == .badRequest)
            let listed = try await client.call(.get, "/api/tokens", token: fixture.readWrite)
            #expect(!String(buffer: listed.body).contains("pk_"), "secrets are never listed")
        }
    }

    @Test func sessionsUseALaxHttpOnlyCookieAndChangesNeedTheirCSRFToken() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.withServer { client in
            let wrong = try await client.call(.post, "/api/session", token: nil, json: #"{"token":"pk_wrong"}"#)
            #expect(wrong.status == .unauthorized)
            let signIn = try await client.call(.post, "/api/session", token: nil, json: #"{"token":"\#(fixture.readWrite)"}"#)
            #expect(signIn.status == .ok)
            let cookie = try #require(signIn.headers[.setCookie])
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"))
            #expect(!cookie.contains("Secure"), "not over TLS")
            let value = try #require(cookie.split(separator: ";").first.map(String.init))
            let page = try await client.call(.get, "/api/assets", token: nil, headers: [.cookie: value])
            #expect(page.status == .ok)
            // A change with the cookie alone is refused; with the session's CSRF token it goes.
            let csrf = try #require(try await client.call(.get, "/api/session", token: nil, headers: [.cookie: value]).json()["csrfToken"] as? String)
            #expect(try signIn.json()["csrfToken"] as? String == csrf)
            let asset = ServerFixture.uuid(fixture.assets[0])
            let change = #"{"operations":[{"op":"favorite","assets":["\#(asset)"],"value":true}]}"#
            let bare = try await client.call(.post, "/api/changes", token: nil, json: change, headers: [.cookie: value])
            #expect(bare.status == .forbidden)
            #expect(try bare.reason().contains("X-CSRF-Token"))
            let forged = try await client.call(.post, "/api/changes", token: nil, json: change, headers: [.cookie: value, .csrf: "x" + csrf])
            #expect(forged.status == .forbidden)
            #expect(try await client.call(.post, "/api/changes", token: nil, json: change, headers: [.cookie: value, .csrf: csrf]).status == .ok)
            // A bearer token needs none (browsers don't send one on their own).
            #expect(try await client.call(.post, "/api/changes", token: fixture.readWrite, json: change).status == .ok)
            // Over TLS (a proxy says so), the cookie is Secure.
            let overTLS = try await client.call(
                .post, "/api/session", token: nil, json: #"{"token":"\#(fixture.readWrite)"}"#, headers: [.forwardedProto: "https"])
            #expect(overTLS.headers[.setCookie]?.contains("; Secure") == true)
            #expect(try await client.call(.delete, "/api/session", token: nil, headers: [.cookie: value]).status == .noContent)
            #expect(try await client.call(.get, "/api/assets", token: nil, headers: [.cookie: value]).status == .unauthorized)
            #expect(try await client.call(.get, "/api/assets", token: nil, headers: [.cookie: "photos_session=forged"]).status == .unauthorized)
        }
    }

    /// Sessions are kept in the library: a restarted server (a new application on the same
    /// library) still knows them; revoking the token or the lifetime passing ends them.
    @Test func sessionsOutliveARestartAndEndWithTheirToken() async throws {
        let fixture = try ServerFixture(photos: 1)
        let signIn = { @Sendable (client: any TestClientProtocol) async throws -> String in
            let response = try await client.call(.post, "/api/session", token: nil, json: #"{"token":"\#(fixture.readWrite)"}"#)
            return try #require(response.headers[.setCookie]?.split(separator: ";").first.map(String.init))
        }
        let cookie = try await fixture.withServer { client async throws in try await signIn(client) }
        try await fixture.withServer { client async throws in
            #expect(try await client.call(.get, "/api/assets", token: nil, headers: [.cookie: cookie]).status == .ok)
        }
        // Signing out ends it for every later server too.
        let second = try await fixture.withServer { client async throws in
            let second = try await signIn(client)
            #expect(try await client.call(.delete, "/api/session", token: nil, headers: [.cookie: cookie]).status == .noContent)
            return second
        }
        try await fixture.withServer { client async throws in
            #expect(try await client.call(.get, "/api/assets", token: nil, headers: [.cookie: cookie]).status == .unauthorized)
            #expect(try await client.call(.get, "/api/assets", token: nil, headers: [.cookie: second]).status == .ok)
        }
        // Past the lifetime, refused.
        try await fixture.withServer(ServerConfiguration(sessionLifetime: 0)) { client async throws in
            #expect(try await client.call(.get, "/api/assets", token: nil, headers: [.cookie: second]).status == .unauthorized)
        }
        // Revoking the token (here from another process's point of view: the library) ends it.
        let owner = try #require(try fixture.library.accessTokens().first { $0.name == "owner" })
        try fixture.library.revokeAccessToken(withIdentifier: owner.identifier)
        try await fixture.withServer { client async throws in
            #expect(try await client.call(.get, "/api/assets", token: nil, headers: [.cookie: second]).status == .unauthorized)
        }
    }

    @Test func openModeNeedsTheFlagAndLoopback() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.withServer(ServerConfiguration(allowsUnauthenticatedAccess: true)) { client in
            #expect(try await client.call(.get, "/api/assets", token: nil).status == .ok)
            let session = try await client.call(.get, "/api/session", token: nil).json()
            #expect(session["name"] as? String == "open")
            // A token, when sent, is still checked.
            #expect(try await client.call(.get, "/api/assets", token: "pk_wrong").status == .unauthorized)
        }
        #expect(throws: ServerConfigurationError.self) {
            try buildApplication(library: fixture.library, configuration: ServerConfiguration(host: "0.0.0.0", allowsUnauthenticatedAccess: true))
        }
    }

    @Test func tokensAreStoredHashed() throws {
        let fixture = try ServerFixture(photos: 0)
        // What the database holds, read as another program would (on either engine).
        let hashes = try fixture.temporary.texts("SELECT secretHash FROM accessToken")
        #expect(!hashes.contains { $0.contains(fixture.readWrite) || $0.contains("pk_") })
        #expect(hashes.count == 3)
        #expect(try fixture.library.authenticateAccessToken(secret: fixture.readWrite)?.level == .readWrite)
        #expect(try fixture.library.accessTokens().map(\.level) == [.readWrite, .addOnly, .limited])
    }
}

/// Polls `condition` for up to 30 seconds (changes from other processes arrive through the
/// library's change signal); the limit only ends a failed test.
func waitUntil(_ condition: () async throws -> Bool) async throws {
    for _ in 0..<600 {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(50))
    }
    Issue.record("the condition did not become true within 30 s")
}

/// What a browser can be made to send by another site: requests to a server without tokens
/// under that site's host name (DNS rebinding), and changes from that site's pages (CSRF).
@Suite("Server requests from other sites")
struct OtherSiteTests {
    static func exchange(_ port: Int, _ request: String) async throws -> (status: Int, reason: String) {
        let connection = try RawConnection(port: port)
        try connection.send(request)
        let response = try await connection.readResponse()
        let object = try? JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
        return (response.status, (object?["error"] as? [String: Any])?["reason"] as? String ?? "")
    }

    /// The `/api/live` upgrade's token check (``LiveUpgradeGate``): from the gate's memory on
    /// the connection's loop, and, for a token not there yet on a database store, on the reads
    /// pool with the request held meanwhile. The upgrade goes through with a valid token (101)
    /// and is refused with the API's 401 otherwise; on PostgreSQL no statement ran on an event
    /// loop (before: the token's read and its use recorded there).
    @Test(.timeLimit(.minutes(1 * TestTimeScale.factor))) func theLiveUpgradesTokenCheckIsNotReadOnALoop() async throws {
        let fixture = try ServerFixture(photos: 1)
        let onLoops = PostgresSession.statementsOnEventLoops.load(ordering: .relaxed)
        try await fixture.withServer(ServerConfiguration(), live: true) { client in
            let port = try #require(client.port)
            func upgrade(_ token: String) -> String {
                "GET /api/live HTTP/1.1\r\nHost: localhost:\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nAuthorization: Bearer \(token)\r\n\r\n"
            }
            let unknown = try await Self.exchange(port, upgrade("pk_" + String(repeating: "0", count: 40)))
            #expect(unknown.status == 401 && !unknown.reason.isEmpty, "\(unknown)")
            let valid = try await Self.exchange(port, upgrade(fixture.readWrite))
            #expect(valid.status == 101, "\(valid)")
        }
        #expect(PostgresSession.statementsOnEventLoops.load(ordering: .relaxed) == onLoops, "statements ran on event loops")
    }

    @Test(.timeLimit(.minutes(1 * TestTimeScale.factor))) func anOpenServerAnswersOnlyLoopbackHostNames() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = ServerFixture.uuid(fixture.assets[0])
        try await fixture.withServer(ServerConfiguration(allowsUnauthenticatedAccess: true), live: true) { client in
            let port = try #require(client.port)
            for host in ["localhost:\(port)", "127.0.0.1:\(port)", "127.1.2.3", "[::1]:\(port)", "LOCALHOST"] {
                let answer = try await Self.exchange(port, "GET /api/assets HTTP/1.1\r\nHost: \(host)\r\n\r\n")
                #expect(answer.status == 200, "\(host): \(answer)")
            }
            // The image is made and cached first, so the second request takes the fast path.
            let image = "/api/assets/\(id)/image?w=64&h=64"
            #expect(try await Self.exchange(port, "GET \(image) HTTP/1.1\r\nHost: localhost\r\n\r\n").status == 200)
            for request in [
                "GET /api/assets HTTP/1.1\r\nHost: rebound.example:\(port)\r\n\r\n",
                "GET \(image) HTTP/1.1\r\nHost: rebound.example:\(port)\r\n\r\n",
                "GET /api/assets HTTP/1.1\r\nHost: 127.0.0.1.rebound.example\r\n\r\n",
                "GET /api/live HTTP/1.1\r\nHost: rebound.example:\(port)\r\nOrigin: http://rebound.example:\(port)\r\nUpgrade: websocket\r\n"
                    + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
            ] {
                let answer = try await Self.exchange(port, request)
                #expect(answer.status == 403 && answer.reason.contains("localhost, 127.0.0.1 or [::1]"), "\(request): \(answer)")
            }
            // A token can't be sent by a rebound page, so with one any host name is fine.
            let withToken = try await Self.exchange(
                port, "GET /api/assets HTTP/1.1\r\nHost: photos.example\r\nAuthorization: Bearer \(fixture.readWrite)\r\n\r\n")
            #expect(withToken.status == 200)
        }
    }

    @Test func changesFromAnotherSitesPagesAreRefused() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = ServerFixture.uuid(fixture.assets[0])
        let favorite = #"{"operations":[{"op":"favorite","assets":["\#(id)"],"value":true}]}"#
        for open in [false, true] {
            try await fixture.withServer(ServerConfiguration(allowsUnauthenticatedAccess: open)) { client in
                let token = open ? nil : fixture.readWrite
                let foreign = try await client.call(.post, "/api/changes", token: token, json: favorite, headers: [.origin: "http://evil.example"])
                let reason = try foreign.reason()
                #expect(foreign.status == .forbidden && reason.contains("own pages"), "open: \(open)")
                let signIn = try await client.call(
                    .post, "/api/session", token: nil, json: #"{"token":"\#(fixture.readWrite)"}"#, headers: [.origin: "http://evil.example"])
                #expect(signIn.status == .forbidden)
                #expect(fixture.asset(fixture.assets[0])?.isFavorite == false, "nothing changed")
                // Reading is not a change; scripts and tools send no Origin.
                #expect(try await client.call(.get, "/api/assets", token: token, headers: [.origin: "http://evil.example"]).status == .ok)
                #expect(try await client.call(.post, "/api/changes", token: token, json: favorite).status == .ok)
                #expect(fixture.asset(fixture.assets[0])?.isFavorite == true)
                let unfavorite = favorite.replacingOccurrences(of: "true", with: "false")
                #expect(try await client.call(.post, "/api/changes", token: token, json: unfavorite).status == .ok)
            }
        }
    }
}
