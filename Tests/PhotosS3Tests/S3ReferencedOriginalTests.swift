import Foundation
import PhotosLocking
import PhotosS3
import PhotosTestSupport
import S3
import Testing

@testable import Photos

/// Originals referenced where they are in an S3 bucket (`s3://BUCKET/KEY` with
/// `shouldReferenceFile`), read as iCloud originals are: moto's S3 server on loopback, a bucket
/// of each test's own.
@Suite("Originals referenced in an S3 bucket", .blocking, .enabled(if: ThrowawayS3.isAvailable, Comment(rawValue: ThrowawayS3.unavailableReason ?? "")))
struct S3ReferencedOriginalTests {
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
            S3ObjectStorage.shared.use(configuration, forBucket: name)
            PHPhotoLibrary.enableS3Originals()
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

        let refused = BucketLibraryTests.image(asset, CGSize(width: 100, height: 100), network: false)
        #expect(refused.image == nil && refused.inCloud)
        #expect(refused.error?.code == .networkAccessRequired)

        let fractions = Mutex<[Double]>([])
        let got = BucketLibraryTests.image(asset, CGSize(width: 300, height: 300), network: true) { fraction, _, _, _ in
            fractions.withLock { $0.append(fraction) }
        }
        #expect(got.image?.size == CGSize(width: 300, height: 200), "\(String(describing: got.error))")
        let seen = fractions.withLock { $0 }
        #expect(!seen.isEmpty && seen == seen.sorted() && seen.last == 1, "\(seen)")

        // The local copy serves now, even with the object gone from the bucket.
        try await bucket.client.deleteObject(bucket: bucket.name, key: bucket.key)
        let again = BucketLibraryTests.image(asset, CGSize(width: 120, height: 120), network: false)
        #expect(again.image?.size == CGSize(width: 120, height: 80))
    }

    @Test func anObjectDeletedBehindTheLibrarysBackIsAClearErrorAndStopsNothingElse() async throws {
        let bucket = try await Bucket()
        defer { withExtendedLifetime(bucket) {} }
        let temporary = try TemporaryLibrary()
        let asset = try bucket.asset(in: temporary)
        try await bucket.client.deleteObject(bucket: bucket.name, key: bucket.key)

        let got = BucketLibraryTests.image(asset, CGSize(width: 100, height: 100), network: true)
        #expect(got.image == nil)
        let error = try #require(got.error)
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
        let got = BucketLibraryTests.image(asset, CGSize(width: 100, height: 100), network: true) { _, _, stop, _ in stop.pointee = true }
        #expect(got.image == nil)
        #expect(got.error?.code == .userCancelled, "\(String(describing: got.error))")
    }

    @Test func aBucketThatCantBeReachedFailsTheAddNamingIt() throws {
        let temporary = try TemporaryLibrary()
        let port = try ThrowawayPostgres.freePort()
        PHPhotoLibrary.enableS3Originals()
        S3ObjectStorage.shared.use(
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
