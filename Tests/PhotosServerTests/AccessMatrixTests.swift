import Foundation
import Hummingbird
import HummingbirdTesting
import Photos
import PhotosTestSupport
import Testing

@testable import PhotosServer

/// Every documented operation, called by every kind of client: none (401), and each token
/// level, which gets through exactly when the document's `x-access-levels` lists it (403
/// otherwise; 404 for a limited token asking for a collection, which it can't see).
@Suite("Server access matrix")
struct AccessMatrixTests {
    enum Caller: String, CaseIterable {
        case nobody, readWrite = "read-write", addOnly = "add-only", limited
    }

    /// Operations outside the token check: signing in and out, the document itself, and the
    /// WebSocket (checked in ``ConnectionTests/refusedWebSocketUpgradesSayWhy()``).
    static let public_ = [
        "POST /api/session", "DELETE /api/session", "GET /openapi.json", "GET /api/openapi.json", "GET /api/live", "POST /api/links/unlock",
        "GET /healthz",
    ]

    @Test func everyOperationAnswersEachCallerAsDocumented() async throws {
        let fixture = try ServerFixture(photos: 2)
        // The video the video routes are called with, on the limited token's list before the
        // server starts (a running server learns of allow-list edits asynchronously).
        _ = try fixture.video()
        let collection = try #require(
            fixture.library.withCurrent {
                PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumUserLibrary, options: nil).firstObject?
                    .localIdentifier
            })
        let checked = try await fixture.withServer { client in
            var checked = 0
            for (method, path, operation) in try OpenAPITests.operations(OpenAPITests.document()) where !Self.public_.contains("\(method) \(path)") {
                let allowed = Set(operation["x-access-levels"] as? [String] ?? [])
                #expect(!allowed.isEmpty, "\(method) \(path) has no x-access-levels")
                for caller in Caller.allCases {
                    // The fixture's first asset is on the limited token's allow-list.
                    let key = "\(method) \(path)"
                    let token: String? =
                        switch caller {
                        case .nobody: nil
                        case .readWrite: fixture.readWrite
                        case .addOnly: fixture.addOnly
                        case .limited: fixture.limited
                        }
                    // An upload's status is asked for by whoever uploaded it.
                    let upload = path == "/api/uploads/{id}" ? try await DocumentedCall.upload(by: token, client) : nil
                    let call = try DocumentedCall(
                        method, path, fixture: fixture, collection: collection, uploadName: "matrix-\(caller.rawValue).jpg", upload: upload)
                    let response = try await client.call(call.method, call.uri, token: token, body: call.body, headers: call.headers)
                    let status = response.status.code
                    let reason = status >= 400 ? (try? response.reason()) ?? "" : ""
                    let what = "\(key) by \(caller.rawValue): \(status) \(reason)"
                    switch caller {
                    case .nobody:
                        #expect(status == 401, "\(what)")
                    case _ where allowed.contains(caller.rawValue):
                        #expect(status < 400, "\(what)")
                    case .limited where path.hasPrefix("/api/collections/"):
                        #expect(status == 404, "\(what)")
                    default:
                        #expect(status == 403, "\(what)")
                    }
                    checked += 1
                }
            }
            return checked
        }
        #expect(checked >= 15 * Caller.allCases.count, "\(checked) calls")
    }
}

/// Every documented operation called by another person of the library (Cy, who is neither the
/// owner of the photos and albums named nor a member of the album shared with Ben), with Ana's
/// identifiers in every path: no answer is a success for her objects, and no answer holds her
/// assets' identifiers or her albums' titles (list counts and bodies included).
@Suite("Server access matrix, people")
struct PeopleAccessMatrixTests {
    /// Ana (the owner of the fixture's photos), Ben and Cy; Ana's "Private Album" of all her
    /// photos and her shared "Trip Album" of `trip`, shared with `members`. Returns the two
    /// albums' local identifiers.
    static func household(
        _ fixture: ServerFixture, trip: [String], members: [(String, PHSharedAlbumRole)]
    ) throws -> [String] {
        try fixture.library.addPerson(named: "Ana", password: "correct horse")
        try fixture.library.addPerson(named: "Ben", password: "battery staple")
        try fixture.library.addPerson(named: "Cy", password: "cy's password")
        let ana = try fixture.library.library(forPerson: "Ana")
        var made: [String] = []
        try ana.performChangesAndWait {
            let mine = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Private Album")
            mine.addAssets(PHAsset.fetchAssets(with: nil))
            let shared = PHAssetCollectionChangeRequest.creationRequestForSharedAlbum(withTitle: "Trip Album")
            shared.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: trip, options: nil))
            for (person, role) in members { shared.addMember(person, role: role) }
            made = [mine.placeholderForCreatedAssetCollection.localIdentifier, shared.placeholderForCreatedAssetCollection.localIdentifier]
        }
        return made
    }

    @Test func anotherPersonReachesNothingOfAnyonesThroughAnyRoute() async throws {
        let fixture = try ServerFixture(photos: 2)
        _ = try fixture.video()
        let albums = try Self.household(fixture, trip: fixture.assets, members: [("Ben", .viewer)])
        let (_, cy) = try fixture.library.createAccessToken(named: "cy's", level: .readWrite, person: "Cy")
        let ana = try fixture.library.library(forPerson: "Ana")
        let anasAssets = ana.withCurrent { PHAsset.fetchAssets(with: nil).map { ServerFixture.uuid($0.localIdentifier) } }
        #expect(anasAssets.count >= 3)
        let secrets = anasAssets + ["Private Album", "Trip Album"]
        let checked = try await fixture.withServer { client in
            var checked = 0
            for (method, path, _) in try OpenAPITests.operations(OpenAPITests.document())
            where !AccessMatrixTests.public_.contains("\(method) \(path)") {
                for album in albums {
                    let upload = path == "/api/uploads/{id}" ? try await DocumentedCall.upload(by: fixture.readWrite, client) : nil
                    let call = try DocumentedCall(method, path, fixture: fixture, collection: album, uploadName: "cy.jpg", upload: upload)
                    let response = try await client.call(call.method, call.uri, token: cy, body: call.body, headers: call.headers)
                    let body = String(buffer: response.body)
                    let what = "\(method) \(path) (\(ServerFixture.uuid(album))) by another person: \(response.status.code)"
                    // What the caller sent may come back (a 404 names the asset asked for); nothing else.
                    let sent = call.uri + (call.body.map { String(buffer: $0) } ?? "")
                    for secret in secrets where !sent.contains(secret) { #expect(!body.contains(secret), "\(what) leaks \(secret)") }
                    // A route naming one of Ana's objects never succeeds for Cy.
                    let namesHers = path.contains("{id}") || path.contains("{token}")
                    if namesHers && path != "/api/uploads/{id}" {
                        #expect(response.status.code >= 400, "\(what)")
                    }
                    checked += 1
                }
            }
            return checked
        }
        #expect(checked >= 40, "\(checked) calls")
    }
}

/// The members of a shared album, called through every documented operation: a viewer and a
/// contributor of Ana's shared album "Trip" (which holds her first photo only) reach no other
/// photo of hers and never her private album, and neither may change the album or her photo.
@Suite("Server access matrix, shared-album members")
struct MemberAccessMatrixTests {
    @Test func membersReachTheSharedAlbumAndNothingElseOfTheOwners() async throws {
        let fixture = try ServerFixture(photos: 3)
        let made = try PeopleAccessMatrixTests.household(fixture, trip: [fixture.assets[0]], members: [("Ben", .viewer), ("Cy", .contributor)])
        let (privateAlbum, trip) = (made[0], made[1])
        let (_, ben) = try fixture.library.createAccessToken(named: "ben's", level: .readWrite, person: "Ben")
        let (_, cy) = try fixture.library.createAccessToken(named: "cy's", level: .readWrite, person: "Cy")
        let hidden = fixture.assets.dropFirst().map(ServerFixture.uuid) + ["Private Album"]
        let shown = ServerFixture.uuid(fixture.assets[0])
        let checked = try await fixture.withServer { client in
            var checked = 0
            for (method, path, _) in try OpenAPITests.operations(OpenAPITests.document())
            where !AccessMatrixTests.public_.contains("\(method) \(path)") {
                for (member, token) in [("viewer", ben), ("contributor", cy)] {
                    for album in [privateAlbum, trip] {
                        let upload = path == "/api/uploads/{id}" ? try await DocumentedCall.upload(by: fixture.readWrite, client) : nil
                        let call = try DocumentedCall(method, path, fixture: fixture, collection: album, uploadName: "m.jpg", upload: upload)
                        let response = try await client.call(call.method, call.uri, token: token, body: call.body, headers: call.headers)
                        let body = String(buffer: response.body)
                        let sent = call.uri + (call.body.map { String(buffer: $0) } ?? "")
                        let what = "\(method) \(path) (\(album == trip ? "Trip" : "private")) by a \(member): \(response.status.code)"
                        for secret in hidden where !sent.contains(secret) { #expect(!body.contains(secret), "\(what) leaks \(secret)") }
                        // Changes to Ana's album or photo fail; reading the shared album works.
                        // (A member's token may list what the member sees: not a change of Ana's.)
                        if method != "GET" && method != "HEAD" && !path.hasPrefix("/api/tokens")
                            && (sent.contains(shown) || sent.contains(ServerFixture.uuid(album)))
                        {
                            #expect(response.status.code >= 400, "\(what)")
                        }
                        if album == privateAlbum && path.hasPrefix("/api/collections/{id}") {
                            #expect(response.status.code == 404, "\(what)")
                        }
                        if album == trip && method == "GET" && path == "/api/collections/{id}" {
                            #expect(response.status.code == 200, "\(what)")
                        }
                        checked += 1
                    }
                }
            }
            return checked
        }
        #expect(checked >= 80, "\(checked) calls")
    }
}
