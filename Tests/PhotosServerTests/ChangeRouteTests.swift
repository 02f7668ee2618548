import Foundation
import Hummingbird
import Imaging
import HummingbirdTesting
import Photos
import PhotosServer
import PhotosTestSupport
import Testing

/// `POST /api/changes` (one `performChanges` per request) and `GET /api/changes` (history).
@Suite("Server change routes")
struct ChangeRouteTests {
    @Test func favoriteHideDeleteRecoverPersistInTheLibrary() async throws {
        let fixture = try ServerFixture(photos: 3)
        let ids = fixture.assets.map(ServerFixture.uuid)
        try await fixture.withServer { client in
            let response = try await client.call(
                .post, "/api/changes", token: fixture.readWrite,
                json: #"{"operations":[{"op":"favorite","assets":["\#(ids[0])"],"value":true},{"op":"hide","assets":["\#(ids[1])"],"value":true},{"op":"delete","assets":["\#(ids[2])"]}]}"#)
            #expect(response.status == .ok)
            #expect((try response.json()["changeToken"] as? String)?.contains(":") == true)
            #expect(fixture.asset(fixture.assets[0])?.isFavorite == true)
            #expect(fixture.asset(fixture.assets[1])?.isHidden == true)
            #expect(fixture.asset(fixture.assets[2]) == nil)
            let deleted = try await client.call(.get, "/api/assets?deleted=true", token: fixture.readWrite).json()
            #expect(AssetRouteTests.ids(deleted) == [ids[2]])
            let recover = try await client.call(.post, "/api/changes", token: fixture.readWrite, json: #"{"operations":[{"op":"recover","assets":["\#(ids[2])"]}]}"#)
            #expect(recover.status == .ok)
            #expect(fixture.asset(fixture.assets[2]) != nil)
        }
    }

    @Test func aRequestIsAtomic() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = ServerFixture.uuid(fixture.assets[0])
        try await fixture.withServer { client in
            let response = try await client.call(
                .post, "/api/changes", token: fixture.readWrite,
                json: #"{"operations":[{"op":"favorite","assets":["\#(id)"],"value":true},{"op":"hide","assets":["\#(UUID().uuidString)"],"value":true}]}"#)
            #expect(response.status == .notFound)
            #expect(fixture.asset(fixture.assets[0])?.isFavorite == false, "nothing of a failed request is applied")
            let malformed: [(String, String)] = [
                ("{", "Invalid JSON"), (#"{"operations":[]}"#, "empty"), (#"{"operations":[{"op":"paint"}]}"#, "Invalid JSON"),
                (#"{"operations":[{"op":"favorite","assets":["\#(id)"]}]}"#, "'value'"), (#"{"operations":[{"op":"favorite","value":true}]}"#, "'assets'"),
                (#"{"operations":[{"op":"edit","asset":"\#(id)","rotate":45}]}"#, "multiple of 90"),
                (#"{"operations":[{"op":"createAlbum","title":"  "}]}"#, "empty"),
                (#"{"operations":[{"op":"favorite","assets":["../../x"],"value":true}]}"#, "asset identifier"),
            ]
            for (body, mention) in malformed {
                let response = try await client.call(.post, "/api/changes", token: fixture.readWrite, json: body)
                let reason = try response.reason()
                #expect(response.status == .badRequest, "\(body)")
                #expect(reason.contains(mention), "\(body): \(reason)")
            }
        }
    }

    @Test func albumsAreCreatedFilledRenamedReorderedAndDeleted() async throws {
        let fixture = try ServerFixture(photos: 3)
        let ids = fixture.assets.map(ServerFixture.uuid)
        try await fixture.withServer { client in
            let album = try await Self.createAlbum("Trip", holding: ids, client, fixture)
            #expect(try await Self.albumOrder(client, fixture, album) == [ids[0], ids[1], ids[2]])
            let reorder = try await client.call(
                .post, "/api/changes", token: fixture.readWrite,
                json: #"{"operations":[{"op":"reorderAlbum","album":"\#(album)","from":[2],"to":0},{"op":"renameAlbum","album":"\#(album)","title":"Road trip"},{"op":"removeFromAlbum","album":"\#(album)","assets":["\#(ids[1])"]}]}"#)
            #expect(reorder.status == .ok)
            #expect(try await Self.albumOrder(client, fixture, album) == [ids[2], ids[0]])
            let albums = try await client.call(.get, "/api/collections?type=album", token: fixture.readWrite).json()
            #expect((albums["collections"] as? [[String: Any]])?.first?["title"] as? String == "Road trip")
            let badMove = try await client.call(
                .post, "/api/changes", token: fixture.readWrite, json: #"{"operations":[{"op":"reorderAlbum","album":"\#(album)","from":[7],"to":0}]}"#)
            #expect(badMove.status == .badRequest)
            let delete = try await client.call(.post, "/api/changes", token: fixture.readWrite, json: #"{"operations":[{"op":"deleteAlbum","album":"\#(album)"}]}"#)
            #expect(delete.status == .ok)
            #expect(try await client.call(.get, "/api/collections?type=album", token: fixture.readWrite).json()["count"] as? Int == 0)
        }
    }

    @Test func editsRotateCropAndRevert() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = ServerFixture.uuid(fixture.assets[0])
        try await fixture.withServer { client in
            let rotate = try await client.call(.post, "/api/changes", token: fixture.readWrite, json: #"{"operations":[{"op":"edit","asset":"\#(id)","rotate":90}]}"#)
            #expect(rotate.status == .ok)
            var asset = try #require(fixture.asset(fixture.assets[0]))
            #expect(asset.hasAdjustments && asset.pixelWidth == 240 && asset.pixelHeight == 320)
            let crop = try await client.call(
                .post, "/api/changes", token: fixture.readWrite,
                json: #"{"operations":[{"op":"edit","asset":"\#(id)","crop":{"x":0,"y":0,"width":0.5,"height":0.5}}]}"#)
            #expect(crop.status == .ok)
            asset = try #require(fixture.asset(fixture.assets[0]))
            #expect(asset.pixelWidth == 120 && asset.pixelHeight == 160, "the crop applies to the rotated photo, the turn is kept")
            let image = try await client.call(.get, "/api/assets/\(id)/image?w=1000&h=1000", token: fixture.readWrite)
            #expect(image.status == .ok)
            let revert = try await client.call(.post, "/api/changes", token: fixture.readWrite, json: #"{"operations":[{"op":"revert","asset":"\#(id)"}]}"#)
            #expect(revert.status == .ok)
            asset = try #require(fixture.asset(fixture.assets[0]))
            #expect(!asset.hasAdjustments && asset.pixelWidth == 320)
        }
    }

    @Test func historyListsChangesSinceAToken() async throws {
        let fixture = try ServerFixture(photos: 2)
        let ids = fixture.assets.map(ServerFixture.uuid)
        try await fixture.withServer { client in
            let start = try #require(try await client.call(.get, "/api/changes", token: fixture.readWrite).json()["currentToken"] as? String)
            _ = try await client.call(.post, "/api/changes", token: fixture.readWrite, json: #"{"operations":[{"op":"favorite","assets":["\#(ids[1])"],"value":true}]}"#)
            let history = try await client.call(.get, "/api/changes?since=\(start)", token: fixture.readWrite).json()
            let changes = try #require(history["changes"] as? [[String: Any]])
            #expect(changes.count == 1)
            #expect(((changes[0]["assets"] as? [String: Any])?["updated"] as? [String]) == [fixture.assets[1]])
            #expect(history["currentToken"] as? String != start)
            #expect(try await client.call(.get, "/api/changes?since=garbage", token: fixture.readWrite).status == .badRequest)
            #expect(try await client.call(.get, "/api/changes?since=\(start)", token: fixture.limited).status == .forbidden)
        }
    }

    /// Album operations in one request apply in order, each on the album the ones before left
    /// (as successive edits of one PhotoKit change request): three moves reverse it, and an
    /// index past the album's first size is fine after an add.
    @Test func albumOperationsOfOneRequestFollowEachOther() async throws {
        let fixture = try ServerFixture(photos: 4)
        let ids = fixture.assets.map(ServerFixture.uuid)
        try await fixture.withServer { client in
            let album = try await Self.createAlbum("Order", holding: Array(ids.prefix(3)), client, fixture)
            let reverse = (0..<2).map { #"{"op":"reorderAlbum","album":"\#(album)","from":[2],"to":\#($0)}"# }.joined(separator: ",")
            #expect(try await client.call(.post, "/api/changes", token: fixture.readWrite, json: #"{"operations":[\#(reverse)]}"#).status == .ok)
            #expect(try await Self.albumOrder(client, fixture, album) == [ids[2], ids[1], ids[0]])
            let addThenMove = #"""
                {"operations":[{"op":"addToAlbum","album":"\#(album)","assets":["\#(ids[3])"]},
                {"op":"reorderAlbum","album":"\#(album)","from":[3],"to":0},
                {"op":"removeFromAlbum","album":"\#(album)","assets":["\#(ids[1])"]},
                {"op":"reorderAlbum","album":"\#(album)","from":[2],"to":1}]}
                """#
            let response = try await client.call(.post, "/api/changes", token: fixture.readWrite, json: addThenMove)
            let reason = response.status == .ok ? "" : try response.reason()
            #expect(response.status == .ok, "\(reason)")
            #expect(try await Self.albumOrder(client, fixture, album) == [ids[3], ids[0], ids[2]])
            let pastTheEnd = try await client.call(
                .post, "/api/changes", token: fixture.readWrite,
                json: #"{"operations":[{"op":"removeFromAlbum","album":"\#(album)","assets":["\#(ids[3])"]},{"op":"reorderAlbum","album":"\#(album)","from":[2],"to":0}]}"#)
            #expect(pastTheEnd.status == .badRequest, "index 2 is past the end once one of three is removed")
            #expect(try await Self.albumOrder(client, fixture, album) == [ids[3], ids[0], ids[2]], "nothing applied")
        }
    }

    /// History in pages (`limit`), each page's `currentToken` the start of the next; a token of
    /// another library is expired (410); malformed and oversized bodies say what was wrong.
    @Test func historyPagesAndRefusals() async throws {
        let fixture = try ServerFixture(photos: 2)
        let ids = fixture.assets.map(ServerFixture.uuid)
        let other = try TemporaryLibrary()
        try await fixture.withServer { client in
            let start = try #require(try await client.call(.get, "/api/changes", token: fixture.readWrite).json()["currentToken"] as? String)
            for id in ids {
                let favorite = #"{"operations":[{"op":"favorite","assets":["\#(id)"],"value":true}]}"#
                #expect(try await client.call(.post, "/api/changes", token: fixture.readWrite, json: favorite).status == .ok)
            }
            let first = try await client.call(.get, "/api/changes?since=\(start)&limit=1", token: fixture.readWrite).json()
            #expect((first["changes"] as? [[String: Any]])?.count == 1)
            let next = try #require(first["currentToken"] as? String)
            let second = try await client.call(.get, "/api/changes?since=\(next)&limit=1", token: fixture.readWrite).json()
            let updated = ((second["changes"] as? [[String: Any]])?.first?["assets"] as? [String: Any])?["updated"] as? [String]
            #expect(updated == [fixture.assets[1]], "the second page starts after the first")
            let last = try #require(second["currentToken"] as? String)
            #expect((try await client.call(.get, "/api/changes?since=\(last)", token: fixture.readWrite).json()["changes"] as? [Any])?.isEmpty == true)

            let foreign = try await client.call(.get, "/api/changes?since=\(other.library.currentChangeToken.stringValue)", token: fixture.readWrite)
            #expect(foreign.status == .gone, "\(foreign.status)")
            #expect(try await client.call(.get, "/api/changes?since=\(start)&limit=0", token: fixture.readWrite).status == .badRequest)
            #expect(try await client.call(.get, "/api/changes?limit=10001", token: fixture.readWrite).status == .badRequest)

            let malformed = try await client.call(.post, "/api/changes", token: fixture.readWrite, json: #"{"operations":[{"op":"favorite"#)
            let malformedReason = try malformed.reason()
            #expect(malformed.status == .badRequest && malformedReason.contains("JSON"), "\(malformedReason)")
            let signIn = try await client.call(.post, "/api/session", token: nil, json: #"{"token": 42}"#)
            #expect(signIn.status == .badRequest, "\(signIn.status)")
            let huge = #"{"operations":[],"padding":""# + String(repeating: "x", count: 1 << 20) + #""}"#
            let tooLarge = try await client.call(.post, "/api/changes", token: fixture.readWrite, json: huge)
            #expect(tooLarge.status == .contentTooLarge)
        }
    }

    /// Exposure, saturation and the built-in filters change the pixels the image route serves.
    @Test func editsAdjustExposureSaturationAndFilters() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = ServerFixture.uuid(fixture.assets[0])
        try await fixture.withServer { client in
            func centre() async throws -> [Double] {
                let image = try await client.call(.get, "/api/assets/\(id)/image?w=64&h=64&mode=fill&format=jpeg", token: fixture.readWrite)
                #expect(image.status == .ok)
                return try VipsImage(data: Data(image.body.readableBytesView)).pixel(x: 32, y: 32)
            }
            func edit(_ fields: String) async throws {
                let response = try await client.call(
                    .post, "/api/changes", token: fixture.readWrite, json: #"{"operations":[{"op":"edit","asset":"\#(id)",\#(fields)}]}"#)
                #expect(response.status == .ok, "\(fields): \(response.status)")
            }
            let original = try await centre()
            #expect(original.count >= 3 && Set(original.prefix(3).map { Int($0) }).count > 1, "the fixture is coloured: \(original)")
            try await edit(#""filter":"mono""#)
            let mono = try await centre()
            #expect(abs(mono[0] - mono[1]) <= 2 && abs(mono[1] - mono[2]) <= 2, "mono is grey: \(mono)")
            try await edit(#""exposure":1"#)
            let brighter = try await centre()
            #expect(brighter[0] + brighter[1] + brighter[2] > mono[0] + mono[1] + mono[2] + 30, "\(mono) → \(brighter)")
            let sat = try await client.call(
                .post, "/api/changes", token: fixture.readWrite, json: #"{"operations":[{"op":"edit","asset":"\#(id)","saturation":9}]}"#)
            let satReason = try sat.reason()
            #expect(sat.status == .badRequest && satReason.contains("saturation"), "\(satReason)")
        }
    }

    /// Creates an album holding `assets` in one request (a `ref` names it for the add) and
    /// returns its local identifier.
    static func createAlbum(_ title: String, holding assets: [String], _ client: some TestClientProtocol, _ fixture: ServerFixture)
        async throws -> String
    {
        let list = assets.map { "\"\($0)\"" }.joined(separator: ",")
        let created = try await client.call(
            .post, "/api/changes", token: fixture.readWrite,
            json: #"{"operations":[{"op":"createAlbum","title":"\#(title)","ref":"r"},{"op":"addToAlbum","album":"r","assets":[\#(list)]}]}"#
        ).json()
        return try #require((created["created"] as? [String: String])?["r"])
    }

    static func albumOrder(_ client: some TestClientProtocol, _ fixture: ServerFixture, _ album: String) async throws -> [String] {
        AssetRouteTests.ids(try await client.call(.get, "/api/assets?collection=\(ServerFixture.uuid(album))", token: fixture.readWrite).json())
    }
}
