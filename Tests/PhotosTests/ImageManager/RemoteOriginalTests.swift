import Foundation
import PhotosTestSupport
import PhotosLocking
import Testing

@testable import Photos

/// Originals in a remote store (an http URL on the resource), with a local server standing in.
@Suite("Remote originals")
struct RemoteOriginalTests {
    static func remoteAsset(_ temporary: TemporaryLibrary, server: TestHTTPServer) throws -> (PHAsset, URL) {
        let photo = try TestImages.jpeg(width: 900, height: 600, noisy: true)
        let url = server.serve(photo, at: "/store/IMG_0001.JPG")
        var identifier: String?
        try temporary.library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            let options = PHAssetResourceCreationOptions()
            options.shouldReferenceFile = true
            request.addResource(with: .photo, fileURL: url, options: options)
            identifier = request.placeholderForCreatedAsset?.localIdentifier
        }
        let created = try #require(identifier)
        let asset = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [created], options: nil).firstObject })
        return (asset, url)
    }

    @Test func withoutNetworkAccessTheRequestSaysItIsInTheCloud() throws {
        let temporary = try TemporaryLibrary()
        let server = try TestHTTPServer()
        let (asset, url) = try Self.remoteAsset(temporary, server: server)
        #expect(asset.pixelWidth == 900 && asset.pixelHeight == 600)
        #expect(temporary.originalFiles().isEmpty)
        #expect(temporary.library.withCurrent { PHAssetResource.assetResources(for: asset).first?.fileURL } == url)
        let fetchesAtCreation = server.hitCount("/store/IMG_0001.JPG")

        let got = PHImageManagerTests.request(asset, CGSize(width: 100, height: 100)) { $0.deliveryMode = .highQualityFormat }
        #expect(got.count == 1 && got.first?.image == nil)
        #expect((got.first?.info[PHImageResultIsInCloudKey] as? NSNumber)?.boolValue == true)
        let error = try #require(got.first?.error as? PHPhotosError)
        #expect(error.code == .networkAccessRequired && error.code.rawValue == 3164)
        #expect(server.hitCount("/store/IMG_0001.JPG") == fetchesAtCreation, "nothing fetched")
        #expect(try temporary.library.checkConsistency().isConsistent)
    }

    @Test func withNetworkAccessTheOriginalIsFetchedWithProgressThenCached() throws {
        let temporary = try TemporaryLibrary()
        let server = try TestHTTPServer(chunkSize: 16 * 1024, chunkDelay: 0.002)
        let (asset, _) = try Self.remoteAsset(temporary, server: server)
        let before = server.hitCount("/store/IMG_0001.JPG")
        let fractions = Mutex<[Double]>([])
        let got = PHImageManagerTests.request(asset, CGSize(width: 300, height: 300)) {
            $0.deliveryMode = .highQualityFormat
            $0.isNetworkAccessAllowed = true
            $0.progressHandler = { fraction, _, _, _ in fractions.withLock { $0.append(fraction) } }
        }
        let image = try #require(got.first?.image)
        #expect(image.size == CGSize(width: 300, height: 200))
        let seen = fractions.withLock { $0 }
        #expect(seen.count > 2 && seen == seen.sorted() && seen.last == 1, "\(seen)")
        #expect(server.hitCount("/store/IMG_0001.JPG") == before + 1)

        // Local now: another size without network access, and the bytes, come from the copy.
        let again = PHImageManagerTests.request(asset, CGSize(width: 120, height: 120)) { $0.deliveryMode = .highQualityFormat }
        #expect(again.first?.image?.size == CGSize(width: 120, height: 80))
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        let bytes = Mutex<Data?>(nil)
        PHImageManager.default().requestImageDataAndOrientation(for: asset, options: options) { data, _, _, _ in
            bytes.withLock { $0 = data }
        }
        #expect((bytes.withLock { $0 }?.count ?? 0) > 10_000)
        #expect(server.hitCount("/store/IMG_0001.JPG") == before + 1, "served from the local copy")

        // Deleting the asset for good removes the local copy.
        try temporary.library.performChangesAndWait { PHAssetChangeRequest.deleteAssetsPermanently([asset] as NSArray) }
        let cache = temporary.url.appendingPathComponent("cache/remote")
        let left = FileManager.default.enumerator(atPath: cache.path)?.allObjects.compactMap { $0 as? String }.filter { $0.hasSuffix(".jpg") } ?? []
        #expect(left.isEmpty, "\(left)")
    }

    @Test func aFailingStoreIsAClearError() throws {
        let temporary = try TemporaryLibrary()
        let server = try TestHTTPServer()
        let missing = URL(string: "http://127.0.0.1:\(server.port)/nothing.jpg")!
        let options = PHAssetResourceCreationOptions()
        options.shouldReferenceFile = true
        #expect(throws: PHPhotosError.self) {
            try temporary.library.performChangesAndWait {
                PHAssetCreationRequest.forAsset().addResource(with: .photo, fileURL: missing, options: options)
            }
        }
        #expect(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).count } == 0)
    }
}

/// `PHAssetResourceManager` and remote originals: `isNetworkAccessAllowed` as for images.
@Suite("Remote originals through PHAssetResourceManager")
struct RemoteResourceDataTests {
    @Test func readingNeedsNetworkAccessThenFetchesWithProgressOnce() async throws {
        let temporary = try TemporaryLibrary()
        let server = try TestHTTPServer(chunkSize: 16 * 1024, chunkDelay: 0.001)
        let (asset, _) = try RemoteOriginalTests.remoteAsset(temporary, server: server)
        let resource = try #require(temporary.library.withCurrent { PHAssetResource.assetResources(for: asset).first })
        let before = server.hitCount("/store/IMG_0001.JPG")

        let refused = await Self.read(resource, options: nil)
        #expect((refused.error as? PHPhotosError)?.code == .networkAccessRequired)
        #expect(refused.data.isEmpty)
        #expect(server.hitCount("/store/IMG_0001.JPG") == before, "nothing fetched")

        let options = PHAssetResourceRequestOptions()
        options.isNetworkAccessAllowed = true
        let fractions = Mutex<[Double]>([])
        options.progressHandler = { fraction in fractions.withLock { $0.append(fraction) } }
        let read = await Self.read(resource, options: options)
        #expect(read.error == nil)
        #expect(read.data == server.body(at: "/store/IMG_0001.JPG"))
        let seen = fractions.withLock { $0 }
        #expect(seen.count > 2 && seen == seen.sorted() && seen.last == 1, "\(seen)")

        // The local copy serves from now on, also to writeData, without network access.
        let copy = temporary.scratch.appendingPathComponent("copy.jpg")
        let written: (any Error)? = await withCheckedContinuation { continuation in
            PHAssetResourceManager.default().writeData(for: resource, toFile: copy, options: nil) { continuation.resume(returning: $0) }
        }
        #expect(written == nil)
        #expect(try Data(contentsOf: copy) == read.data)
        #expect(server.hitCount("/store/IMG_0001.JPG") == before + 1)
    }

    static func read(_ resource: PHAssetResource, options: PHAssetResourceRequestOptions?) async -> (data: Data, error: (any Error)?) {
        let data = Mutex(Data())
        let error: UncheckedSendable<(any Error)?> = await withCheckedContinuation { continuation in
            PHAssetResourceManager.default().requestData(
                for: resource, options: options, dataReceivedHandler: { chunk in data.withLock { $0.append(chunk) } },
                completionHandler: { continuation.resume(returning: UncheckedSendable($0)) })
        }
        return (data.withLock { $0 }, error.value)
    }
}
