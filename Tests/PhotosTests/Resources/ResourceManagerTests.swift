import Foundation
import PhotosTestSupport
import PhotosLocking
import Testing

@testable import Photos

@Suite("PHAssetResource and PHAssetResourceManager")
struct ResourceManagerTests {
    static func imported(_ temporary: TemporaryLibrary, bytes: Int = 3_000_000) throws -> (PHAsset, Data) {
        // A JPEG with data after its end marker (as motion photos carry), `bytes` long, so
        // it arrives in several chunks.
        let file = temporary.scratch.appendingPathComponent("big.jpg")
        var data = try TestImages.jpeg(width: 64, height: 48)
        var generator = SeededGenerator(seed: UInt64(bytes))
        data.append(contentsOf: (0..<max(0, bytes - data.count)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try data.write(to: file)
        var identifier = ""
        try temporary.library.performChangesAndWait {
            identifier = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: file)!.placeholderForCreatedAsset!.localIdentifier
        }
        let asset = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil).firstObject })
        return (asset, try Data(contentsOf: file))
    }

    @Test func requestDataStreamsChunksInOrderOffTheMainThread() async throws {
        let temporary = try TemporaryLibrary()
        let (asset, original) = try Self.imported(temporary)
        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        let received = Mutex<(Data, Int, Bool)>((Data(), 0, false))
        let progress = Mutex<[Double]>([])
        let options = PHAssetResourceRequestOptions()
        options.progressHandler = { value in progress.withLock { $0.append(value) } }
        let error: (any Error)? = await withCheckedContinuation { continuation in
            PHAssetResourceManager.default().requestData(for: resource, options: options, dataReceivedHandler: { chunk in
                received.withLock { $0.0.append(chunk); $0.1 += 1; $0.2 = $0.2 || Thread.isMainThread }
            }, completionHandler: { continuation.resume(returning: $0) })
        }
        #expect(error == nil)
        let (data, chunks, onMain) = received.withLock { $0 }
        #expect(data == original)
        #expect(chunks == (original.count + PHAssetResourceManager.chunkSize - 1) / PHAssetResourceManager.chunkSize)
        #expect(chunks > 1)
        #expect(!onMain)
        let fractions = progress.withLock { $0 }
        #expect(fractions.last == 1 && fractions == fractions.sorted())
    }

    @Test func cancellingStopsWithUserCancelled() async throws {
        let temporary = try TemporaryLibrary()
        let (asset, _) = try Self.imported(temporary, bytes: 6_000_000)
        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        let manager = PHAssetResourceManager()
        let requestID = Mutex<PHAssetResourceDataRequestID>(0)
        let error: (any Error)? = await withCheckedContinuation { continuation in
            let id = manager.requestData(for: resource, options: nil, dataReceivedHandler: { _ in
                // Cancel from inside the first chunk: the next chunk must not come. The chunk may
                // arrive before `requestData` has returned the ID on a busy machine: wait for it.
                let deadline = Date().addingTimeInterval(10)
                while requestID.withLock({ $0 }) == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
                manager.cancelDataRequest(requestID.withLock { $0 })
            }, completionHandler: { continuation.resume(returning: $0) })
            requestID.withLock { $0 = id }
        }
        let photosError = try #require(error as? PHPhotosError)
        #expect(photosError.code == .userCancelled)
    }

    @Test func writeDataCopiesAndRefusesToOverwrite() async throws {
        let temporary = try TemporaryLibrary()
        let (asset, original) = try Self.imported(temporary, bytes: 200_000)
        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        let destination = temporary.scratch.appendingPathComponent("export.jpg")
        let first: (any Error)? = await withCheckedContinuation { continuation in
            PHAssetResourceManager.default().writeData(for: resource, toFile: destination, options: nil) { continuation.resume(returning: $0) }
        }
        #expect(first == nil)
        #expect(try Data(contentsOf: destination) == original)
        let second: (any Error)? = await withCheckedContinuation { continuation in
            PHAssetResourceManager.default().writeData(for: resource, toFile: destination, options: nil) { continuation.resume(returning: $0) }
        }
        let error = try #require(second as? PHPhotosError)
        #expect(error.message.contains("exists"))
        #expect(try Data(contentsOf: destination) == original)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: temporary.scratch.path).filter { $0.hasSuffix(".partial") }
        #expect(leftovers.isEmpty)
    }

    @Test func aMissingFileIsReported() async throws {
        let temporary = try TemporaryLibrary()
        let (asset, _) = try Self.imported(temporary, bytes: 10_000)
        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        try FileManager.default.removeItem(at: resource.fileURL)
        let error: (any Error)? = await withCheckedContinuation { continuation in
            PHAssetResourceManager.default().requestData(for: resource, options: nil, dataReceivedHandler: { _ in }) {
                continuation.resume(returning: $0)
            }
        }
        let photosError = try #require(error as? PHPhotosError)
        #expect(photosError.code == .missingResource)
        #expect(photosError.localIdentifiers == [asset.localIdentifier])
    }
}
