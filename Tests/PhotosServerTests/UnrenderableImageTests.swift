import Foundation
import Hummingbird
import HummingbirdTesting
import Photos
@testable import PhotosServer
import PhotosTestSupport
import Testing

/// Issue 18: a photo the library accepted but can't render is answered with an error a
/// gallery recognises (422 with the reason, never an empty 200), and is listed by the check.
@Suite("Server unrenderable images")
struct UnrenderableImageTests {
    @Test func aPhotoThatCantBeRenderedIsAnswered422WithTheReasonAndListed() async throws {
        let fixture = try ServerFixture(photos: 1)
        let url = try MalformedInputs.undecodableJPEG().write(into: fixture.temporary.scratch)
        var identifier = ""
        try fixture.library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, fileURL: url, options: nil)
            identifier = request.placeholderForCreatedAsset!.localIdentifier
        }
        let bad = ServerFixture.uuid(identifier), good = ServerFixture.uuid(fixture.assets[0])
        try await fixture.withServer { client in
            for attempt in 0..<2 {
                let cell = try await client.call(.get, "/api/assets/\(bad)/image?w=256&h=256&mode=fill", token: fixture.readWrite)
                #expect(cell.status == .unprocessableContent, "attempt \(attempt): \(cell.status)")
                let reason = try cell.reason()
                #expect(reason.contains("Can't load the image") && reason.contains("Huffman table"), "\(reason)")
            }
            let detail = try await client.call(.get, "/api/assets/\(bad)/image?w=1024&h=1024", token: fixture.readWrite)
            #expect(detail.status == .unprocessableContent)
            let fine = try await client.call(.get, "/api/assets/\(good)/image?w=256&h=256&mode=fill", token: fixture.readWrite)
            #expect(fine.status == .ok)
        }
        let listed = try fixture.library.checkConsistency().problems
        #expect(listed.map(\.kind) == [.unrenderable], "\(listed)")
        #expect(listed.first?.detail.contains(bad) == true)
    }

}
