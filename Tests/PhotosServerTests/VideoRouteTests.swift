import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Photos
import PhotosServer
import PhotosTestSupport
import Testing

/// `GET`/`HEAD /api/assets/{id}/video`: what a browser plays, with byte ranges and the asset
/// routes' access rules.
@Suite("Server video route", .enabled(if: TestClip.isAvailable, "needs ffmpeg (apt install ffmpeg)"))
struct VideoRouteTests {
    static func add(_ clip: TestClip, named name: String, to fixture: ServerFixture) throws -> String {
        let url = try clip.write(to: fixture.temporary.scratch.appendingPathComponent(name))
        var identifier: String?
        try fixture.library.performChangesAndWait {
            identifier = PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: url)?.placeholderForCreatedAsset?.localIdentifier
        }
        return try #require(identifier)
    }

    @Test func aVideoBrowsersPlayIsServedAsItIsWithRanges() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = try Self.add(TestClip(), named: "plays.mp4", to: fixture)
        let stored = try Data(contentsOf: try RangeRequestTests.originalFile(fixture, id))
        let uri = "/api/assets/\(ServerFixture.uuid(id))/video"
        try await fixture.withServer { client in
            let whole = try await client.call(.get, uri, token: fixture.readWrite)
            #expect(whole.status == .ok)
            #expect(whole.headers[.contentType] == "video/mp4")
            #expect(whole.headers[.acceptRanges] == "bytes")
            #expect(whole.headers[.cacheControl] == "private, no-cache")
            #expect(Data(whole.body.readableBytesView) == stored)
            let middle = try await client.call(.get, uri, token: fixture.readWrite, headers: [.range: "bytes=1000-1999"])
            #expect(middle.status == .partialContent)
            #expect(middle.headers[.contentRange] == "bytes 1000-1999/\(stored.count)")
            #expect(Data(middle.body.readableBytesView) == stored[1000...1999])
            let past = try await client.call(.get, uri, token: fixture.readWrite, headers: [.range: "bytes=\(stored.count)-"])
            #expect(past.status == .rangeNotSatisfiable)
            let head = try await client.call(.head, uri, token: fixture.readWrite)
            #expect(head.status == .ok && head.headers[.contentLength] == String(stored.count) && head.body.readableBytes == 0)
        }
    }

    @Test func hevcIsServedAsItsRenditionAndCachedForGoodByVersion() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = try Self.add(TestClip.iPhone(duration: 1), named: "IMG_0001.MOV", to: fixture)
        let asset = try #require(fixture.asset(id))
        let version = asset.hasAdjustments ? "e" : "o"
        try await fixture.withServer { client in
            let response = try await client.call(.get, "/api/assets/\(ServerFixture.uuid(id))/video?v=\(version)", token: fixture.readWrite)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "video/mp4")
            #expect(response.headers[.cacheControl] == "private, max-age=31536000, immutable")
            let body = Data(response.body.readableBytesView)
            let file = fixture.temporary.scratch.appendingPathComponent("served.mp4")
            try body.write(to: file)
            let tracks = try await AVURLAsset(url: file).loadTracks(withMediaType: .video)
            #expect(tracks.first?.codecName == "h264")
            #expect(tracks.first?.naturalSize == CGSize(width: 360, height: 640), "upright")
        }
        #expect(try fixture.library.videoRenditions.counts().made == 1)
    }

    @Test func stillsDamagedMoviesAndOtherTokensAreRefused() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = try Self.add(TestClip.iPhone(duration: 1), named: "IMG_0002.MOV", to: fixture)
        try TestClip.iPhone(duration: 1).writeTruncated(to: try RangeRequestTests.originalFile(fixture, id), keeping: 0.2)
        try await fixture.withServer { client in
            let still = try await client.call(.get, "/api/assets/\(ServerFixture.uuid(fixture.assets[0]))/video", token: fixture.readWrite)
            #expect(still.status == .notFound)
            #expect(try still.reason().contains("still photo"))
            let broken = try await client.call(.get, "/api/assets/\(ServerFixture.uuid(id))/video", token: fixture.readWrite)
            #expect(broken.status == .unprocessableContent)
            // The limited token's list holds the photo only; the add-only token reads nothing.
            let limited = try await client.call(.get, "/api/assets/\(ServerFixture.uuid(id))/video", token: fixture.limited)
            #expect(limited.status == .notFound)
            let addOnly = try await client.call(.get, "/api/assets/\(ServerFixture.uuid(id))/video", token: fixture.addOnly)
            #expect(addOnly.status == .forbidden)
            let anonymous = try await client.call(.get, "/api/assets/\(ServerFixture.uuid(id))/video", token: nil)
            #expect(anonymous.status == .unauthorized)
        }
    }
}
