import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Photos
import PhotosServer
import PhotosTestSupport
import Testing

/// `POST /api/uploads`: raw and multipart bodies, limits, bad files, file names.
@Suite("Server uploads")
struct UploadRouteTests {
    @Test func rawAndMultipartUploadsBecomeAssets() async throws {
        let fixture = try ServerFixture(photos: 0)
        let first = try TestImages.jpeg(width: 90, height: 60)
        let second = try TestImages.png(width: 30, height: 40)
        try await fixture.withServer { client in
            let raw = try await client.call(.post, "/api/uploads?filename=IMG_0001.JPG", token: fixture.readWrite, body: ByteBuffer(bytes: first))
            #expect(raw.status == .created)
            let asset = try #require((try raw.json()["assets"] as? [[String: Any]])?.first)
            #expect(asset["pixelWidth"] as? Int == 90)

            let boundary = "----photos\(UUID().uuidString)"
            var body = ByteBuffer()
            for (name, data, type) in [("a.jpg", first, "image/jpeg"), ("b.png", second, "image/png")] {
                body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(name)\"\r\nContent-Type: \(type)\r\n\r\n")
                body.writeBytes(data)
                body.writeString("\r\n")
            }
            body.writeString("--\(boundary)--\r\n")
            let multipart = try await client.call(
                .post, "/api/uploads", token: fixture.readWrite, body: body, headers: [.contentType: "multipart/form-data; boundary=\(boundary)"])
            #expect(multipart.status == .created)
            #expect((try multipart.json()["assets"] as? [[String: Any]])?.count == 2)
        }
        let names = fixture.library.withCurrent { PHAsset.fetchAssets(with: nil).flatMap { PHAssetResource.assetResources(for: $0).map(\.originalFilename) } }
        #expect(Set(names) == ["IMG_0001.JPG", "a.jpg", "b.png"])
        #expect(fixture.temporary.originalFiles().count == 3)
    }

    @Test func badUploadsAddNothingAndLeaveNoFiles() async throws {
        let fixture = try ServerFixture(photos: 1)
        let uploads = fixture.temporary.url.appendingPathComponent("imports")
        let configuration = ServerConfiguration(uploadLimit: 64 * 1024)
        try await fixture.withServer(configuration) { client in
            let text = try await client.call(.post, "/api/uploads?filename=notes.jpg", token: fixture.readWrite, body: ByteBuffer(string: "not a photo"))
            #expect(text.status == .unsupportedMediaType)
            let reason = try text.reason()
            #expect(reason.contains("notes.jpg") && !reason.contains(uploads.path), "names the client's file, not the server's: \(reason)")
            let big = try await client.call(
                .post, "/api/uploads?filename=big.jpg", token: fixture.readWrite, body: ByteBuffer(bytes: [UInt8](repeating: 0xff, count: 100_000)))
            #expect(big.status == .contentTooLarge)
            for name in ["..", "a/..", "evil.j%00pg", "x.verylongextension"] {
                let response = try await client.call(.post, "/api/uploads?filename=\(name)", token: fixture.readWrite, body: ByteBuffer(string: "x"))
                #expect(response.status == .badRequest, "\(name)")
            }
            #expect(try await client.call(.post, "/api/uploads", token: fixture.readWrite, body: ByteBuffer(string: "x")).status == .badRequest)
            #expect(try await client.call(.post, "/api/uploads?filename=empty.jpg", token: fixture.readWrite).status == .badRequest)
            let truncated = try await client.call(
                .post, "/api/uploads", token: fixture.readWrite, body: ByteBuffer(string: "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.jpg\"\r\n\r\nabc"),
                headers: [.contentType: "multipart/form-data; boundary=b"])
            #expect(truncated.status == .badRequest)
            // Past the limit in a multipart body too, even with a valid first part.
            var multipart = ByteBuffer()
            multipart.writeString("--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"small.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n")
            multipart.writeBytes(try TestImages.jpeg(width: 32, height: 32))
            multipart.writeString("\r\n--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"huge.jpg\"\r\n\r\n")
            multipart.writeBytes([UInt8](repeating: 0xff, count: 100_000))
            multipart.writeString("\r\n--b--\r\n")
            let oversized = try await client.call(
                .post, "/api/uploads", token: fixture.readWrite, body: multipart, headers: [.contentType: "multipart/form-data; boundary=b"])
            #expect(oversized.status == .contentTooLarge, "\(oversized.status)")
        }
        #expect(fixture.library.withCurrent { PHAsset.fetchAssets(with: nil).count } == 1)
        #expect(fixture.temporary.originalFiles().count == 1)
        #expect((try? FileManager.default.contentsOfDirectory(atPath: uploads.path)) ?? [] == [])
    }

    /// Issue 33: an upload goes through `addResource(with:fileURL:options:)`, whose probe reads
    /// the tables decoding needs: a JPEG whose Huffman table no decoder can build is refused at
    /// once, naming the client's file and the table, and nothing of it stays.
    @Test func aJPEGWithABogusHuffmanTableIsRefusedNamingIt() async throws {
        let fixture = try ServerFixture(photos: 1)
        let bad = try MalformedInputs.bogusHuffmanJPEG()
        try await fixture.withServer { client in
            let response = try await client.call(
                .post, "/api/uploads?filename=IMG_0042.JPG", token: fixture.readWrite, body: ByteBuffer(bytes: bad.data))
            #expect(response.status == .unsupportedMediaType)
            let reason = try response.reason()
            #expect(reason.contains("IMG_0042.JPG is a damaged JPEG: the Huffman table DC 0 (DHT at offset 16267) is bogus"), "\(reason)")
            #expect(!reason.contains(fixture.temporary.url.path), "names the client's file, not the server's: \(reason)")
        }
        #expect(fixture.library.withCurrent { PHAsset.fetchAssets(with: nil).count } == 1)
        #expect(fixture.temporary.originalFiles().count == 1)
        #expect(fixture.temporary.temporaryFiles().isEmpty)
        let imports = fixture.temporary.url.appendingPathComponent("imports")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: imports.path)) ?? [] == [], "no upload left waiting")
    }

    /// A retried upload with the client's `Idempotency-Key` gets the first one's assets (with
    /// `Idempotent-Replayed`), not new ones; `GET /api/uploads/<id>` tells its owner, and
    /// nobody else, how it stands.
    @Test func aRetryWithTheSameKeyAddsNothing() async throws {
        let fixture = try ServerFixture(photos: 0)
        let photo = try TestImages.jpeg(width: 70, height: 50)
        try await fixture.withServer { client in
            let key = UploadRouteTests.idempotencyKey
            let first = try await client.call(
                .post, "/api/uploads?filename=once.jpg", token: fixture.readWrite, body: ByteBuffer(bytes: photo), headers: [key: "retry-7"])
            #expect(first.status == .created)
            #expect(first.headers[UploadRouteTests.replayed] == nil)
            let identifiers = try #require(try first.json()["localIdentifiers"] as? [String])
            let upload = try #require(try first.json()["upload"] as? [String: Any])
            #expect(upload["state"] as? String == "done" && upload["attempts"] as? Int == 1 && upload["files"] as? [String] == ["once.jpg"])

            let retry = try await client.call(
                .post, "/api/uploads?filename=once.jpg", token: fixture.readWrite, body: ByteBuffer(bytes: photo), headers: [key: "retry-7"])
            #expect(retry.status == .created)
            #expect(retry.headers[UploadRouteTests.replayed] == "true")
            #expect(try retry.json()["localIdentifiers"] as? [String] == identifiers)
            #expect((try retry.json()["assets"] as? [[String: Any]])?.count == 1)

            // Another token's key is its own.
            let theirs = try await client.call(
                .post, "/api/uploads?filename=once.jpg", token: fixture.addOnly, body: ByteBuffer(bytes: photo), headers: [key: "retry-7"])
            #expect(theirs.status == .created && theirs.headers[UploadRouteTests.replayed] == nil)
            #expect(try theirs.json()["localIdentifiers"] as? [String] != identifiers)

            let id = try #require(upload["id"] as? String)
            let status = try await client.call(.get, "/api/uploads/\(id)", token: fixture.readWrite)
            #expect(status.status == .ok)
            #expect(try status.json()["localIdentifiers"] as? [String] == identifiers)
            #expect(try await client.call(.get, "/api/uploads/\(id)", token: fixture.addOnly).status == .notFound, "not the add-only token's")
            let bad = try await client.call(
                .post, "/api/uploads?filename=x.jpg", token: fixture.readWrite, body: ByteBuffer(bytes: photo), headers: [key: "with space"])
            #expect(bad.status == .badRequest)
        }
        #expect(fixture.library.withCurrent { PHAsset.fetchAssets(with: nil).count } == 2)
        #expect(fixture.temporary.originalFiles().count == 2)
        let imports = fixture.temporary.url.appendingPathComponent("imports")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: imports.path)) ?? [] == [], "no upload left waiting")
    }

    static let idempotencyKey = HTTPField.Name("Idempotency-Key")!
    static let replayed = HTTPField.Name("Idempotent-Replayed")!

    @Test func pathsInFileNamesAreDropped() async throws {
        let fixture = try ServerFixture(photos: 0)
        try await fixture.withServer { client in
            let response = try await client.call(
                .post, "/api/uploads?filename=..%2F..%2F..%2Fetc%2Fcron.d%2Fx.jpg", token: fixture.readWrite, body: ByteBuffer(bytes: try TestImages.jpeg()))
            #expect(response.status == .created)
        }
        let files = fixture.temporary.originalFiles()
        #expect(files.count == 1, "the file went into originals/: \(files)")
        #expect(!FileManager.default.fileExists(atPath: "/etc/cron.d/x.jpg"))
        let name = fixture.library.withCurrent { PHAssetResource.assetResources(for: PHAsset.fetchAssets(with: nil).firstObject!).first?.originalFilename }
        #expect(name == "x.jpg")
    }
}
