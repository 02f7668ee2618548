import Foundation
import Hummingbird
import HummingbirdTesting
import Imaging
import Photos
@testable import PhotosServer
import PhotosTestSupport
import Testing

/// `degraded=1` on the image route (issue 19, aim 3): a grid cell gets the file's embedded
/// thumbnail at once, marked and not cacheable, until the real thumbnail is made.
@Suite("Server degraded images")
struct DegradedImageRouteTests {
    /// Imports a 640 × 480 gradient carrying an all-white 160 × 120 EXIF thumbnail (exiftool).
    static func thumbedAsset(_ fixture: ServerFixture) throws -> String {
        let scratch = fixture.temporary.scratch
        let file = try TestImages.writeJPEG(to: scratch.appendingPathComponent("thumbed.jpg"), width: 640, height: 480)
        let white = try VipsImage(pixels: Data(repeating: 255, count: 160 * 120 * 3), width: 160, height: 120, bands: 3)
        let thumb = scratch.appendingPathComponent("thumb.jpg")
        try white.jpegData(quality: 90, keepMetadata: false).write(to: thumb)
        _ = try ExternalTool.exiftool(["-q", "-overwrite_original", "-ThumbnailImage<=\(thumb.path)", file.path])
        var created: String?
        try fixture.library.performChangesAndWait {
            created = PHAssetCreationRequest.creationRequestForAssetFromImage(atFileURL: file)?.placeholderForCreatedAsset?.localIdentifier
        }
        return ServerFixture.uuid(try #require(created))
    }

    static func middleIsWhite(_ image: VipsImage) throws -> Bool {
        try image.pixel(x: image.width / 2, y: image.height / 2).prefix(3).allSatisfy { $0 > 240 }
    }

    @Test func aGridCellGetsTheEmbeddedThumbnailAtOnceThenTheRealOne() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = try Self.thumbedAsset(fixture)
        try await fixture.withServer { client in
            let cell = "/api/assets/\(id)/image?w=256&h=256&mode=fill"
            let quick = try await client.call(.get, cell + "&degraded=1", token: fixture.readWrite)
            #expect(quick.status == .ok && quick.headers[.contentType] == "image/jpeg")
            #expect(quick.headers[ImageRoutes.degradedHeader] == "1")
            #expect(quick.headers[.cacheControl] == "no-store" && quick.headers[.eTag] == nil)
            #expect(quick.headers[ImageRoutes.serverTiming]?.hasPrefix("embedded;dur=") == true)
            let degraded = try VipsImage(data: Data(quick.body.readableBytesView))
            #expect(degraded.width == 160 && degraded.height == 120, "the EXIF thumbnail as the file holds it, undecoded")
            // As WebP it is decoded, shaped to the box (its largest square, not scaled up) and encoded.
            let webp = try await client.call(.get, cell + "&format=webp&degraded=1", token: fixture.readWrite)
            #expect(webp.headers[ImageRoutes.degradedHeader] == "1" && webp.headers[.contentType] == "image/webp")
            let shaped = try VipsImage(data: Data(webp.body.readableBytesView))
            #expect(shaped.width == 120 && shaped.height == 120)
            let degradedIsWhite = try Self.middleIsWhite(degraded)
            #expect(degradedIsWhite)

            let final = try await client.call(.get, cell, token: fixture.readWrite)
            #expect(final.status == .ok && final.headers[ImageRoutes.degradedHeader] == nil && final.headers[.eTag] != nil)
            let real = try VipsImage(data: Data(final.body.readableBytesView))
            let realIsWhite = try Self.middleIsWhite(real)
            #expect(real.width == 256 && real.height == 256 && !realIsWhite)

            // Made now: the same quick URL answers the real image, cacheable.
            let again = try await client.call(.get, cell + "&degraded=1", token: fixture.readWrite)
            #expect(again.status == .ok && again.headers[ImageRoutes.degradedHeader] == nil)
            #expect(again.headers[.cacheControl] != "no-store" && again.headers[.eTag] == final.headers[.eTag])
            #expect(Data(again.body.readableBytesView) == Data(final.body.readableBytesView))
        }
    }

    @Test func aPhotoWithoutAnEmbeddedThumbnailAnswers204AndRendersNothing() async throws {
        let fixture = try ServerFixture(photos: 1)
        let id = ServerFixture.uuid(fixture.assets[0])
        let stored = fixture.temporary.url.appendingPathComponent("derivatives/\(id.prefix(1))/\(id)_thumbnail.jpg")
        try await fixture.withServer { client in
            let quick = try await client.call(.get, "/api/assets/\(id)/image?w=256&h=256&mode=fill&degraded=1", token: fixture.readWrite)
            #expect(quick.status == .noContent && quick.body.readableBytes == 0)
            #expect(quick.headers[ImageRoutes.degradedHeader] == "none" && quick.headers[.cacheControl] == "no-store")
            #expect(!FileManager.default.fileExists(atPath: stored.path), "nothing rendered")
            let bad = try await client.call(.get, "/api/assets/\(id)/image?degraded=maybe", token: fixture.readWrite)
            #expect(bad.status == .badRequest)
        }
    }
}
