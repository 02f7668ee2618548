import Foundation
import PhotosS3
import PhotosTestSupport
import S3
import Testing

@testable import Photos

#if canImport(Glibc)
    import Glibc
#endif

/// `photos … --originals s3://BUCKET/PREFIX`: a library whose originals are in a bucket of
/// moto's S3 server, reached with the `AWS_*` variables as AWS's tools read them.
/// One test at a time: each waits for `photos` processes on the thread it runs on, and two
/// at once would hold both of Swift concurrency's threads on CI for the length of an import.
@Suite(
    "photos with originals in a bucket", .blocking, .serialized,
    .enabled(if: ThrowawayS3.isAvailable, Comment(rawValue: ThrowawayS3.unavailableReason ?? "")))
struct BucketCommandTests {
    struct Bucket {
        let server: ThrowawayS3
        let name = "photos-\(UUID().uuidString.prefix(8).lowercased())"
        let client: S3Client
        let home: URL

        init() async throws {
            server = try ThrowawayS3()
            client = S3Client(
                configuration: S3Configuration(
                    credentials: AWSCredentials(accessKeyID: server.credentials.accessKeyID, secretAccessKey: server.credentials.secretAccessKey),
                    endpoint: server.endpoint))
            try await client.createBucket(name)
            home = FileManager.default.temporaryDirectory.appendingPathComponent("aws-home-\(UUID().uuidString.prefix(8))")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        }

        /// What the `photos` process reaches the bucket with: AWS's variables, a home without
        /// `~/.aws`.
        func environment(endpoint: URL? = nil) -> [String: String] {
            [
                "AWS_ACCESS_KEY_ID": server.credentials.accessKeyID, "AWS_SECRET_ACCESS_KEY": server.credentials.secretAccessKey,
                "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL": (endpoint ?? server.endpoint).absoluteString, "HOME": home.path,
            ]
        }

        func keys(under prefix: String) async throws -> [String] {
            try await client.listObjects(bucket: name, prefix: prefix).map(\.key)
        }

        /// The library at `url` opened in this process, its bucket reached directly.
        func open(_ url: URL) throws -> PHPhotoLibrary {
            S3ObjectStorage.shared.use(client.configuration, forBucket: name)
            PHPhotoLibrary.enableS3Originals()
            return try PHPhotoLibrary(url: url)
        }
    }

    static func photos(_ count: Int, in folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for index in 0..<count {
            try TestImages.jpeg(width: 160 + index, height: 120, noisy: true)
                .write(to: folder.appendingPathComponent(String(format: "IMG_%04d.JPG", index)))
        }
        return folder
    }

    /// Every object the library's assets point at, by key.
    static func referencedKeys(_ library: PHPhotoLibrary) -> [String] {
        library.withCurrent {
            let assets = PHAsset.fetchAssets(with: nil)
            return (0..<assets.count).flatMap { index in
                PHAssetResource.assetResources(for: assets.object(at: index)).map { String($0.fileURL.path.dropFirst()) }
            }
        }
    }

    @Test func importStoresOriginalsInTheBucketAndLaterCommandsFindIt() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("bucket-cli-\(UUID().uuidString.prefix(8))")
        let library = work.appendingPathComponent("Library.photoslibrary")
        let source = try Self.photos(6, in: work.appendingPathComponent("card"))

        let imported = try CLIRunner.run(
            ["import", source.path, "--originals", "s3://\(bucket.name)/family"], library: library, environment: bucket.environment())
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.contains("Imported 6 photos"), "\(imported.stdout)")
        let keys = try await bucket.keys(under: "family/originals/")
        #expect(keys.count == 6)
        let folderOriginals = FileManager.default.subpaths(atPath: library.appendingPathComponent("originals").path) ?? []
        #expect(folderOriginals.filter { $0.contains(".") }.isEmpty, "no original in the folder: \(folderOriginals)")

        // Later commands find the bucket recorded in the library, without --originals.
        let listed = try CLIRunner.run(["ls", "--json"], library: library, environment: bucket.environment())
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect((try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [Any])?.count == 6)
        // The local copies of its originals: counted, trimmed, fetched again on need.
        let status = try CLIRunner.run(["cache", "status"], library: library, environment: bucket.environment())
        #expect(status.stdout.contains("Originals   6  ("), "\(status.stdout)")
        let trimmed = try CLIRunner.run(["cache", "trim", "--originals-limit", "0"], library: library, environment: bucket.environment())
        #expect(trimmed.stdout.contains("Removed 6 local copies of originals; 0 left"), "\(trimmed.stdout)\(trimmed.stderr)")
        let thumbnail = work.appendingPathComponent("thumbnail.jpg")
        let identifier = try #require(
            (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])?.first?["localIdentifier"] as? String)
        let made = try CLIRunner.run(
            ["thumbnail", identifier, "--size", "64x64", "--output", thumbnail.path], library: library, environment: bucket.environment())
        #expect(made.status == 0 && FileManager.default.fileExists(atPath: thumbnail.path), "\(made.stderr)")

        // Another location for the same library is refused, naming the recorded one.
        let elsewhere = try CLIRunner.run(
            ["ls", "--originals", "s3://\(bucket.name)/other"], library: library, environment: bucket.environment())
        #expect(elsewhere.status == 1 && elsewhere.stderr.contains("s3://\(bucket.name)/family"), "\(elsewhere.stderr)")

        // No secret is written into the library.
        let secret = Data(bucket.server.credentials.secretAccessKey.utf8)
        for path in FileManager.default.subpaths(atPath: library.path) ?? [] {
            guard let data = FileManager.default.contents(atPath: library.appendingPathComponent(path).path) else { continue }
            #expect(data.range(of: secret) == nil, "\(path) holds the secret")
        }
    }

    @Test func aKillDuringUploadsLeavesNoAssetWithoutItsObject() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("bucket-kill-\(UUID().uuidString.prefix(8))")
        let library = work.appendingPathComponent("Library.photoslibrary")
        let count = 200
        let source = try Self.photos(count, in: work.appendingPathComponent("card"))
        try Self.killOnceItStores(
            ["import", source.path, "--originals", "s3://\(bucket.name)/kill", "--library", library.path], prefix: "kill/", bucket: bucket)

        let stored = Set(try await bucket.keys(under: "kill/"))
        let opened = try bucket.open(library)
        let referenced = Self.referencedKeys(opened)
        #expect(referenced.allSatisfy(stored.contains), "every asset's object is in the bucket")
        #expect(referenced.count < count)

        // The import again, to its end: every photo in, every asset's object there.
        let resumed = try CLIRunner.run(
            ["import", source.path], library: library, environment: bucket.environment())
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let after = Set(try await bucket.keys(under: "kill/"))
        let all = Self.referencedKeys(try bucket.open(library))
        #expect(all.count == count && all.allSatisfy(after.contains))

        // What the killed import stored and never committed belongs to nothing: `photos check`
        // names it, `--repair` removes it (here with no grace period), and the library is whole.
        let orphans = after.subtracting(all)
        let checked = try CLIRunner.run(["check"], library: library, environment: bucket.environment())
        #expect(checked.status == (orphans.isEmpty ? 0 : 1), "\(checked.stdout)")
        #expect(orphans.allSatisfy { checked.stdout.contains("orphanObject: s3://\(bucket.name)/\($0)") }, "\(checked.stdout)")
        let repaired = try CLIRunner.run(["check", "--repair", "--orphan-grace", "0"], library: library, environment: bucket.environment())
        #expect(repaired.status == 0, "\(repaired.stdout)\(repaired.stderr)")
        #expect(repaired.stdout.contains("The library is consistent: \(count) assets"), "\(repaired.stdout)")
        #expect(Set(try await bucket.keys(under: "kill/")) == Set(all))
    }

    /// Runs `photos ARGUMENTS` reaching the bucket through a proxy; once its first object is
    /// under `prefix`, the network stops carrying the others (uploads are in flight) and the
    /// process is killed (SIGKILL); then the network comes back.
    static func killOnceItStores(_ arguments: [String], prefix: String, bucket: Bucket) throws {
        let proxy = try TCPProxy(to: bucket.server.port)
        defer { withExtendedLifetime(proxy) {} }
        let process = Process()
        process.executableURL = CLIRunner.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in bucket.environment(endpoint: URL(string: "http://127.0.0.1:\(proxy.port)")!) { environment[key] = value }
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        // Polled from this thread (the suite's other tests may hold Swift concurrency's).
        let client = bucket.client
        while Date() < deadline, process.isRunning,
            try S3Client.waiting({ () async throws(S3Error) in try await client.listObjects(bucket: bucket.name, prefix: prefix) }).isEmpty
        {
            usleep(5_000)
        }
        proxy.pause()
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "killed midway, not finished: \(arguments)")
        proxy.resume()
    }

    /// `photos storage move` killed mid-move (the network stalled after its first object, then
    /// SIGKILL): the library stays whole and usable, and the move run again finishes it.
    @Test func aKilledStorageMoveResumesWhenRunAgain() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("bucket-move-kill-\(UUID().uuidString.prefix(8))")
        let library = work.appendingPathComponent("Library.photoslibrary")
        let count = 60
        let source = try Self.photos(count, in: work.appendingPathComponent("card"))
        #expect(try CLIRunner.run(["import", source.path], library: library).status == 0)
        try Self.killOnceItStores(
            ["storage", "move", "--to", "s3://\(bucket.name)/moving", "--library", library.path], prefix: "moving/", bucket: bucket)

        // Meanwhile the library is whole: every asset listed, and a thumbnail made from an original.
        let listed = try CLIRunner.run(["ls", "--json"], library: library, environment: bucket.environment())
        #expect(listed.status == 0, "\(listed.stderr)")
        let assets = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(assets.count == count)
        let thumbnail = work.appendingPathComponent("thumbnail.jpg")
        let made = try CLIRunner.run(
            ["thumbnail", try #require(assets.last?["localIdentifier"] as? String), "--size", "64x64", "--output", thumbnail.path],
            library: library, environment: bucket.environment())
        #expect(made.status == 0, "\(made.stderr)")

        let resumed = try CLIRunner.run(["storage", "move", "--to", "s3://\(bucket.name)/moving"], library: library, environment: bucket.environment())
        #expect(resumed.status == 0, "\(resumed.stdout)\(resumed.stderr)")
        #expect(try await bucket.keys(under: "moving/originals/").count == count)
        let left = (FileManager.default.subpaths(atPath: library.appendingPathComponent("originals").path) ?? []).filter { $0.contains(".") }
        #expect(left.isEmpty, "\(left)")
        let checked = try CLIRunner.run(["check"], library: library, environment: bucket.environment())
        #expect(checked.status == 0, "\(checked.stdout)")
    }

    @Test func storageMoveTakesTheOriginalsIntoTheBucketAndBack() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("bucket-move-\(UUID().uuidString.prefix(8))")
        let library = work.appendingPathComponent("Library.photoslibrary")
        let source = try Self.photos(5, in: work.appendingPathComponent("card"))
        #expect(try CLIRunner.run(["import", source.path], library: library).status == 0)

        let there = try CLIRunner.run(["storage", "move", "--to", "s3://\(bucket.name)/moved"], library: library, environment: bucket.environment())
        #expect(there.status == 0 && there.stdout.contains("Moved 5 files"), "\(there.stdout)\(there.stderr)")
        #expect(try await bucket.keys(under: "moved/").count == 5)
        let checked = try CLIRunner.run(["check"], library: library, environment: bucket.environment())
        #expect(checked.status == 0, "\(checked.stdout)")

        let wrong = try CLIRunner.run(["storage", "move", "--to", work.path], library: library, environment: bucket.environment())
        #expect(wrong.status == 1 && wrong.stderr.contains("library's own folder"), "\(wrong.stderr)")
        let back = try CLIRunner.run(["storage", "move", "--to", library.path], library: library, environment: bucket.environment())
        #expect(back.status == 0 && back.stdout.contains("Moved 5 files"), "\(back.stdout)\(back.stderr)")
        #expect(try await bucket.keys(under: "moved/").isEmpty)
        // Back in its folder, the library opens without any AWS settings.
        #expect(try CLIRunner.run(["check"], library: library).status == 0)
    }
}
