import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Photos
import PhotosTestSupport
import Testing

/// Public links: opened at `/s/{secret}`, a password given at `/api/links/unlock`; the visitor
/// sees the link's photos and nothing else, read-only; revoked or expired, nothing.
@Suite("Server public links")
struct LinkRouteTests {
    static func cookies(_ response: TestResponse) -> [String] {
        response.headers[values: .setCookie].compactMap { $0.split(separator: ";").first.map(String.init) }
    }

    @Test func aLinkShowsItsAlbumAndNothingElseUntilItIsRevoked() async throws {
        let fixture = try PeopleSignInTests.fixture()
        let ana = try fixture.library.library(forPerson: "Ana")
        var made = ""
        try ana.performChangesAndWait {
            let trip = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
            trip.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[0]], options: nil))
            made = ServerFixture.uuid(trip.placeholderForCreatedAssetCollection.localIdentifier)
        }
        let tripID = made
        let inTrip = ServerFixture.uuid(fixture.assets[0]), other = ServerFixture.uuid(fixture.assets[1])
        try await fixture.withServer { client in
            let made = try await client.call(
                .post, "/api/links", token: fixture.readWrite, json: #"{"album":"\#(tripID)","password":"link password"}"#)
            #expect(made.status == .created, "\((try? made.reason()) ?? "")")
            let body = try made.json()
            let secret = try #require(body["secret"] as? String)
            let identifier = try #require((body["link"] as? [String: Any])?["identifier"] as? String)
            #expect(body["url"] as? String == "/s/\(secret)")
            #expect(try fixture.library.shareLinks().isEmpty, "the whole library's (no person's) links are not Ana's")
            #expect(try ana.shareLinks().map(\.title) == ["Trip"])

            let opened = try await client.call(.get, "/s/\(secret)", token: nil)
            #expect(opened.status == .seeOther && opened.headers[.location] == "/")
            let link = try #require(Self.cookies(opened).first { $0.hasPrefix("photos_link=") })
            #expect(try await client.call(.get, "/api/assets", token: nil, headers: [.cookie: link]).status == .unauthorized)
            #expect(try await client.call(.post, "/api/links/unlock", token: nil, json: #"{"password":"wrong one"}"#, headers: [.cookie: link]).status == .unauthorized)
            let unlocked = try await client.call(.post, "/api/links/unlock", token: nil, json: #"{"password":"link password"}"#, headers: [.cookie: link])
            #expect(unlocked.status == .noContent)
            let proof = try #require(Self.cookies(unlocked).first { $0.hasPrefix("photos_link_unlock=") })
            let visitor: HTTPFields = [.cookie: "\(link); \(proof)"]

            let page = try await client.call(.get, "/api/assets", token: nil, headers: visitor).json()
            #expect((page["assets"] as? [[String: Any]])?.compactMap { ($0["id"] as? String).map(ServerFixture.uuid) } == [inTrip])
            #expect(try await client.call(.get, "/api/assets/\(other)", token: nil, headers: visitor).status == .notFound)
            #expect(try await client.call(.get, "/api/assets/\(other)/image?width=64&height=64", token: nil, headers: visitor).status == .notFound)
            #expect(try await client.call(.get, "/api/assets/\(inTrip)/image?width=64&height=64", token: nil, headers: visitor).status == .ok)
            #expect(try await client.call(.get, "/api/assets/\(inTrip)/original", token: nil, headers: visitor).status == .forbidden)
            #expect(try await client.call(.get, "/api/collections?type=album", token: nil, headers: visitor).json()["count"] as? Int == 0)
            #expect(try await client.call(.get, "/api/assets?collection=\(tripID)", token: nil, headers: visitor).status == .forbidden)
            let favorite = #"{"operations":[{"op":"favorite","assets":["\#(inTrip)"],"value":true}]}"#
            #expect(try await client.call(.post, "/api/changes", token: nil, json: favorite, headers: visitor).status == .forbidden)
            #expect(try await client.call(.post, "/api/uploads?filename=x.jpg", token: nil, body: ByteBuffer(bytes: try TestImages.jpeg()), headers: visitor).status == .forbidden)
            #expect(try await client.call(.get, "/api/tokens", token: nil, headers: visitor).status == .forbidden)
            // The link follows its album at once (its grant is kept between requests, but not
            // past a change): a photo added shows, and is gone again when removed.
            for (op, count) in [("addToAlbum", 2), ("removeFromAlbum", 1)] {
                let edit = #"{"operations":[{"op":"\#(op)","album":"\#(tripID)","assets":["\#(other)"]}]}"#
                #expect(try await client.call(.post, "/api/changes", token: fixture.readWrite, json: edit).status == .ok)
                #expect(try await client.call(.get, "/api/assets", token: nil, headers: visitor).json()["count"] as? Int == count, "\(op)")
                let image = try await client.call(.get, "/api/assets/\(other)/image?width=64&height=64", token: nil, headers: visitor)
                #expect(image.status == (count == 2 ? .ok : .notFound), "\(op)")
            }
            let session = try await client.call(.get, "/api/session", token: nil, headers: visitor).json()
            #expect((session["link"] as? [String: Any])?["title"] as? String == "Trip" && session["person"] == nil)

            // Revoked: at once, the page and the API.
            #expect(try await client.call(.delete, "/api/links/\(identifier)", token: fixture.readWrite).status == .noContent)
            #expect(try await client.call(.get, "/api/assets", token: nil, headers: visitor).status == .unauthorized)
            #expect(try await client.call(.get, "/s/\(secret)", token: nil).status == .notFound)
        }
    }

    @Test func expiredLinksOpenNothingAndDownloadsFollowTheLink() async throws {
        let fixture = try PeopleSignInTests.fixture()
        let ana = try fixture.library.library(forPerson: "Ana")
        let assets = ana.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[1]], options: nil).map { $0 } }
        let (_, expired) = try ana.createShareLink(assets: assets, title: "Old", expiration: Date(timeIntervalSinceNow: -1))
        let (_, open) = try ana.createShareLink(assets: assets, title: "Keep", allowsDownload: true)
        try await fixture.withServer { client in
            #expect(try await client.call(.get, "/s/\(expired)", token: nil).status == .notFound)
            #expect(try await client.call(.get, "/s/pl_guessed", token: nil).status == .notFound)
            let opened = try await client.call(.get, "/s/\(open)", token: nil)
            let link = try #require(Self.cookies(opened).first { $0.hasPrefix("photos_link=") })
            let id = ServerFixture.uuid(fixture.assets[1])
            #expect(try await client.call(.get, "/api/assets/\(id)/original", token: nil, headers: [.cookie: link]).status == .ok)
            // An expired link's cookie opens nothing either.
            #expect(try await client.call(.get, "/api/assets", token: nil, headers: [.cookie: "photos_link=\(expired)"]).status == .unauthorized)
        }
    }
}
