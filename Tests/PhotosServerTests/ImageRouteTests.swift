import Foundation
import Hummingbird
import HummingbirdTesting
import Imaging
import Photos
import NIOHTTP1
@testable import PhotosServer
import PhotosTestSupport
import Testing

/// `GET /api/assets/{id}/image` through PHImageManager: sizes, formats, ETags, cache headers.
@Suite("Server image route")
struct ImageRouteTests {
    @Test func imagesAreRenderedAtTheAskedSizeAndFormat() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = ServerFixture.uuid(fixture.assets[0])
        try await fixture.withServer { client in
            let fit = try await client.call(.get, "/api/assets/\(id)/image?w=160&h=160", token: fixture.readWrite)
            #expect(fit.status == .ok && fit.headers[.contentType] == "image/jpeg")
            let fitImage = try VipsImage(data: Data(fit.body.readableBytesView))
            #expect(fitImage.width == 160 && fitImage.height == 120, "aspect fit of 320 × 240")
            let fill = try await client.call(.get, "/api/assets/\(id)/image?w=100&h=100&mode=fill&format=webp", token: fixture.readWrite)
            #expect(fill.headers[.contentType] == "image/webp")
            let fillImage = try VipsImage(data: Data(fill.body.readableBytesView))
            #expect(fillImage.width == 100 && fillImage.height == 100, "aspect fill, cropped to the box")
            let cropped = try await client.call(.get, "/api/assets/\(id)/image?w=64&h=64&crop=0,0,0.5,0.5", token: fixture.readWrite)
            #expect(cropped.status == .ok)
        }
    }

    /// A grid cell's 256 × 256 fill is the library's stored thumbnail, sent as stored (no
    /// decoding, no encoding); other sizes are rendered.
    @Test func theGridThumbnailIsSentAsStored() async throws {
        let fixture = try ServerFixture(photos: 1, height: 300)
        let id = ServerFixture.uuid(fixture.assets[0])
        let stored = fixture.temporary.url.appendingPathComponent("derivatives/\(id.prefix(1))/\(id)_thumbnail.jpg")
        try await fixture.withServer { client in
            // A smaller square fill makes the stored thumbnail on first need.
            let small = try await client.call(.get, "/api/assets/\(id)/image?w=128&h=128&mode=fill", token: fixture.readWrite)
            #expect(small.status == .ok)
            let bytes = try Data(contentsOf: stored)
            let cell = try await client.call(.get, "/api/assets/\(id)/image?w=256&h=256&mode=fill", token: fixture.readWrite)
            #expect(cell.status == .ok && cell.headers[.contentType] == "image/jpeg")
            #expect(Data(cell.body.readableBytesView) == bytes, "the stored thumbnail's bytes")
            let image = try VipsImage(data: bytes)
            #expect(image.width == 256 && image.height == 256)
            // Another quality is rendered.
            let other = try await client.call(.get, "/api/assets/\(id)/image?w=256&h=256&mode=fill&quality=50", token: fixture.readWrite)
            #expect(other.status == .ok && Data(other.body.readableBytesView) != bytes)
        }
    }

    @Test func etagsRevalidateAndVersionedURLsAreImmutable() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = ServerFixture.uuid(fixture.assets[0])
        try await fixture.withServer { client in
            let details = try await client.call(.get, "/api/assets/\(id)", token: fixture.readWrite).json()
            let version = try #require(details["version"] as? String)
            let first = try await client.call(.get, "/api/assets/\(id)/image?w=64&v=\(version)", token: fixture.readWrite)
            let etag = try #require(first.headers[.eTag])
            #expect(first.headers[.cacheControl] == "private, max-age=31536000, immutable")
            let again = try await client.call(.get, "/api/assets/\(id)/image?w=64&v=\(version)", token: fixture.readWrite, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.body.readableBytes == 0)
            let stale = try await client.call(.get, "/api/assets/\(id)/image?w=64&v=1", token: fixture.readWrite)
            #expect(stale.headers[.cacheControl] == "private, no-cache")
            // A favorite leaves the image as it was: the ETag still matches.
            let favorite = try await client.call(
                .post, "/api/changes", token: fixture.readWrite, json: #"{"operations":[{"op":"favorite","assets":["\#(id)"],"value":true}]}"#)
            #expect(favorite.status == .ok)
            let unchanged = try await client.call(.get, "/api/assets/\(id)/image?w=64&v=\(version)", token: fixture.readWrite, headers: [.ifNoneMatch: etag])
            #expect(unchanged.status == .notModified)
            // An edit changes the version, so the old ETag no longer matches.
            let edit = try await client.call(.post, "/api/changes", token: fixture.readWrite, json: #"{"operations":[{"op":"edit","asset":"\#(id)","rotate":90}]}"#)
            #expect(edit.status == .ok)
            let edited = try #require(try await client.call(.get, "/api/assets/\(id)", token: fixture.readWrite).json()["version"] as? String)
            #expect(edited != version)
            let after = try await client.call(.get, "/api/assets/\(id)/image?w=64", token: fixture.readWrite, headers: [.ifNoneMatch: etag])
            #expect(after.status == .ok)
            let turned = try VipsImage(data: Data(after.body.readableBytesView))
            #expect(turned.width == 48 && turned.height == 64, "the rotated edit, not the cached original")
        }
    }

    @Test func badImageParametersAnswer400() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = ServerFixture.uuid(fixture.assets[0])
        try await fixture.withServer { client in
            for query in ["w=0", "w=99999", "h=-3", "mode=stretch", "format=gif", "version=draft", "quality=101", "crop=0,0,2,1", "crop=a,b"] {
                let response = try await client.call(.get, "/api/assets/\(id)/image?\(query)", token: fixture.readWrite)
                #expect(response.status == .badRequest, "\(query)")
            }
        }
    }
}

/// Cached images are answered in the connection's pipeline (CachedImageHandler), over a real
/// socket; the access rules must hold there too.
@Suite("Server cached image handler")
struct ImageFastPathTests {
    @Test func cachedImagesStillCheckWhoAsks() async throws {
        let fixture = try ServerFixture(photos: 2)
        let allowed = ServerFixture.uuid(fixture.assets[0])
        let other = ServerFixture.uuid(fixture.assets[1])
        let (token, secret) = try fixture.library.createAccessToken(named: "soon revoked", level: .readWrite)
        try await fixture.withServer(live: true) { client in
            for id in [allowed, other] {
                #expect(try await client.call(.get, "/api/assets/\(id)/image?w=32", token: fixture.readWrite).status == .ok)
            }
            // Now both are cached; each client still sees only what it may.
            #expect(try await client.call(.get, "/api/assets/\(other)/image?w=32", token: fixture.limited).status == .notFound)
            #expect(try await client.call(.get, "/api/assets/\(allowed)/image?w=32", token: fixture.limited).status == .ok)
            #expect(try await client.call(.get, "/api/assets/\(allowed)/image?w=32", token: fixture.addOnly).status == .forbidden)
            #expect(try await client.call(.get, "/api/assets/\(allowed)/image?w=32", token: nil).status == .unauthorized)
            #expect(try await client.call(.get, "/api/assets/\(allowed)/image?w=32&mode=bogus", token: fixture.readWrite).status == .badRequest)
            #expect(try await client.call(.get, "/api/assets/\(allowed)/image?w=32", token: secret).status == .ok)
            try fixture.library.revokeAccessToken(withIdentifier: token.identifier)
            // The server learns of the revocation from the library's change signal.
            try await waitUntil { try await client.call(.get, "/api/assets/\(allowed)/image?w=32", token: secret).status == .unauthorized }
            let fast = try await client.call(.get, "/api/assets/\(allowed)/image?w=32", token: fixture.readWrite)
            #expect(fast.headers[.xContentTypeOptions] == "nosniff" && fast.headers[.eTag] != nil)
            let etag = try #require(fast.headers[.eTag])
            let notModified = try await client.call(.get, "/api/assets/\(allowed)/image?w=32", token: fixture.readWrite, headers: [.ifNoneMatch: etag])
            #expect(notModified.status == .notModified)
            // With a session cookie, as the gallery asks.
            let signIn = try await client.call(.post, "/api/session", token: nil, json: #"{"token":"\#(fixture.readWrite)"}"#)
            let cookie = try #require(signIn.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            let viaCookie = try await client.call(.get, "/api/assets/\(allowed)/image?w=32", token: nil, headers: [.cookie: "other=1; " + cookie])
            #expect(viaCookie.status == .ok && viaCookie.body == fast.body)
            // Interleaved with requests the application answers, on one connection, in order.
            for _ in 0..<3 {
                #expect(try await client.call(.get, "/api/assets/\(allowed)", token: fixture.readWrite).status == .ok)
                #expect(try await client.call(.get, "/api/assets/\(allowed)/image?w=32", token: fixture.readWrite).headers[.contentType] == "image/jpeg")
            }
        }
    }

    @Test func imagePathsAndCookiesAreReadExactly() {
        #expect(CachedImageHandler.cookie("photos_session", in: ["Cookie": "a=1; photos_session=xyz; b=2"]) == "xyz")
        #expect(CachedImageHandler.cookie("photos_session", in: ["Cookie": "my_photos_session=xyz"]) == nil)
        #expect(CachedImageHandler.split(imageTarget: "/api/assets/ABC/image?w=1&v=o")?.id == "ABC")
        #expect(CachedImageHandler.split(imageTarget: "/api/assets/ABC/image?w=1&v=o")?.query == "w=1&v=o")
        #expect(CachedImageHandler.split(imageTarget: "/api/assets/ABC/image")?.query == "")
        #expect(CachedImageHandler.split(imageTarget: "/api/assets//image") == nil)
        #expect(CachedImageHandler.split(imageTarget: "/api/assets/a/b/image") == nil)
        #expect(CachedImageHandler.split(imageTarget: "/api/assets/ABC/image/x?image") == nil)
        #expect(CachedImageHandler.split(imageTarget: "/api/assets/ABC/original") == nil)
    }
}
