import Foundation
import Imaging
import PhotosLocking
import PhotosS3
import PhotosStore
import PhotosTestSupport
import S3
import Testing

@testable import Photos

/// Libraries whose originals are in an S3 bucket (`PHPhotoLibrary(url:originals:)`): moto's S3
/// server on loopback, a bucket of each test's own.
@Suite("Libraries with originals in a bucket", .blocking, .enabled(if: ThrowawayS3.isAvailable, Comment(rawValue: ThrowawayS3.unavailableReason ?? "")))
struct BucketLibraryTests {
    /// A server and a bucket the library's process reaches with `configuration`.
    struct Bucket {
        let server: ThrowawayS3
        let name: String
        let configuration: S3Configuration
        let client: S3Client

        init(enforcesSignatures: Bool = false) async throws {
            server = try ThrowawayS3(enforcesSignatures: enforcesSignatures)
            name = "photos-\(UUID().uuidString.prefix(8).lowercased())"
            configuration = S3Configuration(
                credentials: AWSCredentials(accessKeyID: server.credentials.accessKeyID, secretAccessKey: server.credentials.secretAccessKey),
                endpoint: server.endpoint)
            client = S3Client(configuration: configuration, retry: .init(attempts: 2, baseDelay: .milliseconds(10)))
            try await client.createBucket(name)
            S3ObjectStorage.shared.use(configuration, forBucket: name)
            PHPhotoLibrary.enableS3Originals()
        }

        func location(_ prefix: String) -> URL { URL(string: "s3://\(name)/\(prefix)")! }

        func keys(under prefix: String) async throws -> [String] {
            try await client.listObjects(bucket: name, prefix: prefix).map(\.key).sorted()
        }
    }

    /// A new library folder whose originals go to `location`.
    static func library(_ location: URL, function: String = #function) throws -> TemporaryLibrary {
        var configuration = PHPhotoLibrary.Configuration()
        configuration.originals = location
        return try TemporaryLibrary(configuration: configuration, function: function)
    }

    /// Adds photos (copies of files written to the scratch folder); their identifiers.
    static func add(_ photos: [Data], to temporary: TemporaryLibrary) throws -> [String] {
        var identifiers: [String] = []
        let files = try photos.enumerated().map { index, data in
            let file = temporary.scratch.appendingPathComponent("IMG_\(1000 + index).JPG")
            try data.write(to: file)
            return file
        }
        try temporary.library.performChangesAndWait {
            for file in files {
                let request = PHAssetCreationRequest.forAsset()
                request.addResource(with: .photo, fileURL: file, options: nil)
                identifiers.append(request.placeholderForCreatedAsset!.localIdentifier)
            }
        }
        return identifiers
    }

    /// A synchronous image request: the image, or the error and whether it is "in the cloud".
    static func image(
        _ asset: PHAsset, _ size: CGSize, _ mode: PHImageContentMode = .aspectFit, network: Bool,
        progress: PHAssetImageProgressHandler? = nil
    ) -> (image: UIImage?, error: PHPhotosError?, inCloud: Bool) {
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        options.deliveryMode = .highQualityFormat
        options.resizeMode = .exact
        options.isNetworkAccessAllowed = network
        options.progressHandler = progress
        nonisolated(unsafe) var result: (UIImage?, PHPhotosError?, Bool) = (nil, nil, false)
        PHImageManager.default().requestImage(for: asset, targetSize: size, contentMode: mode, options: options) { image, info in
            result = (image, info?[PHImageErrorKey] as? PHPhotosError, (info?[PHImageResultIsInCloudKey] as? NSNumber)?.boolValue ?? false)
        }
        return result
    }

    static func asset(_ identifier: String, in library: PHPhotoLibrary) throws -> PHAsset {
        try #require(library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil).firstObject })
    }

    /// Files under the library's `cache/remote/` (the local copies of its objects).
    static func localCopies(_ temporary: TemporaryLibrary) -> [URL] {
        let folder = temporary.url.appendingPathComponent("cache/remote")
        let names = (FileManager.default.subpaths(atPath: folder.path) ?? []).filter { $0.contains("_") }
        return names.map { folder.appendingPathComponent($0) }
    }

    @Test func originalsAreStoredInTheBucketConfirmedAndReadAsICloudOnes() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let temporary = try Self.library(bucket.location("family"))
        let photos = try [TestImages.jpeg(width: 900, height: 600, noisy: true), TestImages.jpeg(width: 640, height: 480, noisy: true)]
        let identifiers = try Self.add(photos, to: temporary)

        // Each original is an object under the prefix, its SHA-256 confirmed by the store.
        let keys = try await bucket.keys(under: "family/")
        #expect(keys.count == 2 && keys.allSatisfy { $0.hasPrefix("family/originals/") }, "\(keys)")
        #expect(temporary.originalFiles().isEmpty, "nothing under originals/ in the folder")
        let asset = try Self.asset(identifiers[0], in: temporary.library)
        let resource = try #require(temporary.library.withCurrent { PHAssetResource.assetResources(for: asset).first })
        let object = resource.fileURL
        #expect(object.scheme == "s3" && object.host == bucket.name)
        let info = try await bucket.client.headObject(bucket: bucket.name, key: String(object.path.dropFirst()))
        #expect(info.size == Int64(photos[0].count))
        #expect(info.checksumSHA256 == Data(TestHash.sha256(photos[0])).base64EncodedString())

        // What was just added is read without a download: its staged file is the local copy.
        #expect(Self.localCopies(temporary).count == 2)
        #expect(Self.image(asset, CGSize(width: 300, height: 300), network: false).image?.size == CGSize(width: 300, height: 200))
        // The grid thumbnail is made (and kept in the folder) while the copy is there.
        #expect(Self.image(asset, CGSize(width: 200, height: 200), .aspectFill, network: false).image?.size == CGSize(width: 200, height: 200))

        // Without the local copy (another machine, an evicted cache): thumbnails are local,
        // the original is in the cloud (3164) unless network access is allowed.
        for copy in Self.localCopies(temporary) { try FileManager.default.removeItem(at: copy) }
        let thumbnail = Self.image(asset, CGSize(width: 200, height: 200), .aspectFill, network: false)
        #expect(thumbnail.image?.size == CGSize(width: 200, height: 200), "\(String(describing: thumbnail.error))")
        let refused = Self.image(asset, CGSize(width: 800, height: 800), network: false)
        #expect(refused.image == nil && refused.error?.code == .networkAccessRequired && refused.inCloud)
        let fractions = Mutex<[Double]>([])
        let fetched = Self.image(asset, CGSize(width: 800, height: 800), network: true) { fraction, _, _, _ in
            fractions.withLock { $0.append(fraction) }
        }
        #expect(fetched.image?.size == CGSize(width: 800, height: 533), "\(String(describing: fetched.error))")
        let seen = fractions.withLock { $0 }
        #expect(!seen.isEmpty && seen == seen.sorted() && seen.last == 1, "\(seen)")

        // Every later open finds the bucket recorded in the library.
        let again = try temporary.openAgain()
        #expect(again.withCurrent { PHAsset.fetchAssets(with: nil).count } == 2)
        let reopened = try Self.asset(identifiers[1], in: again)
        #expect(Self.image(reopened, CGSize(width: 320, height: 320), network: true).image?.size == CGSize(width: 320, height: 240))
    }

    /// A video whose movie is only in the bucket: its requests behave as with iCloud (3164
    /// without network access; with it, a download with progress), and cancelling during the
    /// download stops it, keeping no partial copy.
    @Test(.enabled(if: TestClip.isAvailable, "needs ffmpeg"))
    func videoRequestsFetchFromTheBucketWithProgressAndStopWhenCancelled() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let temporary = try Self.library(bucket.location("videos"))
        var clip = TestClip()
        clip.width = 1280
        clip.height = 720
        clip.duration = 3
        let file = try clip.write(to: temporary.scratch.appendingPathComponent("clip.mp4"))
        var identifier: String?
        try temporary.library.performChangesAndWait {
            identifier = PHAssetChangeRequest.creationRequestForAssetFromVideo(atFileURL: file)?.placeholderForCreatedAsset?.localIdentifier
        }
        let video = try Self.asset(try #require(identifier), in: temporary.library)
        func dropCopies() throws { for copy in Self.localCopies(temporary) { try FileManager.default.removeItem(at: copy) } }
        try dropCopies()

        let refused = await withCheckedContinuation { (continuation: CheckedContinuation<[AnyHashable: Any], Never>) in
            PHImageManager.default().requestAVAsset(forVideo: video, options: nil) { _, _, info in
                nonisolated(unsafe) let info = info ?? [:]
                continuation.resume(returning: info)
            }
        }
        #expect((refused[PHImageErrorKey] as? PHPhotosError)?.code == .networkAccessRequired)
        #expect((refused[PHImageResultIsInCloudKey] as? NSNumber)?.boolValue == true)

        let fractions = Mutex<[Double]>([])
        let options = PHVideoRequestOptions()
        options.isNetworkAccessAllowed = true
        options.progressHandler = { fraction, _, _, _ in fractions.withLock { $0.append(fraction) } }
        let item = try await PHImageManager.default().playerItem(forVideo: video, options: options)
        #expect(item.status == .readyToPlay)
        let seen = fractions.withLock { $0 }
        #expect(seen.count > 1 && seen == seen.sorted() && seen.last == 1, "\(seen)")
        #expect(Self.localCopies(temporary).count == 1, "the fetched movie is kept as the local copy")

        // Cancelled from its first progress report: the download stops at its next chunk.
        try dropCopies()
        let manager = PHImageManager()
        let requestID = Mutex<PHImageRequestID?>(nil)
        let delivered = Mutex<[Bool]>([])
        let done = AsyncStream<Void>.makeStream()
        let cancelling = PHVideoRequestOptions()
        cancelling.isNetworkAccessAllowed = true
        cancelling.progressHandler = { _, _, _, _ in
            if let id = requestID.withLock({ $0 }) { manager.cancelImageRequest(id) }
        }
        let id = manager.requestPlayerItem(forVideo: video, options: cancelling) { item, info in
            let cancelled = (info?[PHImageCancelledKey] as? NSNumber)?.boolValue == true
            delivered.withLock { $0.append(item == nil && cancelled) }
            done.continuation.yield()
        }
        requestID.withLock { $0 = id }
        for await _ in done.stream { break }
        await withCheckedContinuation { continuation in MediaRequests.queue.async(flags: .barrier) { continuation.resume() } }
        #expect(delivered.withLock { $0 } == [true])
        #expect(Self.localCopies(temporary).isEmpty, "no partial copy kept")
    }

    /// Words in a photo whose original is only in the bucket are read (issue 37): the original
    /// is fetched into the cache of originals, as a view of it fetches it. With the bucket away
    /// the photo is tried again later, never skipped for the store's fault.
    @Test(.enabled(if: TextRecognitionWork.isAvailable, "needs tesseract (apt install tesseract-ocr)"))
    func wordsInAPhotoOnlyInTheBucketAreRead() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        var configuration = PHPhotoLibrary.Configuration()
        configuration.originals = bucket.location("family")
        configuration.textRecognizer = TextRecognizer(languages: ["eng"], timeout: 60)
        let temporary = try TemporaryLibrary(configuration: configuration)
        let text = temporary.library.textRecognition
        func dropCopies() throws { for copy in Self.localCopies(temporary) { try FileManager.default.removeItem(at: copy) } }

        let read = try Self.add([VipsImage.text("Lighthouse keeper", dpi: 300).jpegData(quality: 92)], to: temporary)
        try dropCopies()
        #expect(try text.readAllDue(workers: 1).done == 1)
        func search(_ words: String) throws -> [String] {
            let found = try temporary.library.withCurrent { try PHAsset.fetchAssets(matching: words, options: nil) }
            return found.objects(at: IndexSet(0..<found.count)).map(\.localIdentifier)
        }
        #expect(try search("lighthouse") == read)
        #expect(Self.localCopies(temporary).count == 1, "fetched into the cache of originals")

        _ = try Self.add([VipsImage.text("Harbour master", dpi: 300).jpegData(quality: 92)], to: temporary)
        try dropCopies()
        bucket.server.stopServer()
        for _ in 0..<TextRecognitionWork.maximumAttempts + 1 {
            _ = try text.readAllDue(workers: 1)
        }
        let counts = try text.counts()
        #expect(counts.done == 1 && counts.failed == 1 && counts.skipped == 0, "\(counts)")
        let failure = try #require(text.failures().first)
        #expect(failure.attempts == TextRecognitionWork.maximumAttempts + 1 && (failure.lastError ?? "").contains(bucket.name), "\(failure)")
        #expect(try search("harbour").isEmpty)
    }

    @Test func deletingAnAssetForGoodRemovesItsObjectAndNothingElse() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let temporary = try Self.library(bucket.location("deleting"))
        let identifiers = try Self.add(
            [try TestImages.jpeg(width: 300, height: 200, noisy: true), try TestImages.jpeg(width: 200, height: 300, noisy: true)], to: temporary)
        #expect(try await bucket.keys(under: "deleting/").count == 2)
        let doomed = try Self.asset(identifiers[0], in: temporary.library)
        let object = try #require(temporary.library.withCurrent { PHAssetResource.assetResources(for: doomed).first?.fileURL })
        let trashed = try Self.asset(identifiers[1], in: temporary.library)
        try temporary.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([trashed] as NSArray) }
        #expect(try await bucket.keys(under: "deleting/").count == 2, "Recently Deleted keeps the original")
        try temporary.library.performChangesAndWait { PHAssetChangeRequest.deleteAssetsPermanently([doomed] as NSArray) }
        let left = try await bucket.keys(under: "deleting/")
        #expect(left.count == 1 && !left.contains(String(object.path.dropFirst())), "\(left)")
    }

    @Test func aLibraryKeepsTheLocationItWasCreatedWith() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let temporary = try Self.library(bucket.location("first/"))
        var moved = PHPhotoLibrary.Configuration()
        moved.originals = bucket.location("second")
        #expect {
            try temporary.openAgain(configuration: moved)
        } throws: { error in
            let message = (error as? PHPhotosError)?.localizedDescription ?? ""
            return message.contains("s3://\(bucket.name)/first") && message.contains("photos storage move")
        }
        // The same place, spelled with a trailing slash, is the same place.
        var same = PHPhotoLibrary.Configuration()
        same.originals = bucket.location("first")
        _ = try temporary.openAgain(configuration: same)

        // A library holding originals in its folder is moved, not switched.
        let folderLibrary = try TemporaryLibrary()
        _ = try Self.add([try TestImages.jpeg(width: 64, height: 48)], to: folderLibrary)
        #expect {
            try folderLibrary.openAgain(configuration: same)
        } throws: { error in
            (error as? PHPhotosError)?.localizedDescription.contains("photos storage move") == true
        }
    }

    @Test func aMissingBucketOrRefusedCredentialsAreNamedWhenTheLibraryOpens() async throws {
        let open = try await Bucket()
        defer { withExtendedLifetime(open) {} }
        let missing = "photos-missing-\(UUID().uuidString.prefix(6).lowercased())"
        S3ObjectStorage.shared.use(open.configuration, forBucket: missing)
        #expect {
            try Self.library(URL(string: "s3://\(missing)/library")!)
        } throws: { error in
            let error = error as? PHPhotosError
            return error?.code == .libraryVolumeOffline && error?.localizedDescription.contains("NoSuchBucket") == true
        }

        // moto checks signatures only on a server that enforces them.
        let bucket = try await Bucket(enforcesSignatures: true)
        defer { withExtendedLifetime(bucket) {} }

        let secret = "not-the-secret-\(UUID().uuidString.prefix(6))"
        let wrong = "photos-wrong-\(UUID().uuidString.prefix(6).lowercased())"
        try await bucket.client.createBucket(wrong)
        S3ObjectStorage.shared.use(
            S3Configuration(
                credentials: AWSCredentials(accessKeyID: bucket.server.credentials.accessKeyID, secretAccessKey: secret),
                endpoint: bucket.server.endpoint),
            forBucket: wrong)
        #expect {
            try Self.library(URL(string: "s3://\(wrong)/library")!)
        } throws: { error in
            let message = (error as? PHPhotosError)?.localizedDescription ?? ""
            return message.contains("SignatureDoesNotMatch") && !message.contains(secret)
        }
    }

    /// A clock past the signature window (the store's an hour ahead, as a proxy that checks
    /// signing times as AWS does makes it) is named when the library opens, before any upload.
    @Test func aSkewedClockIsNamedWhenTheLibraryOpens() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let skewed = try S3FaultProxy(target: bucket.server.endpoint, failures: 0, storeClockAhead: 3_600)
        defer { withExtendedLifetime(skewed) {} }
        var through = bucket.configuration
        through.endpoint = skewed.endpoint
        let name = "photos-skew-\(UUID().uuidString.prefix(6).lowercased())"
        try await bucket.client.createBucket(name)
        S3ObjectStorage.shared.use(through, forBucket: name)
        #expect {
            try Self.library(URL(string: "s3://\(name)/library")!)
        } throws: { error in
            let error = error as? PHPhotosError
            return error?.code == .libraryVolumeOffline && error?.localizedDescription.contains("RequestTimeTooSkewed") == true
                && error?.localizedDescription.contains("60 minutes behind the store's") == true
        }
        #expect(try await bucket.client.listObjects(bucket: name).isEmpty)
    }

    @Test func aStormOf503sFailsTheChangeClearlyAndCommitsNothing() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let temporary = try Self.library(bucket.location("storm"))
        let proxy = try S3FaultProxy(target: bucket.server.endpoint, failures: 1_000)
        defer { withExtendedLifetime(proxy) {} }
        var through = bucket.configuration
        through.endpoint = proxy.endpoint
        S3ObjectStorage.shared.use(through, forBucket: bucket.name, retry: .init(attempts: 3, baseDelay: .milliseconds(5)))
        #expect {
            _ = try Self.add([try TestImages.jpeg(width: 120, height: 80, noisy: true)], to: temporary)
        } throws: { error in
            let error = error as? PHPhotosError
            return error?.code == .networkError && error?.localizedDescription.contains("SlowDown") == true
                && error?.localizedDescription.contains("after 3 attempts") == true
        }
        #expect(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).count } == 0)
        #expect(try await bucket.keys(under: "storm/").isEmpty)
        #expect(Self.localCopies(temporary).isEmpty)

        // The store back: the same file goes in.
        S3ObjectStorage.shared.use(bucket.configuration, forBucket: bucket.name)
        _ = try Self.add([try TestImages.jpeg(width: 120, height: 80, noisy: true)], to: temporary)
        #expect(try await bucket.keys(under: "storm/").count == 1)
    }

    @Test func checkNamesAnAssetWhoseObjectIsGoneAndRepairRemovesOrphansAfterTheirGrace() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let temporary = try Self.library(bucket.location("check"))
        let identifiers = try Self.add(
            [try TestImages.jpeg(width: 300, height: 200, noisy: true), try TestImages.jpeg(width: 200, height: 300, noisy: true)], to: temporary)
        #expect(try temporary.library.checkConsistency().isConsistent)

        // An upload whose change never committed, and an object deleted behind the library's back.
        let orphan = "check/originals/0/00000000-ORPHAN.jpeg"
        try await bucket.client.putObject(bucket: bucket.name, key: orphan, data: Data("orphan".utf8))
        let gone = try Self.asset(identifiers[0], in: temporary.library)
        let goneObject = try #require(temporary.library.withCurrent { PHAssetResource.assetResources(for: gone).first?.fileURL })
        try await bucket.client.deleteObject(bucket: bucket.name, key: String(goneObject.path.dropFirst()))

        let report = try temporary.library.checkConsistency()
        let kinds = report.problems.map(\.kind)
        #expect(kinds.sorted { $0.rawValue < $1.rawValue } == [.missingFile, .orphanObject], "\(report.problems)")
        #expect(report.problems.contains { $0.kind == .missingFile && $0.detail.contains(identifiers[0]) })
        #expect(report.problems.contains { $0.kind == .orphanObject && $0.detail.contains(orphan) })

        // Its requests fail clearly once no local copy is left; the other asset is untouched.
        for copy in Self.localCopies(temporary) { try FileManager.default.removeItem(at: copy) }
        let failed = Self.image(gone, CGSize(width: 100, height: 100), network: true)
        #expect(failed.error?.code == .missingResource && failed.error?.localizedDescription.contains("NoSuchKey") == true, "\(String(describing: failed.error))")
        let other = try Self.asset(identifiers[1], in: temporary.library)
        #expect(Self.image(other, CGSize(width: 100, height: 100), network: true).image != nil)

        // Younger than the grace period: kept (a change may still be uploading); then removed.
        let kept = try temporary.library.repairOrphanObjects(grace: 3_600)
        #expect(kept.removed.isEmpty && kept.kept.map(\.path) == ["/" + orphan])
        let removed = try temporary.library.repairOrphanObjects(grace: 0)
        #expect(removed.removed.map(\.path) == ["/" + orphan])
        #expect(try await !bucket.keys(under: "check/").contains(orphan))
    }

    @Test func theCacheOfOriginalsKeepsToItsBudgetLeastRecentlyUsedFirst() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let temporary = try Self.library(bucket.location("cache"))
        let library = temporary.library
        let identifiers = try Self.add(
            [
                try TestImages.jpeg(width: 500, height: 400, noisy: true), try TestImages.jpeg(width: 400, height: 300, noisy: true),
                try TestImages.jpeg(width: 300, height: 200, noisy: true),
            ], to: temporary)
        let copies = try identifiers.map { identifier in
            let asset = try Self.asset(identifier, in: library)
            return try #require(Self.localCopies(temporary).first { $0.lastPathComponent.hasPrefix(asset.uuid) })
        }
        let sizes = try copies.map { try #require(FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? NSNumber).int64Value }
        var status = library.originalsCacheStatus()
        #expect(status.files == 3 && status.bytes == sizes.reduce(0, +) && status.limit == 16 << 30)

        // Used last: the second, then the third, then the first (a day apart).
        let now = Date()
        for (index, age) in [(0, 3.0), (1, 1.0), (2, 2.0)] {
            try FileManager.default.setAttributes([.modificationDate: now.addingTimeInterval(-age * 86_400)], ofItemAtPath: copies[index].path)
        }
        #expect(library.trimOriginalsCache(toBytes: sizes[1] + sizes[2]) == 1)
        #expect(Self.localCopies(temporary).map(\.lastPathComponent).sorted() == [copies[1], copies[2]].map(\.lastPathComponent).sorted())

        // A budget below what is kept trims at once; a fetch past it keeps the copy it reads.
        library.originalsCacheLimit = sizes[1]
        #expect(Self.localCopies(temporary).map(\.lastPathComponent) == [copies[1].lastPathComponent])
        let first = try Self.asset(identifiers[0], in: library)
        #expect(Self.image(first, CGSize(width: 500, height: 500), network: true).image?.size == CGSize(width: 500, height: 400))
        status = library.originalsCacheStatus()
        #expect(status.files == 1 && status.bytes == sizes[0] && status.limit == sizes[1], "\(status)")
    }

    @Test func editsAreKeptInTheBucketAndReadBackWithTheirAdjustmentData() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let temporary = try Self.library(bucket.location("edits"))
        let library = temporary.library
        let photo = temporary.scratch.appendingPathComponent("edit-me.jpg")
        try TestImages.jpeg(width: 300, height: 200, noisy: true).write(to: photo)
        let identifier = try Self.add([try Data(contentsOf: photo)], to: temporary)[0]

        func edit(quarterTurns: Int) throws {
            let asset = try Self.asset(identifier, in: library)
            let input = try #require(Self.editingInput(asset))
            let output = PHContentEditingOutput(contentEditingInput: input)
            try PHBasicAdjustments(quarterTurns: quarterTurns).render(imageAt: photo, to: output.renderedContentURL)
            output.adjustmentData = PHBasicAdjustments(quarterTurns: quarterTurns).adjustmentData
            try library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
        }
        try edit(quarterTurns: 1)
        var keys = try await bucket.keys(under: "edits/")
        #expect(keys.filter { $0.hasPrefix("edits/renders/") }.count == 2 && keys.count == 3, "\(keys)")
        let folderRenders = FileManager.default.subpaths(atPath: temporary.url.appendingPathComponent("renders").path) ?? []
        #expect(folderRenders.filter { $0.contains(".") }.isEmpty, "no edit in the folder: \(folderRenders)")

        // Read back on another machine (no local copies, no derivatives): the edit, fetched.
        for copy in Self.localCopies(temporary) { try FileManager.default.removeItem(at: copy) }
        try? FileManager.default.removeItem(at: temporary.url.appendingPathComponent("derivatives"))
        let edited = try Self.asset(identifier, in: library)
        #expect(edited.pixelWidth == 200 && edited.pixelHeight == 300)
        #expect(Self.image(edited, CGSize(width: 150, height: 150), network: false).error?.code == .networkAccessRequired)
        #expect(Self.image(edited, CGSize(width: 150, height: 150), network: true).image?.size == CGSize(width: 100, height: 150))
        let resumed = try #require(Self.editingInput(edited))
        #expect(resumed.adjustmentData?.formatIdentifier == PHBasicAdjustments(quarterTurns: 1).adjustmentData.formatIdentifier)

        // Another edit replaces the first one's objects; a revert removes the edit's.
        try edit(quarterTurns: 2)
        keys = try await bucket.keys(under: "edits/")
        #expect(keys.count == 3, "\(keys)")
        try library.performChangesAndWait { PHAssetChangeRequest(for: try! Self.asset(identifier, in: library)).revertAssetContentToOriginal() }
        keys = try await bucket.keys(under: "edits/")
        #expect(keys.count == 1 && keys[0].hasPrefix("edits/originals/"), "\(keys)")
    }

    @Test func storageMoveTakesAFolderLibrarysOriginalsIntoTheBucketAndBack() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let identifiers = try Self.add(
            [
                try TestImages.jpeg(width: 320, height: 240, noisy: true), try TestImages.jpeg(width: 240, height: 320, noisy: true),
                try TestImages.jpeg(width: 200, height: 200, noisy: true),
            ], to: temporary)
        #expect(temporary.originalFiles().count == 3)

        var reports: [Int] = []
        let moved = try library.moveOriginals(to: bucket.location("moved")) { reports.append($0.moved) }
        #expect(moved.moved == 3 && moved.skipped.isEmpty && reports.last == 3)
        #expect(try await bucket.keys(under: "moved/originals/").count == 3)
        #expect(temporary.originalFiles().isEmpty, "the files became local copies")
        #expect(try library.checkConsistency().isConsistent)
        // New originals go to the bucket at once; a second run has nothing left to move.
        _ = try Self.add([try TestImages.jpeg(width: 100, height: 80, noisy: true)], to: temporary)
        #expect(try await bucket.keys(under: "moved/originals/").count == 4)
        #expect(try library.moveOriginals(to: bucket.location("moved")).moved == 0)
        // Read from the bucket on another machine.
        for copy in Self.localCopies(temporary) { try FileManager.default.removeItem(at: copy) }
        let asset = try Self.asset(identifiers[0], in: library)
        #expect(Self.image(asset, CGSize(width: 320, height: 320), network: true).image?.size == CGSize(width: 320, height: 240))
        // Another bucket while the originals are in this one is refused.
        #expect(throws: PHPhotosError.self) { try library.moveOriginals(to: bucket.location("elsewhere")) }

        // Back into the folder: every object fetched, checked by its SHA-256, and removed.
        let back = try library.moveOriginals(to: nil)
        #expect(back.moved == 4 && back.skipped.isEmpty)
        #expect(try await bucket.keys(under: "moved/").isEmpty)
        #expect(temporary.originalFiles().count == 4)
        #expect(try library.checkConsistency().isConsistent)
        let again = try temporary.openAgain()
        #expect(again.withCurrent { PHAsset.fetchAssets(with: nil).count } == 4)
        #expect(Self.image(try Self.asset(identifiers[1], in: again), CGSize(width: 100, height: 100), network: false).image != nil)
    }

    static func editingInput(_ asset: PHAsset) -> PHContentEditingInput? {
        let done = DispatchSemaphore(value: 0)
        let input = Mutex<UncheckedSendable<PHContentEditingInput?>>(UncheckedSendable(nil))
        let options = PHContentEditingInputRequestOptions()
        options.isNetworkAccessAllowed = true
        options.canHandleAdjustmentData = { _ in true }
        asset.requestContentEditingInput(with: options) { value, _ in
            input.withLock { $0 = UncheckedSendable(value) }
            done.signal()
        }
        done.wait()
        return input.withLock { $0.value }
    }
}

enum TestHash {
    static func sha256(_ data: Data) -> [UInt8] {
        let hex = Array(ContentHash.sha256(of: data).utf8)
        return stride(from: 0, to: hex.count, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
    }
}
