import Foundation
import Hummingbird
import Imaging
import HummingbirdTesting
import PhotosTestSupport
import Testing

@testable import Photos
@testable import PhotosServer

/// `GET /api/search?q=` and a live subscription's `search` (issue 37): pages of what a search
/// finds, for the clients that may read, narrowed to a limited token's list; live changes of a
/// search arrive like any fetch's.
@Suite("Server search")
struct SearchRouteTests {
    static func uuids(_ response: TestResponse) throws -> [String] {
        try (response.json()["assets"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    @Test func aSearchAnswersAPageOfWhatItFinds() async throws {
        let fixture = try ServerFixture(photos: 3)
        let ids = fixture.assets.map(ServerFixture.uuid)
        try await fixture.withServer { client in
            // photo0.jpg was taken by a "Fixture" "Camera One".
            let camera = try await client.call(.get, "/api/search?q=fixture%20camera", token: fixture.readWrite)
            #expect(camera.status == .ok)
            #expect(try camera.json()["count"] as? Int == 1 && Self.uuids(camera) == [ids[0]])
            #expect(try await Self.uuids(client.call(.get, "/api/search?q=PHOTO2.JPG", token: fixture.readWrite)) == [ids[2]])
            // Kinds and times alone: newest first.
            #expect(try await Self.uuids(client.call(.get, "/api/search?q=photos%202024", token: fixture.readWrite)) == ids.reversed())
            #expect(try await Self.uuids(client.call(.get, "/api/search?q=may&limit=1&offset=1", token: fixture.readWrite)) == [ids[1]])
            // The same through /api/assets.
            #expect(try await Self.uuids(client.call(.get, "/api/assets?search=fixture", token: fixture.readWrite)) == [ids[0]])
            // Limited: its list only (photo0); add-only: nothing.
            #expect(try await Self.uuids(client.call(.get, "/api/search?q=jpg", token: fixture.limited)) == [ids[0]])
            #expect(try await client.call(.get, "/api/search?q=jpg", token: fixture.addOnly).status == .forbidden)
            #expect(try await client.call(.get, "/api/search?q=jpg", token: nil).status == .unauthorized)
            // Bad requests say what was wrong.
            let missing = try await client.call(.get, "/api/search", token: fixture.readWrite)
            let missingReason = try missing.reason()
            #expect(missing.status == .badRequest && missingReason.contains("'q'"), "\(missingReason)")
            let long = try await client.call(.get, "/api/search?q=\(String(repeating: "a", count: 1001))", token: fixture.readWrite)
            let longReason = try long.reason()
            #expect(long.status == .badRequest && longReason.contains("1000 bytes"), "\(longReason)")
            let mixed = try await client.call(.get, "/api/assets?search=x&deleted=true", token: fixture.readWrite)
            #expect(mixed.status == .badRequest)
            // Odd queries are words, never errors.
            for odd in ["%22", "*", "NEAR(x)", "%27%20OR%201=1%20--", "%F0%9F%98%80", "a%00b"] {
                let answer = try await client.call(.get, "/api/search?q=\(odd)", token: fixture.readWrite)
                #expect(answer.status == .ok, "\(odd): \(answer.status)")
            }
        }
    }

    @Test func aSearchSubscriptionGetsChangesLikeAnyFetch() async throws {
        let fixture = try ServerFixture(photos: 2)
        let file = try TestImages.writeJPEG(to: fixture.temporary.scratch.appendingPathComponent("beach.jpg"), width: 80, height: 60)
        _ = try ExternalTool.exiftool(["-q", "-overwrite_original", "-XMP-dc:Subject=seaside", file.path])
        let messages = try await LiveTests.session(
            fixture, token: fixture.readWrite, requests: [#"{"type":"subscribe","subscription":"found","search":"seaside"}"#],
            during: {
                try await fixture.library.performChanges {
                    PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: file, options: nil)
                }
            }, until: { $0.contains { $0["type"] as? String == "changes" } })
        #expect(messages.first?["count"] as? Int == 0)
        let changes = try #require(messages.first { $0["type"] as? String == "changes" })
        #expect(changes["count"] as? Int == 1)
        #expect((changes["inserted"] as? [[String: Any]])?.count == 1, "\(changes)")
    }

    @Test(.enabled(if: TextRecognitionWork.isAvailable, "needs tesseract (apt install tesseract-ocr)"))
    func wordsReadInAPhotoAreInItsDetailsAndFindIt() async throws {
        let fixture = try ServerFixture(photos: 1)
        let file = fixture.temporary.scratch.appendingPathComponent("sign.jpg")
        try VipsImage.text("Zanzibar harbour", dpi: 300).jpegData(quality: 92).write(to: file)
        var made = ""
        try fixture.library.performChangesAndWait {
            made = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: file)!.placeholderForCreatedAsset!.localIdentifier
        }
        let created = made
        let counts = try await onOwnThread { try fixture.library.textRecognition.readAllDue(workers: 1) }
        #expect(counts.done == 2, "\(counts)")
        try await fixture.withServer { client in
            let found = try await client.call(.get, "/api/search?q=zanzibar", token: fixture.readWrite)
            #expect(try Self.uuids(found) == [ServerFixture.uuid(created)])
            let details = try await client.call(.get, "/api/assets/\(ServerFixture.uuid(created))", token: fixture.readWrite).json()
            let words = try #require(details["text"] as? [[String: Any]])
            #expect(words.compactMap { $0["text"] as? String } == ["Zanzibar", "harbour"], "\(words)")
            #expect(words.allSatisfy { ($0["x"] as? Double ?? -1) >= 0 && ($0["width"] as? Double ?? 0) > 0 })
            // A photo read with nothing in it says so; one not read yet says nothing.
            let plain = try await client.call(.get, "/api/assets/\(ServerFixture.uuid(fixture.assets[0]))", token: fixture.readWrite).json()
            #expect((plain["text"] as? [Any])?.isEmpty == true)
        }
    }
}
