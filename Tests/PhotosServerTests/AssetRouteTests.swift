import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Photos
import PhotosServer
import PhotosTestSupport
import PhotosLocking
import Testing

/// `GET /api/assets`, `/api/assets/{id}`, `/api/assets/{id}/original`, `/api/collections`.
@Suite("Server asset and collection routes")
struct AssetRouteTests {
    @Test func pagesFollowTheLibrarysPredicateAndSortGrammar() async throws {
        let fixture = try ServerFixture(photos: 5)
        try fixture.library.performChangesAndWait {
            PHAssetChangeRequest(for: fixture.asset(fixture.assets[1])!).isFavorite = true
            PHAssetChangeRequest(for: fixture.asset(fixture.assets[3])!).isFavorite = true
        }
        let ids = fixture.assets.map(ServerFixture.uuid)
        try await fixture.withServer { client in
            let first = try await client.call(.get, "/api/assets?limit=2", token: fixture.readWrite).json()
            #expect(first["count"] as? Int == 5)
            #expect(Self.ids(first) == [ids[4], ids[3]], "newest first by default")
            let second = try await client.call(.get, "/api/assets?limit=2&offset=4", token: fixture.readWrite).json()
            #expect(Self.ids(second) == [ids[0]])
            let past = try await client.call(.get, "/api/assets?offset=50", token: fixture.readWrite).json()
            #expect(Self.ids(past) == [] && past["count"] as? Int == 5)
            let favorites = try await client.call(
                .get, "/api/assets?predicate=isFavorite%20%3D%3D%20YES&sort=creationDate", token: fixture.readWrite
            ).json()
            #expect(Self.ids(favorites) == [ids[1], ids[3]])
            let wide = try await client.call(.get, "/api/assets?predicate=pixelWidth%20%3E%20360&sort=-pixelWidth", token: fixture.readWrite).json()
            #expect(Self.ids(wide) == [ids[4], ids[3]])
        }
    }

    @Test func pagesFollowChangesFromEveryWhere() async throws {
        let fixture = try ServerFixture(photos: 3)
        let ids = fixture.assets.map(ServerFixture.uuid)
        try await fixture.withServer { client in
            let favorites = "/api/assets?predicate=isFavorite%20%3D%3D%20YES"
            #expect(try await client.call(.get, favorites, token: fixture.readWrite).json()["count"] as? Int == 0)
            // This server's change: read back at once.
            _ = try await client.call(.post, "/api/changes", token: fixture.readWrite, json: #"{"operations":[{"op":"favorite","assets":["\#(ids[0])"],"value":true}]}"#)
            #expect(Self.ids(try await client.call(.get, favorites, token: fixture.readWrite).json()) == [ids[0]])
            // Another process's change: as soon as its change notice arrives.
            try fixture.temporary.openAgain().performChangesAndWait {
                let other = PHAsset.fetchAssets(withLocalIdentifiers: [fixture.assets[2]], options: nil).firstObject!
                PHAssetChangeRequest(for: other).isFavorite = true
            }
            try await waitUntil { try await client.call(.get, favorites, token: fixture.readWrite).json()["count"] as? Int == 2 }
            #expect(Self.ids(try await client.call(.get, favorites, token: fixture.readWrite).json()) == [ids[2], ids[0]])
        }
    }

    /// This server's own change moves the kept fetch results forward with its details, as
    /// another process's does, instead of dropping them (at 1,000,000 assets a fetch again
    /// costs 0.1–0.6 s a toggle): the page after the change is read from the kept result, and
    /// shows the change.
    @Test func ownChangesMoveKeptResultsForwardWithoutFetchingAgain() async throws {
        let fetches = Mutex(0)
        let fixture = try ServerFixture(photos: 3, delegate: EventDelegate(workWillRun: { job in if job == "fetch" { fetches.withLock { $0 += 1 } } }))
        let ids = fixture.assets.map(ServerFixture.uuid)
        let configuration = ServerConfiguration()
        // An observer told before the server's (registered first) that takes its time, as an
        // app's might: a server answering before the change reached its kept results would
        // show the page without it.
        let slow = SlowObserver()
        fixture.library.register(slow)
        defer { fixture.library.unregisterChangeObserver(slow) }
        try await fixture.withServer(configuration) { client in
            let favorites = "/api/assets?predicate=isFavorite%20%3D%3D%20YES"
            #expect(try await client.call(.get, favorites, token: fixture.readWrite).json()["count"] as? Int == 0)
            #expect(fetches.withLock { $0 } == 1)
            for (index, id) in ids.enumerated() {
                _ = try await client.call(
                    .post, "/api/changes", token: fixture.readWrite, json: #"{"operations":[{"op":"favorite","assets":["\#(id)"],"value":true}]}"#)
                let page = try await client.call(.get, favorites, token: fixture.readWrite).json()
                #expect(Set(Self.ids(page)) == Set(ids[...index]), "the page shows the change at once")
            }
            #expect(fetches.withLock { $0 } == 1, "the kept result was moved forward, not fetched again")
        }
    }

    @Test func badParametersAnswer400NamingWhatWasWrong() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.withServer { client in
            let cases: [(String, String)] = [
                ("/api/assets?limit=0", "'limit'"), ("/api/assets?limit=5000", "'limit'"), ("/api/assets?offset=-1", "'offset'"),
                ("/api/assets?limit=ten", "'limit'"), ("/api/assets?hidden=maybe", "'hidden'"),
                ("/api/assets?predicate=isFavorite%20%3D%3D", "'predicate'"), ("/api/assets?predicate=password%20%3D%3D%201", "'predicate'"),
                ("/api/assets?sort=-no;such", "'sort'"), ("/api/assets?sort=burp", "'sort'"),
                ("/api/assets?collection=..%2F..%2Fetc", "album, smart album or moment"), ("/api/assets/not-an-id", "asset identifier"),
                ("/api/assets/..%2F..%2Fetc%2Fpasswd/original", "asset identifier"), ("/api/collections?type=everything", "'type'"),
                ("/api/collections?parent=nope", "folder"),
            ]
            for (uri, mention) in cases {
                let response = try await client.call(.get, uri, token: fixture.readWrite)
                let reason = try response.reason()
                #expect(response.status == .badRequest, "\(uri): \(response.status)")
                #expect(reason.contains(mention), "\(uri): \(reason)")
            }
            for uri in ["/api/assets/\(UUID().uuidString)", "/api/assets/\(UUID().uuidString)/image", "/api/collections/\(UUID().uuidString)",
                "/api/assets?collection=\(UUID().uuidString)"] {
                #expect(try await client.call(.get, uri, token: fixture.readWrite).status == .notFound, "\(uri)")
            }
        }
    }

    @Test func detailsCarryFilesAlbumsAndCamera() async throws {
        let fixture = try ServerFixture(photos: 2)
        try fixture.library.performChangesAndWait {
            PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Holiday").addAssets([fixture.asset(fixture.assets[0])!])
        }
        let id = ServerFixture.uuid(fixture.assets[0])
        try await fixture.withServer { client in
            let details = try await client.call(.get, "/api/assets/\(id)", token: fixture.readWrite).json()
            #expect(details["originalFilename"] as? String == "photo0.jpg")
            #expect(details["pixelWidth"] as? Int == 320)
            #expect(details["creationDate"] as? String == "2024-05-01T10:00:00Z" || (details["creationDate"] as? String)?.hasPrefix("2024-05-01") == true)
            #expect((details["albums"] as? [[String: Any]])?.first?["title"] as? String == "Holiday")
            #expect((details["camera"] as? [String: Any])?["model"] as? String == "Camera One")
            #expect((details["fileSize"] as? Int ?? 0) > 0)
            let albums = try await client.call(.get, "/api/collections?type=album", token: fixture.readWrite).json()
            let album = try #require((albums["collections"] as? [[String: Any]])?.first)
            #expect(album["title"] as? String == "Holiday" && album["kind"] as? String == "album" && album["estimatedAssetCount"] as? Int == 1)
            let inAlbum = try await client.call(.get, "/api/assets?collection=\(album["id"] as! String)", token: fixture.readWrite).json()
            #expect(Self.ids(inAlbum) == [id])
            let smart = try await client.call(.get, "/api/collections?type=smartAlbum", token: fixture.readWrite).json()
            #expect((smart["count"] as? Int ?? 0) > 5)
            let moments = try await client.call(.get, "/api/collections?type=moment", token: fixture.readWrite).json()
            #expect(moments["count"] as? Int == 2, "one moment per day")
            // Collections take the library's predicate and sort grammar too.
            let titled = try await client.call(.get, "/api/collections?type=album&predicate=title%20BEGINSWITH%20'Hol'", token: fixture.readWrite).json()
            #expect(titled["count"] as? Int == 1)
            let none = try await client.call(.get, "/api/collections?type=album&predicate=title%20%3D%3D%20'Work'", token: fixture.readWrite).json()
            #expect(none["count"] as? Int == 0)
            let wrongKey = try await client.call(.get, "/api/collections?type=album&predicate=pixelWidth%20%3E%203", token: fixture.readWrite)
            #expect(wrongKey.status == .badRequest)
            let oldestFirst = try await client.call(.get, "/api/collections?type=moment&sort=startDate", token: fixture.readWrite).json()
            let starts = (oldestFirst["collections"] as? [[String: Any]] ?? []).compactMap { $0["startDate"] as? String }
            #expect(starts.count == 2 && starts == starts.sorted())
            let newestFirst = (moments["collections"] as? [[String: Any]] ?? []).compactMap { $0["startDate"] as? String }
            #expect(newestFirst == starts.reversed(), "moments are newest first by default")
            let one = try await client.call(.get, "/api/collections/\(album["id"] as! String)", token: fixture.readWrite).json()
            #expect(one["title"] as? String == "Holiday")
            // Whole local identifiers work too, percent-encoded in a path.
            let encoded = fixture.assets[0].replacingOccurrences(of: "/", with: "%2F")
            let byLocalIdentifier = try await client.call(.get, "/api/assets/\(encoded)", token: fixture.readWrite).json()
            #expect(byLocalIdentifier["localIdentifier"] as? String == fixture.assets[0])
        }
    }

    /// Folders (collection lists) hold albums and folders: listed with `type=folder`, opened
    /// with `parent=`, read one by one; a folder that isn't there is 404.
    @Test func foldersListTheirAlbumsAndFolders() async throws {
        let fixture = try ServerFixture(photos: 1)
        var folderID = ""
        try fixture.library.performChangesAndWait {
            let trips = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Trips")
            let italy = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Italy")
            italy.addAssets([fixture.asset(fixture.assets[0])!])
            let older = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Older")
            trips.addChildCollections([italy.placeholderForCreatedAssetCollection, older.placeholderForCreatedCollectionList])
            folderID = trips.placeholderForCreatedCollectionList.localIdentifier
        }
        let folderUUID = ServerFixture.uuid(folderID)
        try await fixture.withServer { client in
            let folders = try await client.call(.get, "/api/collections?type=folder", token: fixture.readWrite).json()
            let titles = Set((folders["collections"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String })
            #expect(titles == ["Trips", "Older"], "\(folders)")
            let inside = try await client.call(.get, "/api/collections?parent=\(folderUUID)", token: fixture.readWrite).json()
            let children = (inside["collections"] as? [[String: Any]] ?? []).map { "\($0["kind"] ?? "")/\($0["title"] ?? "")" }
            #expect(Set(children) == ["album/Italy", "folder/Older"], "\(children)")
            let folder = try await client.call(.get, "/api/collections/\(folderUUID)", token: fixture.readWrite).json()
            #expect(folder["title"] as? String == "Trips" && folder["kind"] as? String == "folder", "\(folder)")
            let missing = try await client.call(.get, "/api/collections?parent=\(UUID().uuidString)", token: fixture.readWrite)
            let missingReason = try missing.reason()
            #expect(missing.status == .notFound && missingReason.contains("folder"), "\(missingReason)")
            #expect(try await client.call(.get, "/api/assets/\(UUID().uuidString)/original", token: fixture.readWrite).status == .notFound)
            #expect(try await client.call(.get, "/api/collections?parent=\(folderUUID)", token: fixture.limited).json()["count"] as? Int == 0)
        }
    }

    @Test func originalsDownloadByteForByte() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = ServerFixture.uuid(fixture.assets[0])
        let stored = try Data(contentsOf: fixture.temporary.scratch.appendingPathComponent("photo0.jpg"))
        try await fixture.withServer { client in
            let response = try await client.call(.get, "/api/assets/\(id)/original", token: fixture.readWrite)
            #expect(response.status == .ok)
            #expect(Data(response.body.readableBytesView) == stored)
            #expect(response.headers[.contentType] == "image/jpeg")
            #expect(response.headers[HTTPField.Name("Content-Disposition")!]?.contains("photo0.jpg") == true)
        }
    }

    static func ids(_ page: [String: Any]) -> [String] {
        (page["assets"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }
}

/// Holds each change's delivery 100 ms.
private final class SlowObserver: PHPhotoLibraryChangeObserver, Sendable {
    func photoLibraryDidChange(_ changeInstance: PHChange) {
        Thread.sleep(forTimeInterval: 0.1)
    }
}
