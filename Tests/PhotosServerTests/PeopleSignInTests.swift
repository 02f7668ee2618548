import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Photos
import PhotosServer
import PhotosTestSupport
import Testing

/// People signing in to `photos serve`: names and passwords, the session cookie and its CSRF
/// token, the throttle on guessing, password changes, and what a person who doesn't own the
/// library sees until the people's own libraries arrive.
@Suite("Server people and sign-in")
struct PeopleSignInTests {
    /// The fixture with Ana (the owner) and Ben.
    static func fixture(function: String = #function) throws -> ServerFixture {
        let fixture = try ServerFixture(photos: 2, function: function)
        try fixture.library.addPerson(named: "Ana", password: "correct horse")
        try fixture.library.addPerson(named: "Ben", password: "battery staple")
        return fixture
    }

    static func signIn(_ client: any TestClientProtocol, _ name: String, _ password: String) async throws -> TestResponse {
        let body = try String(decoding: JSONEncoder().encode(["name": name, "password": password]), as: UTF8.self)
        return try await client.call(.post, "/api/session", token: nil, json: body)
    }

    static func cookie(_ response: TestResponse) throws -> String {
        try #require(response.headers[.setCookie]?.split(separator: ";").first.map(String.init))
    }

    @Test func aPersonSignsInWithTheirPasswordAndTheOwnerSeesTheLibrary() async throws {
        let fixture = try Self.fixture()
        try await fixture.withServer { client in
            let response = try await Self.signIn(client, "ana", "correct horse")
            #expect(response.status == .ok)
            let setCookie = try #require(response.headers[.setCookie])
            #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax") && setCookie.contains("Path=/"))
            let body = try response.json()
            let person = try #require(body["person"] as? [String: Any])
            #expect(person["name"] as? String == "Ana" && person["isOwner"] as? Bool == true && person["isAdmin"] as? Bool == true)
            #expect(body["level"] as? String == "read-write" && body["tokenIdentifier"] == nil)
            let cookie = try Self.cookie(response)
            let page = try await client.call(.get, "/api/assets", token: nil, headers: [.cookie: cookie]).json()
            #expect(page["count"] as? Int == 2)
            // The owner's token, made before the library had people, works as before.
            #expect(try await client.call(.get, "/api/assets", token: fixture.readWrite).json()["count"] as? Int == 2)
            let session = try await client.call(.get, "/api/session", token: fixture.readWrite).json()
            #expect((session["person"] as? [String: Any])?["name"] as? String == "Ana" && session["csrfToken"] == nil)
            // Signing out ends the session.
            #expect(try await client.call(.delete, "/api/session", token: nil, headers: [.cookie: cookie]).status == .noContent)
            #expect(try await client.call(.get, "/api/assets", token: nil, headers: [.cookie: cookie]).status == .unauthorized)
        }
    }

    @Test func eachPersonIsServedTheirOwnLibrary() async throws {
        let fixture = try Self.fixture()
        let (_, bensToken) = try fixture.library.createAccessToken(named: "ben's", level: .readWrite, person: "Ben")
        try await fixture.withServer { client in
            // The owner's fetch first: a result kept for her must never answer Ben.
            #expect(try await client.call(.get, "/api/assets", token: fixture.readWrite).json()["count"] as? Int == 2)
            let response = try await Self.signIn(client, "Ben", "battery staple")
            let cookie = try Self.cookie(response)
            let csrf = try #require(try response.json()["csrfToken"] as? String)
            #expect(try response.json()["level"] as? String == "read-write")
            let asset = ServerFixture.uuid(fixture.assets[0])
            // Ana's thumbnail, rendered and cached for her: Ben can't have it by its id.
            #expect(try await client.call(.get, "/api/assets/\(asset)/image?width=64&height=64", token: fixture.readWrite).status == .ok)
            let byCookie: HTTPFields = [.cookie: cookie]
            for credentials in [(nil, byCookie), (bensToken, HTTPFields())] as [(String?, HTTPFields)] {
                let page = try await client.call(.get, "/api/assets", token: credentials.0, headers: credentials.1).json()
                #expect(page["count"] as? Int == 0)
                #expect(try await client.call(.get, "/api/assets/\(asset)", token: credentials.0, headers: credentials.1).status == .notFound)
                for path in ["image?width=64&height=64", "original", "video"] {
                    let answer = try await client.call(.get, "/api/assets/\(asset)/\(path)", token: credentials.0, headers: credentials.1)
                    #expect(answer.status == .notFound, "\(path)")
                }
                let collections = try await client.call(.get, "/api/collections?type=album", token: credentials.0, headers: credentials.1).json()
                #expect(collections["count"] as? Int == 0)
                let favorite = #"{"operations":[{"op":"favorite","assets":["\#(asset)"],"value":true}]}"#
                var headers = credentials.1
                if credentials.0 == nil { headers[.csrf] = csrf }
                let change = try await client.call(.post, "/api/changes", token: credentials.0, json: favorite, headers: headers)
                #expect(change.status == .notFound, "\((try? change.reason()) ?? "")")
            }
            // His own upload is his: he sees it, Ana doesn't.
            var headers: HTTPFields = [.cookie: cookie, .csrf: csrf]
            headers[.contentType] = "image/jpeg"
            let upload = try await client.call(
                .post, "/api/uploads?filename=ben.jpg", token: nil, body: ByteBuffer(bytes: try TestImages.jpeg()), headers: headers)
            #expect(upload.status == .created, "\((try? upload.reason()) ?? "")")
            #expect(try await client.call(.get, "/api/assets", token: bensToken).json()["count"] as? Int == 1)
            #expect(try await client.call(.get, "/api/assets", token: fixture.readWrite).json()["count"] as? Int == 2)
            // Tokens: each person lists and revokes only their own.
            let listed = try await client.call(.get, "/api/tokens", token: bensToken)
            #expect(String(buffer: listed.body).contains("ben's") && !String(buffer: listed.body).contains("owner"))
            let anasToken = try #require(try fixture.library.accessTokens().first { $0.name == "owner" })
            #expect(try await client.call(.delete, "/api/tokens/\(anasToken.identifier)", token: bensToken).status == .notFound)
            #expect(try await client.call(.get, "/api/changes?since=1", token: bensToken).status == .forbidden)
        }
    }

    /// The cached-thumbnail fast path (a channel handler, before the router: only a live server
    /// has it) answers a person only with images of assets they were shown.
    @Test func aCachedThumbnailIsNotAnsweredToAnotherPerson() async throws {
        let fixture = try Self.fixture()
        let (_, bensToken) = try fixture.library.createAccessToken(named: "ben's", level: .readWrite, person: "Ben")
        let asset = ServerFixture.uuid(fixture.assets[0])
        let uri = "/api/assets/\(asset)/image?width=64&height=64"
        // Served as `photos serve` serves a library with people: as its owner's.
        let anas = try fixture.library.library(forPerson: "Ana")
        try await fixture.withServer(live: true, served: anas) { client async throws in
            for _ in 0..<2 { #expect(try await client.call(.get, uri, token: fixture.readWrite).status == .ok) }
            for _ in 0..<2 { #expect(try await client.call(.get, uri, token: bensToken).status == .notFound) }
        }
    }

    @Test func wrongPasswordsAndUnknownNamesGetTheSameAnswerAndAreSlowed() async throws {
        let fixture = try Self.fixture()
        try await fixture.withServer { client in
            let wrong = try await Self.signIn(client, "Ana", "wrong password")
            let unknown = try await Self.signIn(client, "Nobody", "wrong password")
            #expect(wrong.status == .unauthorized && unknown.status == .unauthorized)
            #expect(try wrong.reason() == unknown.reason())
            #expect(wrong.headers[.setCookie] == nil)
            // Five failures per name go unslowed; the sixth attempt waits, whether or not the
            // name exists and whether or not the password is right.
            for name in ["Ana", "Nobody"] {
                for _ in 0..<4 { #expect(try await Self.signIn(client, name, "wrong password").status == .unauthorized) }
                let slowed = try await Self.signIn(client, name, name == "Ana" ? "correct horse" : "wrong password")
                #expect(slowed.status == .tooManyRequests, "\(name)")
                let wait = try #require(slowed.headers[.retryAfter].flatMap(Int.init))
                #expect((1...60).contains(wait))
            }
            // Another name is not slowed (this client has no address in a router test).
            #expect(try await Self.signIn(client, "Ben", "battery staple").status == .ok)
        }
        // The counts are the library's: a new server (another instance) slows them too.
        try await fixture.withServer { client async throws in
            #expect(try await Self.signIn(client, "ana", "correct horse").status == .tooManyRequests)
        }
    }

    @Test func aPasswordChangeEndsTheOtherSessions() async throws {
        let fixture = try Self.fixture()
        try await fixture.withServer { client in
            let here = try await Self.signIn(client, "Ana", "correct horse")
            let elsewhere = try Self.cookie(try await Self.signIn(client, "Ana", "correct horse"))
            let cookie = try Self.cookie(here)
            let csrf = try #require(try here.json()["csrfToken"] as? String)
            let headers: HTTPFields = [.cookie: cookie, .csrf: csrf]
            let wrong = try await client.call(
                .post, "/api/session/password", token: nil, json: #"{"currentPassword":"nope nope","newPassword":"new password"}"#,
                headers: headers)
            #expect(wrong.status == .forbidden)
            let short = try await client.call(
                .post, "/api/session/password", token: nil, json: #"{"currentPassword":"correct horse","newPassword":"short"}"#,
                headers: headers)
            #expect(short.status == .unprocessableContent)
            let changed = try await client.call(
                .post, "/api/session/password", token: nil, json: #"{"currentPassword":"correct horse","newPassword":"new password"}"#,
                headers: headers)
            #expect(changed.status == .noContent)
            #expect(try await client.call(.get, "/api/assets", token: nil, headers: [.cookie: cookie]).status == .ok)
            #expect(try await client.call(.get, "/api/assets", token: nil, headers: [.cookie: elsewhere]).status == .unauthorized)
            #expect(try await Self.signIn(client, "Ana", "new password").status == .ok)
            // A token can't change its person's password.
            #expect(
                try await client.call(
                    .post, "/api/session/password", token: fixture.readWrite,
                    json: #"{"currentPassword":"new password","newPassword":"third password"}"#
                ).status == .forbidden)
        }
    }

    /// A running server learns of `photos user remove` in another process within about a second:
    /// the removed person's session and token stop working, and an open server stops being open
    /// once the library has people.
    @Test func removalsAndFirstPeopleReachARunningServer() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.withServer(ServerConfiguration(allowsUnauthenticatedAccess: true), live: true) { client in
            #expect(try await client.call(.get, "/api/assets", token: nil).status == .ok)
            try fixture.library.addPerson(named: "Ana", password: "correct horse")
            try fixture.library.addPerson(named: "Ben", password: "battery staple")
            try await Self.eventually { try await client.call(.get, "/api/assets", token: nil).status == .unauthorized }
            let ben = try Self.cookie(try await Self.signIn(client, "Ben", "battery staple"))
            #expect(try await client.call(.get, "/api/session", token: nil, headers: [.cookie: ben]).status == .ok)
            try fixture.library.removePerson(named: "Ben")
            try await Self.eventually {
                try await client.call(.get, "/api/session", token: nil, headers: [.cookie: ben]).status == .unauthorized
            }
        }
    }

    /// Polls `condition` until it holds, for at most 10 s (the server's access watcher reacts to
    /// the library's change signal).
    static func eventually(_ condition: () async throws -> Bool) async throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if try await condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the condition did not hold within 10 s")
    }
}
