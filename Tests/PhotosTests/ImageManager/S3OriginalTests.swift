import Foundation
import PhotosLocking
import PhotosTestSupport
import S3
import Testing

@testable import Photos

/// Originals in an S3 bucket (`s3://BUCKET/KEY`), read as iCloud originals are: moto's S3
/// server on loopback, a bucket of each test's own.
@Suite("Originals in an S3 bucket", .enabled(if: ThrowawayS3.isAvailable, Comment(rawValue: ThrowawayS3.unavailableReason ?? "")))
struct S3OriginalTests {
    /// A server, a bucket with a photo at `store/IMG 0001.JPG`, and the library's way to it.
    struct Bucket {
        let server: ThrowawayS3
        let name: String
        let client: S3Client
        let photo: Data
        let key = "store/IMG 0001.JPG"

        init() async throws {
            server = try ThrowawayS3()
            name = "photos-\(UUID().uuidString.prefix(8).lowercased())"
            let configuration = S3Configuration(
                credentials: AWSCredentials(accessKeyID: server.credentials.accessKeyID, secretAccessKey: server.credentials.secretAccessKey),
                endpoint: server.endpoint)
            client = S3Client(configuration: configuration, retry: .init(attempts: 2, baseDelay: .milliseconds(10)))
            try await client.createBucket(name)
            photo = try TestImages.jpeg(width: 900, height: 600, noisy: true)
            try await client.putObject(bucket: name, key: key, data: photo, contentType: "image/jpeg")
            S3Originals.use(configuration, forBucket: name)
        }

        var url: URL { URL(string: "s3://\(name)/store/IMG%200001.JPG")! }

        func asset(in temporary: TemporaryLibrary) throws -> PHAsset {
            var identifier: String?
            let options = PHAssetResourceCreationOptions()
            options.shouldReferenceFile = true
            try temporary.library.performChangesAndWait {
                let request = PHAssetCreationRequest.forAsset()
                request.addResource(with: .photo, fileURL: url, options: options)
                identifier = request.placeholderForCreatedAsset?.localIdentifier
            }
            let created = try #require(identifier)
            return try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [created], options: nil).firstObject })
        }
    }

    @Test func withoutNetworkAccessItIsInTheCloudWithItItIsFetchedWithProgressThenCached() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let temporary = try TemporaryLibrary()
        let asset = try bucket.asset(in: temporary)
        #expect(asset.pixelWidth == 900 && asset.pixelHeight == 600)
        #expect(temporary.originalFiles().isEmpty, "the original stays in the bucket")
        #expect(temporary.library.withCurrent { PHAssetResource.assetResources(for: asset).first?.fileURL } == bucket.url)

        let refused = PHImageManagerTests.request(asset, CGSize(width: 100, height: 100)) { $0.deliveryMode = .highQualityFormat }
        #expect(refused.count == 1 && refused.first?.image == nil)
        #expect((refused.first?.info[PHImageResultIsInCloudKey] as? NSNumber)?.boolValue == true)
        #expect((refused.first?.error as? PHPhotosError)?.code == .networkAccessRequired)

        let fractions = Mutex<[Double]>([])
        let got = PHImageManagerTests.request(asset, CGSize(width: 300, height: 300)) {
            $0.deliveryMode = .highQualityFormat
            $0.isNetworkAccessAllowed = true
            $0.progressHandler = { fraction, _, _, _ in fractions.withLock { $0.append(fraction) } }
        }
        #expect(got.first?.image?.size == CGSize(width: 300, height: 200), "\(String(describing: got.first?.error))")
        let seen = fractions.withLock { $0 }
        #expect(!seen.isEmpty && seen == seen.sorted() && seen.last == 1, "\(seen)")

        // The local copy serves now, even with the object gone from the bucket.
        try await bucket.client.deleteObject(bucket: bucket.name, key: bucket.key)
        let again = PHImageManagerTests.request(asset, CGSize(width: 120, height: 120)) { $0.deliveryMode = .highQualityFormat }
        #expect(again.first?.image?.size == CGSize(width: 120, height: 80))
    }

    @Test func anObjectDeletedBehindTheLibrarysBackIsAClearErrorAndStopsNothingElse() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let temporary = try TemporaryLibrary()
        let asset = try bucket.asset(in: temporary)
        try await bucket.client.deleteObject(bucket: bucket.name, key: bucket.key)

        let got = PHImageManagerTests.request(asset, CGSize(width: 100, height: 100)) {
            $0.deliveryMode = .highQualityFormat
            $0.isNetworkAccessAllowed = true
        }
        #expect(got.first?.image == nil)
        let error = try #require(got.first?.error as? PHPhotosError)
        #expect(error.code == .missingResource, "\(error)")
        #expect(error.localizedDescription.contains("s3://\(bucket.name)/\(bucket.key)") && error.localizedDescription.contains("NoSuchKey"), "\(error)")
        // The library goes on: another asset is added and read.
        try temporary.seed([SyntheticAsset(creationDate: Date(), isFavorite: true)])
        #expect(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).count } == 2)
    }

    @Test func aProgressHandlerThatStopsTheFetchCancelsIt() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let temporary = try TemporaryLibrary()
        let asset = try bucket.asset(in: temporary)
        let got = PHImageManagerTests.request(asset, CGSize(width: 100, height: 100)) {
            $0.deliveryMode = .highQualityFormat
            $0.isNetworkAccessAllowed = true
            $0.progressHandler = { _, _, stop, _ in stop.pointee = true }
        }
        #expect(got.first?.image == nil)
        #expect((got.first?.error as? PHPhotosError)?.code == .userCancelled, "\(String(describing: got.first?.error))")
    }

    @Test func aBucketThatCantBeReachedFailsTheAddNamingIt() throws {
        let temporary = try TemporaryLibrary()
        let port = try ThrowawayPostgres.freePort()
        S3Originals.use(
            S3Configuration(credentials: AWSCredentials(accessKeyID: "a", secretAccessKey: "b"), endpoint: URL(string: "http://127.0.0.1:\(port)")!),
            forBucket: "unreachable")
        let options = PHAssetResourceCreationOptions()
        options.shouldReferenceFile = true
        #expect {
            try temporary.library.performChangesAndWait {
                PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: URL(string: "s3://unreachable/a.jpg")!, options: options)
            }
        } throws: { error in
            (error as? PHPhotosError)?.code == .networkError && error.localizedDescription.contains("127.0.0.1:\(port)")
        }
        #expect(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).count } == 0)
    }
}
