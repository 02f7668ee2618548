import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Photos
@testable import PhotosServer
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
            let start = fixture.library.currentChangeToken.stringValue
            try await fixture.library.performChanges {
                PHAssetChangeRequest(for: PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[1]], options: nil).firstObject!).isFavorite = true
            }
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
            // His history holds his upload's change and nothing of Ana's (her favorite of a
            // photo of hers came first).
            let history = try await client.call(.get, "/api/changes?since=\(start)", token: bensToken)
            #expect(history.status == .ok)
            let changes = try #require(try history.json()["changes"] as? [[String: Any]])
            #expect(changes.count == 1 && !String(buffer: history.body).contains(ServerFixture.uuid(fixture.assets[1])))
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
            // Five failures per name go unslowed, whether or not the name exists.
            for name in ["Ana", "Nobody"] {
                for _ in 0..<4 { #expect(try await Self.signIn(client, name, "wrong password").status == .unauthorized) }
            }
            // Then the next attempt waits 1 s after the last failure (the policy, read at the
            // moment of that failure, so the test doesn't depend on how fast it runs).
            let throttle = SignInThrottle(people: fixture.library.people)
            for name in ["Ana", "Nobody"] {
                let keys = SignInThrottle.keys(name: name, address: nil)
                let last = try #require(try fixture.library.people.failures(keys: keys, within: SignInThrottle.window)[keys[0]])
                #expect(last.count == 5)
                #expect(try throttle.wait(keys: keys, now: last.last) == 1)
                // Past a dozen failures, a minute between tries.
                for _ in 0..<7 { try throttle.failed(keys: keys) }
                let slowed = try await Self.signIn(client, name, name == "Ana" ? "correct horse" : "wrong password")
                #expect(slowed.status == .tooManyRequests, "\(name)")
                #expect(try slowed.reason().hasPrefix("Too many failed sign-ins"))
                let wait = try #require(slowed.headers[.retryAfter].flatMap(Int.init))
                #expect((50...60).contains(wait), "\(wait)")
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

/// Shared albums through the API: made and shared in `POST /api/changes`, seen by members,
/// contributed to, listed with their members.
@Suite("Server shared albums")
struct SharedAlbumRouteTests {
    @Test func anAlbumSharedThroughTheAPIIsEveryMembersAndNobodyElses() async throws {
        let fixture = try PeopleSignInTests.fixture()
        try fixture.library.addPerson(named: "Cy", password: "cy's password")
        let (_, ben) = try fixture.library.createAccessToken(named: "ben's", level: .readWrite, person: "Ben")
        let (_, cy) = try fixture.library.createAccessToken(named: "cy's", level: .readWrite, person: "Cy")
        let ana = fixture.readWrite
        let first = ServerFixture.uuid(fixture.assets[0])
        try await fixture.withServer { client in
            let made = try await client.call(
                .post, "/api/changes", token: ana,
                json: #"""
                    {"operations":[{"op":"createSharedAlbum","title":"Trip","ref":"t"},{"op":"addToAlbum","album":"t","assets":["\#(first)"]},
                    {"op":"shareAlbum","album":"t","person":"ben","role":"contributor"}]}
                    """#)
            #expect(made.status == .ok, "\((try? made.reason()) ?? "")")
            let trip = try #require((try made.json()["created"] as? [String: String])?["t"])
            let tripID = ServerFixture.uuid(trip)
            // Ben sees it (and its members); Cy doesn't.
            let bens = try await client.call(.get, "/api/collections?type=album", token: ben).json()
            #expect((bens["collections"] as? [[String: Any]])?.compactMap { $0["id"] as? String }.map(ServerFixture.uuid) == [tripID])
            #expect(try await client.call(.get, "/api/collections?type=album", token: cy).json()["count"] as? Int == 0)
            #expect(try await client.call(.get, "/api/collections/\(tripID)", token: cy).status == .notFound)
            let members = try await client.call(.get, "/api/collections/\(tripID)/members", token: ben).json()
            let listed = (members["members"] as? [[String: Any]])?.map { "\(($0["person"] as? [String: Any])?["name"] ?? "") \($0["role"] ?? "")" }
            #expect(listed == ["Ben contributor"])
            // Ben uploads a photo and adds it; Ana sees it in the album, not in her library.
            let upload = try await client.call(.post, "/api/uploads?filename=ben.jpg", token: ben, body: ByteBuffer(bytes: try TestImages.jpeg()))
            let uploaded = try #require((try upload.json()["localIdentifiers"] as? [String])?.first)
            let add = try await client.call(
                .post, "/api/changes", token: ben,
                json: #"{"operations":[{"op":"addToAlbum","album":"\#(tripID)","assets":["\#(ServerFixture.uuid(uploaded))"]}]}"#)
            #expect(add.status == .ok, "\((try? add.reason()) ?? "")")
            let contents = try await client.call(.get, "/api/assets?collection=\(tripID)", token: ana).json()
            #expect(contents["count"] as? Int == 2)
            #expect(try await client.call(.get, "/api/assets", token: ana).json()["count"] as? Int == 2)
            // A member's thumbnail of Ana's photo in it, and none for Cy.
            #expect(try await client.call(.get, "/api/assets/\(first)/image?width=64&height=64", token: ben).status == .ok)
            #expect(try await client.call(.get, "/api/assets/\(first)/image?width=64&height=64", token: cy).status == .notFound)
            // Ben can't rename it, nor favorite Ana's photo.
            let rename = try await client.call(
                .post, "/api/changes", token: ben, json: #"{"operations":[{"op":"renameAlbum","album":"\#(tripID)","title":"Mine"}]}"#)
            #expect(rename.status == .conflict, "\((try? rename.reason()) ?? "")")
            let favorite = try await client.call(
                .post, "/api/changes", token: ben, json: #"{"operations":[{"op":"favorite","assets":["\#(first)"],"value":true}]}"#)
            #expect(favorite.status == .forbidden, "read-only to a member")
            // Everyone lists the library's people; a token of no person can't share or list.
            let people = try await client.call(.get, "/api/people", token: cy).json()
            #expect((people["people"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Ana", "Ben", "Cy"])
            // Ben leaves: the album is gone from his list; his photo stays in it.
            let leave = try await client.call(
                .post, "/api/changes", token: ben, json: #"{"operations":[{"op":"leaveAlbum","album":"\#(tripID)"}]}"#)
            #expect(leave.status == .ok)
            #expect(try await client.call(.get, "/api/collections?type=album", token: ben).json()["count"] as? Int == 0)
            #expect(try await client.call(.get, "/api/assets?collection=\(tripID)", token: ana).json()["count"] as? Int == 2)
        }
    }

    @Test func aLibraryWithoutPeopleHasNoSharing() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.withServer { client in
            #expect(try await client.call(.get, "/api/people", token: fixture.readWrite).status == .forbidden)
            let made = try await client.call(
                .post, "/api/changes", token: fixture.readWrite, json: #"{"operations":[{"op":"createSharedAlbum","title":"Trip"}]}"#)
            #expect(made.status == .forbidden)
        }
    }
}

/// Partner sharing through the API.
@Suite("Server partner sharing")
struct PartnerRouteTests {
    @Test func aPartnersPhotosThroughTheAPI() async throws {
        let fixture = try PeopleSignInTests.fixture()
        let (_, ben) = try fixture.library.createAccessToken(named: "ben's", level: .readWrite, person: "Ben")
        let ana = fixture.readWrite
        try await fixture.withServer { client in
            #expect(try await client.call(.get, "/api/assets?partner=ana", token: ben).json()["count"] as? Int == 0)
            #expect(try await client.call(.post, "/api/partners", token: ana, json: #"{"person":"ben","sinceDate":"2024-05-02T00:00:00Z"}"#).status == .noContent)
            // Ana's second photo (May 2nd) is shared, her first (May 1st) isn't.
            let shared = try await client.call(.get, "/api/assets?partner=ana", token: ben).json()
            #expect(shared["count"] as? Int == 1)
            #expect(try await client.call(.get, "/api/assets", token: ben).json()["count"] as? Int == 0)
            #expect(try await client.call(.post, "/api/partners/ana/timeline", token: ben, json: #"{"show":true}"#).status == .noContent)
            #expect(try await client.call(.get, "/api/assets", token: ben).json()["count"] as? Int == 1)
            let shares = try await client.call(.get, "/api/partners", token: ben).json()
            let received = try #require(shares["received"] as? [[String: Any]])
            #expect(received.count == 1 && received[0]["isInPartnersTimeline"] as? Bool == true)
            #expect(try await client.call(.delete, "/api/partners/ben", token: ana).status == .noContent)
            #expect(try await client.call(.get, "/api/assets", token: ben).json()["count"] as? Int == 0)
            #expect(try await client.call(.delete, "/api/partners/ben", token: ana).status == .notFound)
        }
    }
}
