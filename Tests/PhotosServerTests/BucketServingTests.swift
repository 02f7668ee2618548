import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Photos
import PhotosS3
import PhotosServer
import PhotosTestSupport
import S3
import Testing

/// `/original` and `/video` of a library whose originals are in a bucket (moto's S3 server on
/// loopback) and not on the serving machine: streamed from the bucket with byte ranges mapped
/// to ranged `GET`s (nothing fetched whole first, nothing left in the local cache), or
/// redirected to a presigned URL when the server is configured so.
/// One test at a time: each fixture makes a clip with ffmpeg and uploads on the thread it runs on.
@Suite(
    "Serving originals from a bucket", .blocking, .serialized,
    .enabled(if: ThrowawayS3.isAvailable, Comment(rawValue: ThrowawayS3.unavailableReason ?? "")))
struct BucketServingTests {
    /// A bucket library with one large noisy photo and one H.264 clip, whose local copies are
    /// gone, reached through a proxy that counts what the store sends.
    struct Fixture {
        let server: ThrowawayS3
        let proxy: TCPProxy
        let bucket: String
        let client: S3Client
        let temporary: TemporaryLibrary
        let token: String
        let photo: String
        let photoBytes: Data
        let video: String
        let videoBytes: Data

        init(function: String = #function) async throws {
            server = try ThrowawayS3()
            proxy = try TCPProxy(to: server.port)
            bucket = "serve-\(UUID().uuidString.prefix(8).lowercased())"
            let direct = S3Configuration(
                credentials: AWSCredentials(accessKeyID: server.credentials.accessKeyID, secretAccessKey: server.credentials.secretAccessKey),
                endpoint: server.endpoint)
            client = S3Client(configuration: direct)
            try await client.createBucket(bucket)
            var proxied = direct
            proxied.endpoint = URL(string: "http://127.0.0.1:\(proxy.port)")!
            S3ObjectStorage.shared.use(proxied, forBucket: bucket, retry: .init(attempts: 2, baseDelay: .milliseconds(10)))
            PHPhotoLibrary.enableS3Originals()
            var configuration = PHPhotoLibrary.Configuration()
            configuration.originals = URL(string: "s3://\(bucket)/library")!
            temporary = try TemporaryLibrary(configuration: configuration, function: function)
            let photoFile = temporary.scratch.appendingPathComponent("IMG_0001.JPG")
            photoBytes = try TestImages.jpeg(width: 1800, height: 1200, quality: 95, noisy: true)
            try photoBytes.write(to: photoFile)
            let clipFile = try TestClip().write(to: temporary.scratch.appendingPathComponent("clip.mp4"))
            videoBytes = try Data(contentsOf: clipFile)
            var created: [String] = []
            try temporary.library.performChangesAndWait {
                created.append(PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photoFile)!.placeholderForCreatedAsset!.localIdentifier)
                created.append(PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: clipFile)!.placeholderForCreatedAsset!.localIdentifier)
            }
            photo = String(created[0].prefix(36))
            video = String(created[1].prefix(36))
            token = try temporary.library.createAccessToken(named: "owner", level: .readWrite).secret
        }

        /// Removes the local copies of the originals (as a machine that never had them).
        func dropLocalCopies() throws {
            let folder = temporary.url.appendingPathComponent("cache/remote")
            if FileManager.default.fileExists(atPath: folder.path) { try FileManager.default.removeItem(at: folder) }
        }

        var localCopies: Int {
            let folder = temporary.url.appendingPathComponent("cache/remote")
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.allObjects as? [URL] ?? []
            return files.filter { !$0.hasDirectoryPath && !$0.lastPathComponent.hasPrefix(".") }.count
        }

        func withServer<T: Sendable>(
            _ configuration: ServerConfiguration = ServerConfiguration(), _ body: @Sendable (any TestClientProtocol) async throws -> T
        ) async throws -> T {
            try await buildApplication(library: temporary.library, configuration: configuration).test(.router, body)
        }
    }

    @Test func anOriginalNotOnThisMachineIsStreamedFromTheBucketRangeByRange() async throws {
        let fixture = try await Fixture()
        defer { withExtendedLifetime(fixture) {} }
        try fixture.dropLocalCopies()
        let uri = "/api/assets/\(fixture.photo)/original"
        let size = fixture.photoBytes.count
        #expect(size > 500_000, "a photo large enough that a whole fetch shows: \(size) bytes")
        try await fixture.withServer { client in
            // One range: 206 with its bytes, and the store sent little more than them.
            let before = fixture.proxy.bytesFromUpstream
            let ranged = try await client.call(.get, uri, token: fixture.token, headers: [.range: "bytes=1000-1099"])
            #expect(ranged.status == .partialContent)
            #expect(ranged.headers[.contentRange] == "bytes 1000-1099/\(size)")
            #expect(ranged.headers[.contentLength] == "100")
            #expect(Data(ranged.body.readableBytesView) == fixture.photoBytes[1000...1099])
            let sent = fixture.proxy.bytesFromUpstream - before
            #expect(sent < 16_384, "the store sent \(sent) bytes for a 100-byte range of \(size)")
            #expect(ranged.headers[.contentType] == "image/jpeg")
            #expect(ranged.headers[.contentDisposition]?.contains("IMG_0001.JPG") == true)

            // The whole file, with validators; HEAD asks nothing of the store.
            let whole = try await client.call(.get, uri, token: fixture.token)
            #expect(whole.status == .ok && Data(whole.body.readableBytesView) == fixture.photoBytes)
            #expect(whole.headers[.acceptRanges] == "bytes" && whole.headers[.contentLength] == String(size))
            let entityTag = try #require(whole.headers[.eTag])
            let quiet = fixture.proxy.bytesFromUpstream
            let head = try await client.call(.head, uri, token: fixture.token)
            #expect(head.status == .ok && head.headers[.contentLength] == String(size) && head.headers[.eTag] == entityTag)
            #expect(fixture.proxy.bytesFromUpstream == quiet)

            // Conditions and the end of the file, as for a file.
            let notModified = try await client.call(.get, uri, token: fixture.token, headers: [.ifNoneMatch: entityTag])
            #expect(notModified.status == .notModified)
            let stale = try await client.call(.get, uri, token: fixture.token, headers: [.range: "bytes=0-9", .ifRange: "\"other\""])
            #expect(stale.status == .ok && stale.body.readableBytes == size)
            let kept = try await client.call(.get, uri, token: fixture.token, headers: [.range: "bytes=-10", .ifRange: entityTag])
            #expect(kept.status == .partialContent && Data(kept.body.readableBytesView) == fixture.photoBytes.suffix(10))
            let past = try await client.call(.get, uri, token: fixture.token, headers: [.range: "bytes=\(size)-"])
            #expect(past.status == .rangeNotSatisfiable && past.headers[.contentRange] == "bytes */\(size)")
        }
        // Streamed, not fetched: the machine still has no copy.
        #expect(fixture.localCopies == 0)
    }

    @Test func aVideoThatPlaysIsStreamedFromTheBucketOnceItsCopyIsGone() async throws {
        let fixture = try await Fixture()
        defer { withExtendedLifetime(fixture) {} }
        let uri = "/api/assets/\(fixture.video)/video"
        try await fixture.withServer { client in
            // The first request decides the movie plays as it is (from its local copy).
            let first = try await client.call(.get, uri, token: fixture.token)
            #expect(first.status == .ok && Data(first.body.readableBytesView) == fixture.videoBytes)
            try fixture.dropLocalCopies()
            let before = fixture.proxy.bytesFromUpstream
            let ranged = try await client.call(.get, uri, token: fixture.token, headers: [.range: "bytes=0-1"])
            #expect(ranged.status == .partialContent)
            #expect(ranged.headers[.contentRange] == "bytes 0-1/\(fixture.videoBytes.count)")
            #expect(Data(ranged.body.readableBytesView) == fixture.videoBytes.prefix(2))
            #expect(ranged.headers[.contentType] == "video/mp4")
            #expect(fixture.proxy.bytesFromUpstream - before < 16_384)
            let tail = try await client.call(.get, uri, token: fixture.token, headers: [.range: "bytes=1000-"])
            #expect(Data(tail.body.readableBytesView) == fixture.videoBytes.dropFirst(1000))
        }
        #expect(fixture.localCopies == 0)
    }

    /// A movie this machine never had: ffprobe reads it from the bucket by a presigned URL
    /// to see it plays as it is, and it is streamed from there; nothing is fetched.
    @Test func aVideoNeverOnThisMachineIsProbedAndPlayedFromTheBucket() async throws {
        let fixture = try await Fixture()
        defer { withExtendedLifetime(fixture) {} }
        try fixture.dropLocalCopies()
        let uri = "/api/assets/\(fixture.video)/video"
        try await fixture.withServer { client in
            let ranged = try await client.call(.get, uri, token: fixture.token, headers: [.range: "bytes=100-199"])
            #expect(ranged.status == .partialContent)
            #expect(ranged.headers[.contentRange] == "bytes 100-199/\(fixture.videoBytes.count)")
            #expect(Data(ranged.body.readableBytesView) == fixture.videoBytes[100...199])
            let whole = try await client.call(.get, uri, token: fixture.token)
            #expect(whole.status == .ok && Data(whole.body.readableBytesView) == fixture.videoBytes)
        }
        #expect(fixture.localCopies == 0)
    }

    @Test func aRedirectGoesToAPresignedURLThatReadsTheObject() async throws {
        let fixture = try await Fixture()
        defer { withExtendedLifetime(fixture) {} }
        try fixture.dropLocalCopies()
        var configuration = ServerConfiguration()
        configuration.originalsRedirectExpiry = 300
        let location = try await fixture.withServer(configuration) { client in
            let response = try await client.call(.get, "/api/assets/\(fixture.photo)/original", token: fixture.token)
            #expect(response.status == .temporaryRedirect)
            #expect(response.headers[.cacheControl] == "private, no-store")
            // Without a token: the route's checks come first.
            let anonymous = try await client.call(.get, "/api/assets/\(fixture.photo)/original", token: nil)
            #expect(anonymous.status == .unauthorized)
            return try #require(response.headers[.location])
        }
        #expect(location.contains("X-Amz-Signature=") && location.contains("X-Amz-Expires=300"))
        // The download's name is signed into the URL (the store names the answer with it; moto
        // ignores it, so it is read from the URL here).
        let items = URLComponents(string: location)?.queryItems ?? []
        #expect(items.first { $0.name == "response-content-disposition" }?.value?.contains("filename=\"IMG_0001.JPG\"") == true, "\(location)")
        // Read as a browser would, with no credentials: the bytes.
        let original = fixture.temporary.scratch.appendingPathComponent("expected.jpg")
        try fixture.photoBytes.write(to: original)
        let answer = try ThrowawayS3.python(
            """
            import sys, urllib.request
            r = urllib.request.urlopen(sys.argv[1])
            body = r.read()
            print(len(body), body == open(sys.argv[2], 'rb').read(), r.headers.get('Content-Type'))
            """, [location, original.path])
        #expect(answer == "\(fixture.photoBytes.count) True image/jpeg", "\(answer)")
    }

    @Test func aDeletedObjectIs404NamingItAndAStoreAwayIsAPrompt503() async throws {
        let fixture = try await Fixture()
        defer { withExtendedLifetime(fixture) {} }
        try fixture.dropLocalCopies()
        let keys = try await fixture.client.listObjects(bucket: fixture.bucket, prefix: "library/").map(\.key)
        let photoKey = try #require(keys.first { $0.hasSuffix(".jpeg") }, "\(keys)")
        try await fixture.client.deleteObject(bucket: fixture.bucket, key: photoKey)
        try await fixture.withServer { client in
            let missing = try await client.call(.get, "/api/assets/\(fixture.photo)/original", token: fixture.token)
            #expect(missing.status == .notFound)
            let reason = try missing.reason()
            #expect(reason.contains("NoSuchKey"), "\(reason)")

            fixture.proxy.stop()
            let started = Date()
            let away = try await client.call(.get, "/api/assets/\(fixture.video)/original", token: fixture.token, headers: [.range: "bytes=0-9"])
            #expect(away.status == .serviceUnavailable)
            #expect(away.headers[.retryAfter] != nil)
            let awayReason = try away.reason()
            #expect(awayReason.contains("127.0.0.1:\(fixture.proxy.port)"), "\(awayReason)")
            #expect(Date().timeIntervalSince(started) < 10, "answered in \(Date().timeIntervalSince(started)) s")
        }
    }
}
