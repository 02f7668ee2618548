import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import Photos
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// The authorization matrix of a household: every operation of the OpenAPI document called by
/// each role (``Role``) on one of Ana's objects that is shared (her photo in her shared album
/// "Trip Album", and that album) and on one that is not (another photo, her "Private Album"),
/// with each cell's status asserted against ``expected``, and no answer to anyone but Ana
/// holding what isn't shared with them (identifiers and titles, in bodies and list counts).
@Suite("Server access matrix, every role")
struct RoleMatrixTests {
    /// Who calls. Ana owns the photos and albums; Ben is a viewer and Cy a contributor of her
    /// shared album; Dee is another person; Ed an administrator (who manages people, and sees
    /// only what is shared with him). The links are Ana's, to her shared album.
    enum Role: String, CaseIterable {
        case anonymous, link, unlockedLink = "link+password", lockedLink = "link-password", expiredLink = "expired", revokedLink = "revoked"
        case viewer, contributor, albumOwner = "owner", anotherPerson = "another", admin
    }

    enum Target: String, CaseIterable { case shared, `private` }

    /// Each operation's answers, per target, in ``Role`` order:
    /// anonymous, link, link+password, link-password, expired, revoked, viewer, contributor,
    /// owner, another, admin. `2xx` stands for any success.
    static let expected: [String: String] = [
        "DELETE /api/links/{id} private": "401 403 403 401 401 401 404 404 2xx 404 404",
        "DELETE /api/links/{id} shared": "401 403 403 401 401 401 404 404 2xx 404 404",
        "DELETE /api/partners/{person} private": "401 403 403 401 401 401 404 404 404 404 404",
        "DELETE /api/partners/{person} shared": "401 403 403 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "DELETE /api/people/{person} private": "401 403 403 401 401 401 403 403 2xx 403 2xx",
        "DELETE /api/people/{person} shared": "401 403 403 401 401 401 403 403 2xx 403 2xx",
        "DELETE /api/session private": "2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx",
        "DELETE /api/session shared": "2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx",
        "DELETE /api/tokens/{token} private": "401 403 403 401 401 401 404 404 2xx 404 404",
        "DELETE /api/tokens/{token} shared": "401 403 403 401 401 401 404 404 2xx 404 404",
        "GET /api/assets private": "401 2xx 2xx 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/assets shared": "401 2xx 2xx 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/assets/{id} private": "401 404 404 401 401 401 404 404 2xx 404 404",
        "GET /api/assets/{id} shared": "401 2xx 2xx 401 401 401 2xx 2xx 2xx 404 404",
        "GET /api/assets/{id}/image private": "401 404 404 401 401 401 404 404 2xx 404 404",
        "GET /api/assets/{id}/image shared": "401 2xx 2xx 401 401 401 2xx 2xx 2xx 404 404",
        "GET /api/assets/{id}/original private": "401 404 404 401 401 401 404 404 2xx 404 404",
        "GET /api/assets/{id}/original shared": "401 403 403 401 401 401 2xx 2xx 2xx 404 404",
        "GET /api/assets/{id}/video private": "401 404 404 401 401 401 404 404 2xx 404 404",
        "GET /api/assets/{id}/video shared": "401 404 404 401 401 401 404 404 2xx 404 404",
        "GET /api/changes private": "401 403 403 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/changes shared": "401 403 403 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/collections private": "401 2xx 2xx 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/collections shared": "401 2xx 2xx 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/collections/{id} private": "401 404 404 401 401 401 404 404 2xx 404 404",
        "GET /api/collections/{id} shared": "401 404 404 401 401 401 2xx 2xx 2xx 404 404",
        "GET /api/collections/{id}/members private": "401 404 404 401 401 401 404 404 2xx 404 404",
        "GET /api/collections/{id}/members shared": "401 404 404 401 401 401 2xx 2xx 2xx 404 404",
        "GET /api/links private": "401 403 403 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/links shared": "401 403 403 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/openapi.json private": "2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx",
        "GET /api/openapi.json shared": "2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx",
        "GET /api/partners private": "401 403 403 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/partners shared": "401 403 403 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/people private": "401 403 403 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/people shared": "401 403 403 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/search private": "401 403 403 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/search shared": "401 403 403 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/session private": "401 2xx 2xx 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/session shared": "401 2xx 2xx 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/tokens private": "401 403 403 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/tokens shared": "401 403 403 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/tokens/{token}/assets private": "401 403 403 401 401 401 404 404 2xx 404 404",
        "GET /api/tokens/{token}/assets shared": "401 403 403 401 401 401 404 404 2xx 404 404",
        "GET /api/uploads/{id} private": "401 404 404 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /api/uploads/{id} shared": "401 404 404 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "GET /healthz private": "2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx",
        "GET /healthz shared": "2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx",
        "GET /openapi.json private": "2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx",
        "GET /openapi.json shared": "2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx",
        "HEAD /api/assets/{id}/original private": "401 404 404 401 401 401 404 404 2xx 404 404",
        "HEAD /api/assets/{id}/original shared": "401 403 403 401 401 401 2xx 2xx 2xx 404 404",
        "HEAD /api/assets/{id}/video private": "401 404 404 401 401 401 404 404 2xx 404 404",
        "HEAD /api/assets/{id}/video shared": "401 404 404 401 401 401 404 404 2xx 404 404",
        "PATCH /api/people/{person} private": "401 403 403 401 401 401 403 403 2xx 403 2xx",
        "PATCH /api/people/{person} shared": "401 403 403 401 401 401 403 403 2xx 403 2xx",
        "POST /api/changes private": "401 403 403 401 401 401 404 404 2xx 404 404",
        "POST /api/changes shared": "401 403 403 401 401 401 403 403 2xx 404 404",
        "POST /api/links private": "401 403 403 401 401 401 404 404 2xx 404 404",
        "POST /api/links shared": "401 403 403 401 401 401 404 404 2xx 404 404",
        "POST /api/links/unlock private": "401 2xx 401 401 404 404 401 401 401 401 401",
        "POST /api/links/unlock shared": "401 2xx 401 401 404 404 401 401 401 401 401",
        "POST /api/partners private": "401 403 403 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "POST /api/partners shared": "401 403 403 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "POST /api/partners/{person}/timeline private": "401 403 403 401 401 401 404 404 404 404 404",
        "POST /api/partners/{person}/timeline shared": "401 403 403 401 401 401 404 404 404 404 404",
        "POST /api/people private": "401 403 403 401 401 401 403 403 2xx 403 2xx",
        "POST /api/people shared": "401 403 403 401 401 401 403 403 2xx 403 2xx",
        "POST /api/session private": "2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx",
        "POST /api/session shared": "2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx 2xx",
        "POST /api/session/password private": "401 403 403 401 401 401 403 403 403 403 403",
        "POST /api/session/password shared": "401 403 403 401 401 401 403 403 403 403 403",
        "POST /api/tokens private": "401 403 403 401 401 401 404 404 2xx 404 404",
        "POST /api/tokens shared": "401 403 403 401 401 401 2xx 2xx 2xx 404 404",
        "POST /api/tokens/{token}/assets private": "401 403 403 401 401 401 404 404 2xx 404 404",
        "POST /api/tokens/{token}/assets shared": "401 403 403 401 401 401 404 404 2xx 404 404",
        "POST /api/uploads private": "401 403 403 401 401 401 2xx 2xx 2xx 2xx 2xx",
        "POST /api/uploads shared": "401 403 403 401 401 401 2xx 2xx 2xx 2xx 2xx",
    ]

    /// `GET /api/assets` and `GET /api/collections?type=album` counts per role (a status for
    /// those refused).
    static let counts: [Role: [Int?]] = [
        .anonymous: [401, 401], .link: [1, 0], .unlockedLink: [1, 0], .lockedLink: [401, 401], .expiredLink: [401, 401],
        .revokedLink: [401, 401], .viewer: [0, 1], .contributor: [0, 1], .albumOwner: [4, 2], .anotherPerson: [0, 0], .admin: [0, 0],
    ]

    /// Ana's household, made before the server starts.
    struct Household {
        let fixture: ServerFixture
        let ana: PHPhotoLibrary
        let privateAlbum: String, trip: String
        let tokens: [Role: String]
        let links: [Role: String]
        let sharedAsset: String, privateAssets: [String]
        /// The library's change token before the household was made (`GET /api/changes?since=`).
        let start: String

        init() throws {
            let fixture = try ServerFixture(photos: 3)
            _ = try fixture.video()
            start = fixture.library.currentChangeToken.stringValue
            let made = try PeopleAccessMatrixTests.household(
                fixture, trip: [fixture.assets[0]], members: [("Ben", .viewer), ("Cy", .contributor)])
            try fixture.library.addPerson(named: "Dee", password: "dee's password")
            try fixture.library.addPerson(named: "Ed", password: "ed's password", isAdmin: true)
            try fixture.library.addPerson(named: "Zed", password: "zed's password")
            let ana = try fixture.library.library(forPerson: "Ana")
            // A change of her private photo, for the history to hold.
            try ana.performChangesAndWait {
                PHAssetChangeRequest(for: PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[1]], options: nil).firstObject!).isFavorite = true
            }
            var tokens: [Role: String] = [:]
            for (role, person) in [(Role.viewer, "Ben"), (.contributor, "Cy"), (.albumOwner, "Ana"), (.anotherPerson, "Dee"), (.admin, "Ed")] {
                tokens[role] = try fixture.library.createAccessToken(named: "\(person)'s", level: .readWrite, person: person).secret
            }
            let album = try #require(ana.withCurrent { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [made[1]], options: nil).firstObject })
            var links: [Role: String] = [:]
            links[.link] = try ana.createShareLink(to: album, title: "Trip link").secret
            links[.unlockedLink] = try ana.createShareLink(to: album, title: "Trip with password", password: "link password").secret
            links[.lockedLink] = links[.unlockedLink]
            links[.expiredLink] = try ana.createShareLink(to: album, title: "Old trip", expiration: Date(timeIntervalSinceNow: -1)).secret
            let revoked = try ana.createShareLink(to: album, title: "Revoked trip")
            try ana.revokeShareLink(withIdentifier: revoked.link.identifier)
            links[.revokedLink] = revoked.secret
            self.fixture = fixture
            self.ana = ana
            (privateAlbum, trip) = (made[0], made[1])
            self.tokens = tokens
            self.links = links
            sharedAsset = fixture.assets[0]
            privateAssets = Array(fixture.assets.dropFirst()) + [try fixture.video()]
        }

        /// The headers `role` calls with: a token, a link's cookie (and its unlock proof).
        func headers(_ role: Role, unlock: String?) -> HTTPFields {
            if let token = tokens[role] { return [.authorization: "Bearer \(token)"] }
            guard let secret = links[role] else { return [:] }
            return [.cookie: "photos_link=\(secret)" + (role == .unlockedLink ? "; \(unlock ?? "")" : "")]
        }

        /// What `role` must never see: Ana's private photos and album for everyone but her;
        /// for those the shared album doesn't reach, its photo and title too.
        func secrets(_ role: Role) -> [String] {
            switch role {
            case .albumOwner: []
            case .link, .unlockedLink, .viewer, .contributor: (privateAssets + [privateAlbum]).map(ServerFixture.uuid) + ["Private Album"]
            default: ([sharedAsset, trip, privateAlbum] + privateAssets).map(ServerFixture.uuid) + ["Private Album", "Trip Album"]
            }
        }
    }

    /// The operations outside the matrix: the WebSocket (``liveChangesReachTheRolesThatSeeThem()``).
    static let outside = ["GET /api/live"]

    @Test func everyRoleGetsTheDocumentedAnswerFromEveryOperation() async throws {
        let household = try Household()
        let fixture = household.fixture
        let operations = OpenAPITests.operations(try OpenAPITests.document()).map { "\($0.method) \($0.path)" }
        // On a socket: the cached-thumbnail path runs in the channel, before the router.
        let answers = try await fixture.withServer(live: true) { client in
            // Thumbnails made first (by Ana), so the other roles' calls meet the cached path.
            for asset in [household.sharedAsset] + household.privateAssets {
                let made = try await client.call(.get, "/api/assets/\(ServerFixture.uuid(asset))/image", token: household.tokens[.albumOwner])
                #expect(made.status == .ok)
            }
            // The password link's visitor unlocks it once.
            let unlocked = try await client.call(
                .post, "/api/links/unlock", token: nil, json: #"{"password":"link password"}"#,
                headers: household.headers(.lockedLink, unlock: nil))
            #expect(unlocked.status == .noContent)
            let proof = LinkRouteTests.cookies(unlocked).first { $0.hasPrefix("photos_link_unlock=") }
            // What each role's lists count, before anyone changes anything: the timeline is
            // the role's own photos (Ana's four; the link's one), the albums those it sees.
            for role in Role.allCases {
                let headers = household.headers(role, unlock: proof)
                let assets = try await client.execute(uri: "/api/assets", method: .get, headers: headers, body: nil)
                let albums = try await client.execute(uri: "/api/collections?type=album", method: .get, headers: headers, body: nil)
                let counts = [assets, albums].map { $0.status == .ok ? (try? $0.json()["count"] as? Int).flatMap { $0 } : Int($0.status.code) }
                #expect(counts == Self.counts[role], "\(role.rawValue) counts \(counts) (a 4xx is its status)")
            }
            var answers: [String: [Int]] = [:]
            var serial = 0
            for operation in operations where !Self.outside.contains(operation) {
                let (method, path) = (String(operation.split(separator: " ")[0]), String(operation.split(separator: " ")[1]))
                for target in Target.allCases {
                    var codes: [Int] = []
                    for role in Role.allCases {
                        serial += 1
                        let name = "p\(serial)"
                        var call = try DocumentedCall(
                            method, path, fixture: fixture, collection: target == .shared ? household.trip : household.privateAlbum,
                            uploadName: name + ".jpg", upload: nil,
                            asset: target == .shared ? household.sharedAsset : household.privateAssets[path.hasSuffix("/video") ? 2 : 0])
                        var uri = call.uri, body = call.body
                        var headers = household.headers(role, unlock: proof)
                        headers.append(contentsOf: call.headers)
                        // Files are asked for by range too: a range is no way around the check.
                        if path.hasSuffix("/original") || path.hasSuffix("/video") { headers[.range] = "bytes=0-99" }
                        // Calls that change people or links get their own subject each time.
                        if path == "/api/uploads/{id}" {
                            let upload = try await DocumentedCall.upload(by: household.tokens[role] ?? household.tokens[.albumOwner], client)
                            uri = "/api/uploads/\(upload ?? "none")"
                        }
                        if path == "/api/links/{id}" {
                            let mine = household.ana.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [call.assetIdentifier], options: nil).map { $0 } }
                            uri = "/api/links/" + (try household.ana.createShareLink(assets: mine, title: name).link.identifier)
                        }
                        if path == "/api/people/{person}" {
                            try fixture.library.addPerson(named: name, password: "throwaway password")
                            uri = "/api/people/\(name)"
                        }
                        if path.hasPrefix("/api/partners") {
                            uri = uri.replacingOccurrences(of: "/Ben", with: "/Zed")
                            if method == "POST" && path == "/api/partners" { body = ByteBuffer(string: #"{"person":"Zed"}"#) }
                        }
                        if path == "/api/changes" && method == "GET" {
                            uri += "?since=\(household.start)"
                        }
                        if path == "/api/session/password" {
                            body = ByteBuffer(string: #"{"currentPassword":"not the password","newPassword":"a new password"}"#)
                        }
                        call = DocumentedCall(method: call.method, uri: uri, body: body, headers: headers, assetIdentifier: call.assetIdentifier)
                        let response = try await client.execute(uri: call.uri, method: call.method, headers: call.headers, body: call.body)
                        let status = Int(response.status.code)
                        codes.append(status)
                        let text = String(buffer: response.body)
                        let sent = uri + (body.map { String(buffer: $0) } ?? "")
                        for secret in household.secrets(role) where !sent.contains(secret) {
                            #expect(!text.contains(secret), "\(method) \(path) (\(target)) by \(role.rawValue): \(status) leaks \(secret)")
                        }
                    }
                    answers["\(method) \(path) \(target)"] = codes
                }
            }
            return answers
        }
        let table = answers.keys.sorted().map { key in
            "\"\(key)\": \"\(answers[key]!.map { $0 >= 200 && $0 < 300 ? "2xx" : String($0) }.joined(separator: " "))\","
        }
        if ProcessInfo.processInfo.environment["PHOTOKIT_PRINT_MATRIX"] != nil { print(table.joined(separator: "\n")) }
        #expect(Set(answers.keys) == Set(Self.expected.keys), "operations without an expected row, or rows without an operation")
        for (key, codes) in answers {
            guard let row = Self.expected[key]?.split(separator: " ").map(String.init) else { continue }
            for (role, (code, wanted)) in zip(Role.allCases, zip(codes, row)) {
                let matches = wanted == "2xx" ? (200..<300).contains(code) : String(code) == wanted
                #expect(matches, "\(key) by \(role.rawValue): \(code), expected \(wanted)")
            }
        }
    }
}

extension RoleMatrixTests {
    /// The WebSocket column of the matrix: every role that can connect subscribes to its
    /// timeline, to Ana's shared album and to its albums; Ana changes a private photo, then the
    /// shared one; Dee and Ed each make an album (the event their sockets wait for). The
    /// shared photo's change reaches Ana, the album's members and the links' visitors; no
    /// socket but Ana's gets a word of her private photo, and Dee's and Ed's nothing of hers.
    @Test(.timeLimit(.minutes(2 * TestTimeScale.factor))) func liveChangesReachTheRolesThatSeeThem() async throws {
        let household = try Household()
        let fixture = household.fixture
        let roles: [Role] = [.link, .unlockedLink, .viewer, .contributor, .albumOwner, .anotherPerson, .admin]
        let logs = roles.map { _ in MessageLog() }
        let (arrived, ready) = AsyncStream<Void>.makeStream()
        let shared = ServerFixture.uuid(household.sharedAsset), trip = ServerFixture.uuid(household.trip)
        let secondPrivate = fixture.assets[2]
        /// What each socket waits for: the shared photo's change, or its own person's album.
        @Sendable func done(_ role: Role, _ messages: [[String: Any]]) -> Bool {
            switch role {
            case .anotherPerson, .admin:
                return messages.contains { $0["type"] as? String == "collectionsChanged" }
            case .viewer, .contributor, .albumOwner, .link, .unlockedLink:
                let wanted = role == .viewer || role == .contributor ? "trip" : "grid"
                return messages.contains { message in
                    message["type"] as? String == "changes" && message["subscription"] as? String == wanted
                        && ((try? JSONSerialization.data(withJSONObject: message)).map { String(decoding: $0, as: UTF8.self).contains(shared) } ?? false)
                }
            default:
                return true
            }
        }
        let application = try buildApplication(library: fixture.library, configuration: ServerConfiguration(port: 0))
        try await application.test(.live) { client in
            let unlocked = try await client.call(
                .post, "/api/links/unlock", token: nil, json: #"{"password":"link password"}"#, headers: household.headers(.lockedLink, unlock: nil))
            let proof = LinkRouteTests.cookies(unlocked).first { $0.hasPrefix("photos_link_unlock=") }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (index, role) in roles.enumerated() {
                    let headers = household.headers(role, unlock: proof)
                    group.addTask {
                        _ = try await client.ws("/api/live", configuration: .init(additionalHeaders: headers)) { inbound, outbound, _ in
                            try await outbound.write(.text(#"{"type":"subscribe","subscription":"grid"}"#))
                            try await outbound.write(.text(#"{"type":"subscribe","subscription":"trip","collection":"\#(trip)"}"#))
                            try await outbound.write(.text(#"{"type":"subscribe","subscription":"albums","collections":"album"}"#))
                            var answered = 0
                            for try await message in inbound.messages(maxSize: 1 << 20) {
                                guard case .text(let text) = message else { continue }
                                logs[index].append(text)
                                if text.contains(#""type":"subscribed""#) || text.contains(#""type":"error""#) {
                                    answered += 1
                                    if answered == 3 { ready.yield() }
                                }
                                if done(role, logs[index].messages) { break }
                            }
                            try await outbound.close(.normalClosure, reason: nil)
                        }
                    }
                }
                group.addTask {
                    var count = 0
                    for await _ in arrived {
                        count += 1
                        if count == roles.count { break }
                    }
                    try await household.ana.performChanges {
                        PHAssetChangeRequest(for: PHAsset.fetchAssets(withLocalIdentifiers: [secondPrivate], options: nil).firstObject!).isFavorite = true
                    }
                    try await household.ana.performChanges {
                        PHAssetChangeRequest(for: PHAsset.fetchAssets(withLocalIdentifiers: [household.sharedAsset], options: nil).firstObject!).isFavorite = true
                    }
                    for person in ["Dee", "Ed"] {
                        try await fixture.library.library(forPerson: person).performChanges {
                            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "\(person)'s album")
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        for (index, role) in roles.enumerated() {
            let text = logs[index].messages.compactMap { (try? JSONSerialization.data(withJSONObject: $0)).map { String(decoding: $0, as: UTF8.self) } }
                .joined(separator: "\n")
            #expect(done(role, logs[index].messages), "\(role.rawValue) never got what it waited for: \(text.prefix(600))")
            // Every role sent the shared album's identifier; nothing else of Ana's comes back.
            for secret in household.secrets(role) where secret != trip {
                #expect(!text.contains(secret), "\(role.rawValue)'s socket got \(secret): \(text.prefix(600))")
            }
            // Ana's own socket got her private photo's change: the messages name what changed.
            #expect(text.contains(ServerFixture.uuid(secondPrivate)) == (role == .albumOwner), "\(role.rawValue) and Ana's private photo")
        }
    }
}
