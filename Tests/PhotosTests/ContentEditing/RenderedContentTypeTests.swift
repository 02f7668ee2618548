import Foundation
import Imaging
import PhotosTestSupport
import PhotosLocking
import Testing

@testable import Photos

/// Issue 38's PhotoKit members around editing: the input's and output's `UTType`s, an edit
/// rendered as HEIC, an original in a remote store edited with network access and progress,
/// and the async `writeData`.
@Suite("Content editing: types, remote originals")
struct RenderedContentTypeTests {
    /// What an input request's handler got.
    struct Outcome: @unchecked Sendable {
        // @unchecked Sendable: the input is immutable, read after the handler returned.
        var input: PHContentEditingInput?
        var inCloud = false
        var cancelled = false
        var error: PHPhotosError?
    }

    /// The input's request, waiting for its handler.
    static func request(_ asset: PHAsset, _ configure: (PHContentEditingInputRequestOptions) -> Void = { _ in }) throws -> Outcome {
        let options = PHContentEditingInputRequestOptions()
        configure(options)
        let result = Mutex<Outcome?>(nil)
        let done = DispatchSemaphore(value: 0)
        asset.requestContentEditingInput(with: options) { input, info in
            let outcome = Outcome(
                input: input, inCloud: (info[PHContentEditingInputResultIsInCloudKey] as? NSNumber)?.boolValue == true,
                cancelled: (info[PHContentEditingInputCancelledKey] as? NSNumber)?.boolValue == true,
                error: info[PHContentEditingInputErrorKey] as? PHPhotosError)
            result.withLock { $0 = outcome }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 60) == .success, "the handler was never called")
        return try #require(result.withLock { $0 })
    }

    @Test func theInputAndOutputSayTheirTypes() throws {
        let temporary = try TemporaryLibrary()
        let asset = try PHImageManagerTests.asset(temporary)
        let input = try #require(try Self.request(asset).input)
        #expect(input.contentType == .jpeg)
        let output = PHContentEditingOutput(contentEditingInput: input)
        #expect(output.defaultRenderedContentType == .jpeg)
        #expect(output.supportedRenderedContentTypes.first == .jpeg)
        #expect(output.supportedRenderedContentTypes.contains(.heic) == VipsImage.canSaveHEIF)
        #expect(try output.renderedContentURL(for: .jpeg) == output.renderedContentURL)
        do {
            _ = try output.renderedContentURL(for: .png)
            Issue.record("PNG is not a rendered type")
        } catch PHPhotosError.invalidResource {
        }
        #expect(throws: PHPhotosError.self) { try output.renderedContentURL(for: .quickTimeMovie) }
    }

    @Test(.enabled(if: VipsImage.canSaveHEIF, "this libheif has no HEVC encoder"))
    func anEditRenderedAsHEICIsKeptAsHEIC() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let asset = try PHImageManagerTests.asset(temporary)
        let input = try #require(try Self.request(asset).input)
        let output = PHContentEditingOutput(contentEditingInput: input)
        let url = try output.renderedContentURL(for: .heic)
        #expect(url.pathExtension == "heic")
        #expect(url.deletingPathExtension() == output.renderedContentURL.deletingPathExtension())
        let image = try VipsImage(contentsOf: try #require(input.fullSizeImageURL)).autorotated()
        try image.cropped(x: 0, y: 0, width: image.width / 2, height: image.height).heifData(quality: 60).write(to: url)
        output.adjustmentData = PHAdjustmentData(formatIdentifier: "com.example.crop", formatVersion: "1.0", data: Data("left".utf8))
        try library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }

        let edited = try ContentEditingTests.refetched(asset, library)
        #expect(edited.pixelWidth == 400 && edited.pixelHeight == 600)
        let rendered = try #require(library.withCurrent { PHAssetResource.assetResources(for: edited) }.first { $0.type == .fullSizePhoto })
        #expect(rendered.uniformTypeIdentifier == UTType.heic.identifier)
        #expect(ContentEditingTests.image(edited, version: .current)?.size == CGSize(width: 133, height: 200))
        // The next input starts from the HEIC render and says so.
        #expect(try Self.request(edited).input?.contentType == .heic)
    }

    @Test func aRemoteOriginalIsEditedOnlyWithNetworkAccess() throws {
        let temporary = try TemporaryLibrary()
        let server = try TestHTTPServer(chunkSize: 16 * 1024, chunkDelay: 0.002)
        let (asset, _) = try RemoteOriginalTests.remoteAsset(temporary, server: server)
        let path = "/store/IMG_0001.JPG"
        let before = server.hitCount(path)

        let refused = try Self.request(asset)
        #expect(refused.input == nil)
        #expect(refused.inCloud)
        let error = try #require(refused.error)
        #expect(error.code == .networkAccessRequired && error.localIdentifiers == [asset.localIdentifier])
        #expect(server.hitCount(path) == before, "nothing fetched without network access")

        // Stopped from the progress handler: cancelled, nothing kept.
        let stopped = try Self.request(asset) {
            $0.isNetworkAccessAllowed = true
            $0.progressHandler = { _, stop in stop.pointee = true }
        }
        #expect(stopped.input == nil)
        #expect(stopped.cancelled)

        let fractions = Mutex<[Double]>([])
        let fetched = try Self.request(asset) {
            $0.isNetworkAccessAllowed = true
            $0.progressHandler = { fraction, _ in fractions.withLock { $0.append(fraction) } }
        }
        let input = try #require(fetched.input)
        let seen = fractions.withLock { $0 }
        #expect(seen.count > 2 && seen == seen.sorted() && seen.last == 1, "\(seen)")
        let file = try #require(input.fullSizeImageURL)
        #expect(file.isFileURL && FileManager.default.fileExists(atPath: file.path))
        #expect(file.path.hasPrefix(temporary.url.path))
        #expect(input.contentType == .jpeg)
        #expect(input.displaySizeImage?.size == CGSize(width: 900, height: 600))

        // The edit commits like any other; the original stays in the remote store.
        let output = try ContentEditingTests.leftHalf(of: input)
        try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }
        let edited = try ContentEditingTests.refetched(asset, temporary.library)
        #expect(edited.pixelWidth == 450 && edited.pixelHeight == 600)
        #expect(temporary.library.withCurrent { PHAssetResource.assetResources(for: edited) }.first { $0.type == .photo }?.fileURL.scheme == "http")
        // Asked again without network access: the copy is local now.
        #expect(try Self.request(edited) { $0.canHandleAdjustmentData = { _ in true } }.input?.fullSizeImageURL == file)
        #expect(try temporary.library.checkConsistency().isConsistent)
    }

    @Test func writeDataAwaitsTheCopy() async throws {
        let temporary = try TemporaryLibrary()
        let asset = try PHImageManagerTests.asset(temporary)
        let resource = try #require(temporary.library.withCurrent { PHAssetResource.assetResources(for: asset) }.first)
        let destination = temporary.scratch.appendingPathComponent("copy.jpg")
        try await PHAssetResourceManager.default().writeData(for: resource, toFile: destination, options: nil)
        let original = temporary.url.appendingPathComponent("originals").appendingPathComponent(try #require(temporary.originalFiles().first))
        #expect(try Data(contentsOf: destination) == Data(contentsOf: original))
        await #expect(throws: PHPhotosError.self) {
            try await PHAssetResourceManager.default().writeData(for: resource, toFile: destination, options: nil)
        }
    }
}
