import Foundation
import Logging
import PhotosLocking
import PhotosTestSupport
import Testing

@testable import S3

/// The client against a real S3 protocol server on loopback (moto's), each test with a server
/// and buckets of its own.
@Suite("S3 client", .blocking, .enabled(if: ThrowawayS3.isAvailable, Comment(rawValue: ThrowawayS3.unavailableReason ?? "")))
struct S3ClientTests {
    static func client(_ server: ThrowawayS3, attempts: Int = 3) -> S3Client {
        let configuration = S3Configuration(
            credentials: AWSCredentials(accessKeyID: server.credentials.accessKeyID, secretAccessKey: server.credentials.secretAccessKey),
            region: "us-east-1", endpoint: server.endpoint)
        return S3Client(configuration: configuration, retry: .init(attempts: attempts, baseDelay: .milliseconds(20)))
    }

    static func temporaryFile(size: Int, seed: UInt64) throws -> URL {
        var random = SeededGenerator(seed: seed)
        var bytes = [UInt8](repeating: 0, count: size)
        for index in stride(from: 0, to: size, by: 8) {
            let value = random.next()
            for offset in 0..<min(8, size - index) { bytes[index + offset] = UInt8(truncatingIfNeeded: value >> (offset * 8)) }
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("s3-\(UUID().uuidString)")
        try Data(bytes).write(to: url)
        return url
    }

    @Test func objectsGoUpComeBackAndGo() async throws {
        let server = try ThrowawayS3()
        defer { withExtendedLifetime(server) {} }
        try server.makeBucket("photos")
        let client = Self.client(server)
        let keys = ["originals/a b/ü+é=~x.jpg", "originals/plain.heic", "other/日本 😀.mov"]
        for (index, key) in keys.enumerated() {
            try await client.putObject(bucket: "photos", key: key, data: Data("content \(index) of \(key)".utf8), contentType: "image/jpeg")
        }
        for (index, key) in keys.enumerated() {
            #expect(try await client.getObject(bucket: "photos", key: key) == Data("content \(index) of \(key)".utf8))
            let info = try await client.headObject(bucket: "photos", key: key)
            #expect(info.size == Int64("content \(index) of \(key)".utf8.count))
        }
        #expect(try await client.getObject(bucket: "photos", key: keys[1], range: 2...5) == Data("ntent".utf8.prefix(4)))
        #expect(try await client.listObjects(bucket: "photos", prefix: "originals/").map(\.key) == keys.prefix(2).sorted())
        #expect(try await client.listObjects(bucket: "photos", pageSize: 1).map(\.key) == keys.sorted())

        try await client.deleteObject(bucket: "photos", key: keys[0])
        await #expect(throws: S3Error.self) { try await client.getObject(bucket: "photos", key: keys[0]) }
        do throws(S3Error) {
            _ = try await client.headObject(bucket: "photos", key: keys[0])
            Issue.record("a deleted object was found")
        } catch {
            #expect(error.kind == .noSuchKey, "\(error)")
        }
        do throws(S3Error) {
            _ = try await client.getObject(bucket: "photos", key: keys[0])
        } catch {
            #expect(error.kind == .noSuchKey && error.message.contains("s3://photos/\(keys[0])") && error.message.contains("NoSuchKey"), "\(error)")
        }
        #expect(try await client.listObjects(bucket: "photos").count == 2)
    }

    @Test func filesStreamUpAndDownWithTheirChecksum() async throws {
        let server = try ThrowawayS3()
        defer { withExtendedLifetime(server) {} }
        try server.makeBucket("photos")
        let client = Self.client(server)
        let file = try Self.temporaryFile(size: 3 << 20 | 12_345, seed: 7)
        defer { try? FileManager.default.removeItem(at: file) }
        try await client.putObject(bucket: "photos", key: "big.bin", file: file)
        let info = try await client.headObject(bucket: "photos", key: "big.bin")
        #expect(info.size == 3 << 20 | 12_345)
        let expected = try Data(contentsOf: file)
        #expect(info.checksumSHA256 == SHA256Digest(expected).base64)

        let copy = file.appendingPathExtension("copy")
        defer { try? FileManager.default.removeItem(at: copy) }
        let reports = ProgressLog()
        try await client.download(bucket: "photos", key: "big.bin", to: copy) { written, total in reports.add(written, total) }
        #expect(try Data(contentsOf: copy) == expected)
        let seen = reports.values
        #expect(seen.count > 1 && seen.last?.0 == Int64(expected.count) && seen.allSatisfy { $0.1 == Int64(expected.count) })
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.0 < $1.0 }, "progress only grows")
    }

    @Test func largeFilesGoUpInConcurrentPartsAndTheUploadIsAbortedOnFailure() async throws {
        let server = try ThrowawayS3()
        defer { withExtendedLifetime(server) {} }
        try server.makeBucket("photos")
        let client = Self.client(server)
        let file = try Self.temporaryFile(size: 12 << 20 | 777, seed: 11)
        defer { try? FileManager.default.removeItem(at: file) }
        try await client.putObject(bucket: "photos", key: "video.mov", file: file, multipartThreshold: 8 << 20, partSize: 5 << 20, concurrency: 3)
        #expect(try await client.headObject(bucket: "photos", key: "video.mov").size == 12 << 20 | 777)
        let copy = file.appendingPathExtension("copy")
        defer { try? FileManager.default.removeItem(at: copy) }
        try await client.download(bucket: "photos", key: "video.mov", to: copy)
        #expect(try Data(contentsOf: copy) == Data(contentsOf: file))

        // Into a bucket that isn't there: the upload fails naming it; nothing is left.
        do throws(S3Error) {
            try await client.putObject(bucket: "missing", key: "video.mov", file: file, multipartThreshold: 8 << 20, partSize: 5 << 20)
            Issue.record("an upload into a missing bucket succeeded")
        } catch {
            #expect(error.kind == .noSuchBucket && error.message.contains("s3://missing/video.mov"), "\(error)")
        }
        let uploads = try ThrowawayS3.python(
            """
            import sys, boto3
            s3 = boto3.client('s3', endpoint_url=sys.argv[1], region_name='us-east-1', aws_access_key_id='testing', aws_secret_access_key='testing')
            print(len(s3.list_multipart_uploads(Bucket='photos').get('Uploads', [])))
            """, [server.endpoint.absoluteString])
        #expect(uploads == "0", "no upload is left open")
    }

    /// The blocking upload (what a PhotoKit change block calls) goes up in parts too, with
    /// each part's checksum; a part that keeps failing aborts the upload, leaving nothing.
    @Test func largeFilesGoUpInPartsFromSynchronousCodeAndAFailedPartAbortsTheUpload() async throws {
        let server = try ThrowawayS3()
        defer { withExtendedLifetime(server) {} }
        try server.makeBucket("photos")
        let client = Self.client(server)
        let size = 12 << 20 | 777
        let file = try Self.temporaryFile(size: size, seed: 12)
        defer { try? FileManager.default.removeItem(at: file) }
        try client.putObjectWaiting(bucket: "photos", key: "movie.mov", file: file, multipartThreshold: 8 << 20, partSize: 5 << 20, concurrency: 3)
        let info = try await client.headObject(bucket: "photos", key: "movie.mov")
        #expect(info.size == Int64(size))
        #expect(info.eTag?.hasSuffix("-3\"") == true, "three parts: \(String(describing: info.eTag))")
        let copy = file.appendingPathExtension("copy")
        defer { try? FileManager.default.removeItem(at: copy) }
        try client.downloadWaiting(bucket: "photos", key: "movie.mov", to: copy)
        #expect(try Data(contentsOf: copy) == Data(contentsOf: file))

        // Part 2 answered 503 every time: the upload fails naming it and is aborted.
        let stormy = try S3FaultProxy(target: server.endpoint, failures: 1_000, matching: "partNumber=2")
        defer { withExtendedLifetime(stormy) {} }
        let through = S3Client(
            configuration: S3Configuration(credentials: AWSCredentials(accessKeyID: "testing", secretAccessKey: "testing"), endpoint: stormy.endpoint),
            retry: .init(attempts: 2, baseDelay: .milliseconds(10)))
        do throws(S3Error) {
            try through.putObjectWaiting(bucket: "photos", key: "failed.mov", file: file, multipartThreshold: 8 << 20, partSize: 5 << 20)
            Issue.record("an upload whose part failed succeeded")
        } catch {
            #expect(error.kind == .unavailable && error.message.contains("part 2 of s3://photos/failed.mov"), "\(error)")
        }
        let left = try ThrowawayS3.python(
            """
            import sys, boto3
            s3 = boto3.client('s3', endpoint_url=sys.argv[1], region_name='us-east-1', aws_access_key_id='testing', aws_secret_access_key='testing')
            print(len(s3.list_multipart_uploads(Bucket='photos').get('Uploads', [])), s3.list_objects_v2(Bucket='photos').get('KeyCount'))
            """, [server.endpoint.absoluteString])
        #expect(left == "0 1", "no upload left open, no object but the first: \(left)")
        // A file past 10,000 parts of the preferred size gets larger parts.
        #expect(S3Client.partSize(forFileOf: 5 << 20, preferred: 16 << 20) == 16 << 20)
        #expect(S3Client.partSize(forFileOf: 400 << 30, preferred: 16 << 20) * 10_000 >= 400 << 30)
    }

    @Test func aMissingBucketIsNamedAtTheCheck() async throws {
        let server = try ThrowawayS3()
        defer { withExtendedLifetime(server) {} }
        let client = Self.client(server)
        do throws(S3Error) {
            try await client.checkAccess(bucket: "nowhere", prefix: "library/")
            Issue.record("a missing bucket passed the check")
        } catch {
            #expect(error.kind == .noSuchBucket && error.message.contains("nowhere"), "\(error)")
        }
    }

    @Test func anEndpointThatIsntThereFailsAfterTheConnectTimeout() async throws {
        let port = try ThrowawayPostgres.freePort()
        let configuration = S3Configuration(
            credentials: AWSCredentials(accessKeyID: "a", secretAccessKey: "b"), endpoint: URL(string: "http://127.0.0.1:\(port)")!)
        let client = S3Client(
            configuration: configuration, retry: .init(attempts: 3, baseDelay: .milliseconds(10)), timeouts: .init(connect: .seconds(2)))
        do throws(S3Error) {
            try await client.checkAccess(bucket: "photos")
            Issue.record("a closed port answered")
        } catch {
            // Not retried: the connection pool already tried for the connect timeout.
            #expect(error.kind == .unavailable && error.message.contains("127.0.0.1") && !error.message.contains("attempts"), "\(error)")
        }
        // No bound on its time: 2 s alone, over 300 s in one run of the whole suite (its
        // continuations wait for the threads every other test holds).
    }

    @Test func presignedURLsReadTheObjectWithoutCredentials() async throws {
        let server = try ThrowawayS3()
        defer { withExtendedLifetime(server) {} }
        try server.makeBucket("photos")
        let client = Self.client(server)
        try await client.putObject(bucket: "photos", key: "shared/a b.jpg", data: Data("shared bytes".utf8))
        let url = client.presignedURL(bucket: "photos", key: "shared/a b.jpg", expires: 600)
        #expect(url.absoluteString.contains("X-Amz-Signature="))
        let fetched = try ThrowawayS3.python(
            "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1]).read().decode())", [url.absoluteString])
        #expect(fetched == "shared bytes")
    }
}

/// Progress reports, as the download's callback gives them from its task.
final class ProgressLog: Sendable {
    private let log = Mutex<[(Int64, Int64)]>([])
    func add(_ written: Int64, _ total: Int64) { log.withLock { $0.append((written, total)) } }
    var values: [(Int64, Int64)] { log.withLock { $0 } }
}

/// A server that checks every signature (moto's IAM): the right key works; a wrong secret, an
/// unknown key and a clock far off are each named at the access check, before any upload.
@Suite("S3 credentials", .blocking, .enabled(if: ThrowawayS3.isAvailable, Comment(rawValue: ThrowawayS3.unavailableReason ?? "")))
struct S3CredentialTests {
    @Test func wrongCredentialsAreNamedAtTheCheck() async throws {
        let server = try ThrowawayS3(enforcesSignatures: true)
        defer { withExtendedLifetime(server) {} }
        func client(_ key: String, _ secret: String) -> S3Client {
            S3Client(
                configuration: S3Configuration(credentials: AWSCredentials(accessKeyID: key, secretAccessKey: secret), endpoint: server.endpoint),
                retry: .init(attempts: 2, baseDelay: .milliseconds(10)))
        }
        let right = client(server.credentials.accessKeyID, server.credentials.secretAccessKey)
        try await right.createBucket("photos")
        try await right.checkAccess(bucket: "photos")
        try await right.putObject(bucket: "photos", key: "a.jpg", data: Data("a".utf8))
        #expect(try await right.getObject(bucket: "photos", key: "a.jpg") == Data("a".utf8))

        for (wrong, code) in [
            (client(server.credentials.accessKeyID, server.credentials.secretAccessKey + "x"), "SignatureDoesNotMatch"),
            (client("AKIANOBODY0000000000", "secret"), "InvalidAccessKeyId"),
        ] {
            do throws(S3Error) {
                try await wrong.checkAccess(bucket: "photos")
                Issue.record("\(code): the check passed")
            } catch {
                #expect(error.kind == .credentials && error.code == code && error.message.contains("s3://photos"), "\(error)")
                #expect(!error.message.contains(server.credentials.secretAccessKey), "the secret is not in the message")
            }
        }
    }
}

/// A store whose clock is an hour off this machine's (a proxy that checks each request's
/// signing time as AWS does; moto checks none): the access check fails naming
/// `RequestTimeTooSkewed` and how far off the clock is, and is not retried.
@Suite("S3 clock skew", .blocking, .enabled(if: ThrowawayS3.isAvailable, Comment(rawValue: ThrowawayS3.unavailableReason ?? "")))
struct S3ClockSkewTests {
    @Test(arguments: [3_600, -5_400])
    func aClockPastTheSignatureWindowIsNamedAtTheCheck(storeAhead: Int) async throws {
        let server = try ThrowawayS3()
        defer { withExtendedLifetime(server) {} }
        try server.makeBucket("photos")
        let skewed = try S3FaultProxy(target: server.endpoint, failures: 0, storeClockAhead: storeAhead)
        defer { withExtendedLifetime(skewed) {} }
        let client = S3Client(
            configuration: S3Configuration(credentials: AWSCredentials(accessKeyID: "testing", secretAccessKey: "testing"), endpoint: skewed.endpoint),
            retry: .init(attempts: 3, baseDelay: .milliseconds(10)))
        do throws(S3Error) {
            try await client.checkAccess(bucket: "photos")
            Issue.record("a clock \(storeAhead) s off passed the check")
        } catch {
            let minutes = abs(storeAhead) / 60
            #expect(error.kind == .clockSkew && error.code == "RequestTimeTooSkewed", "\(error)")
            #expect(error.message.contains("\(minutes) minutes \(storeAhead > 0 ? "behind" : "ahead of") the store's"), "\(error)")
            #expect(error.message.contains("NTP") && !error.message.contains("attempts"), "\(error)")
        }
        // Within the window (14 minutes), the same store answers.
        let near = try S3FaultProxy(target: server.endpoint, failures: 0, storeClockAhead: storeAhead > 0 ? 840 : -840)
        defer { withExtendedLifetime(near) {} }
        try await S3Client(
            configuration: S3Configuration(credentials: AWSCredentials(accessKeyID: "testing", secretAccessKey: "testing"), endpoint: near.endpoint)
        ).checkAccess(bucket: "photos")
    }
}

/// A store that answers 503 SlowDown for a while: the client retries with backoff and gets
/// through when the storm ends before its attempts do, and gives a clear error when it doesn't.
@Suite("S3 retries", .blocking, .enabled(if: ThrowawayS3.isAvailable, Comment(rawValue: ThrowawayS3.unavailableReason ?? "")))
struct S3RetryTests {
    @Test func aShortStormIsRiddenOutALongOneIsAClearError() async throws {
        let server = try ThrowawayS3()
        defer { withExtendedLifetime(server) {} }
        try server.makeBucket("photos")
        func client(_ endpoint: URL, attempts: Int) -> S3Client {
            S3Client(
                configuration: S3Configuration(credentials: AWSCredentials(accessKeyID: "testing", secretAccessKey: "testing"), endpoint: endpoint),
                retry: .init(attempts: attempts, baseDelay: .milliseconds(20)))
        }
        // Three 503s, five attempts: the PUT and the GET get through.
        let short = try S3FaultProxy(target: server.endpoint, failures: 3)
        defer { withExtendedLifetime(short) {} }
        let patient = client(short.endpoint, attempts: 5)
        try await patient.putObject(bucket: "photos", key: "a.jpg", data: Data("stormy".utf8))
        #expect(try await patient.getObject(bucket: "photos", key: "a.jpg") == Data("stormy".utf8))
        // The blocking download retries alike.
        let long = try S3FaultProxy(target: server.endpoint, failures: 100)
        defer { withExtendedLifetime(long) {} }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("storm-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        let shortAgain = try S3FaultProxy(target: server.endpoint, failures: 2)
        defer { withExtendedLifetime(shortAgain) {} }
        try client(shortAgain.endpoint, attempts: 3).downloadWaiting(bucket: "photos", key: "a.jpg", to: file)
        #expect(try Data(contentsOf: file) == Data("stormy".utf8))

        // A storm longer than the attempts: unavailable, naming the object, the code and the count.
        func expectStormError(_ error: S3Error?) {
            #expect(error?.kind == .unavailable && error?.code == "SlowDown" && error?.message.contains("after 3 attempts") == true, "\(String(describing: error))")
            #expect(error?.message.contains("s3://photos/") == true, "\(String(describing: error))")
        }
        do {
            try await client(long.endpoint, attempts: 3).putObject(bucket: "photos", key: "b.jpg", data: Data("b".utf8))
            Issue.record("a storm of 503s was passed")
        } catch {
            expectStormError(error)
        }
        do {
            try client(long.endpoint, attempts: 3).downloadWaiting(bucket: "photos", key: "a.jpg", to: file)
            Issue.record("a storm of 503s was passed")
        } catch {
            expectStormError(error)
        }
        // Nothing was stored by the failed PUT.
        #expect(try await client(server.endpoint, attempts: 1).listObjects(bucket: "photos").map(\.key) == ["a.jpg"])
    }
}
