import Foundation
import Photos
import PhotosTestSupport
import Testing

/// Apple declares PhotoKit's handlers without `@Sendable`, so app code hands in closures that
/// capture ordinary, non-Sendable state (a view, a counter). This file is compiled in Swift 6
/// mode: each call below would be an error if the parameter were `@Sendable`.
@Suite("Handlers take ordinary closures, as Apple's declarations do")
struct NonSendableHandlersTests {
    /// A plain class, not Sendable, as app views and models are.
    final class Cell {
        var image: UIImage?
        var info: [AnyHashable: Any]?
        var data: Data?
        var chunks = 0
        var status: PHAuthorizationStatus?
        var input: PHContentEditingInput?
        var error: (any Error)?
        var progress: [Double] = []
        var askedAboutAdjustments = false
    }

    /// Waits for `count` signals, failing the test on timeout.
    static func wait(_ semaphore: DispatchSemaphore, count: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) {
        for _ in 0..<count where semaphore.wait(timeout: .now() + 20) == .timedOut {
            Issue.record("a handler was not called within 20 s", sourceLocation: sourceLocation)
        }
    }

    @Test func imageAndDataHandlersCaptureOrdinaryState() throws {
        let temporary = try TemporaryLibrary()
        let asset = try KeyValueReadingTests.importedPhoto(temporary)
        let cell = Cell()
        let done = DispatchSemaphore(value: 0)
        let options = PHImageRequestOptions()
        options.deliveryMode = .highQualityFormat
        PHImageManager.default().requestImage(for: asset, targetSize: CGSize(width: 40, height: 40), contentMode: .aspectFit, options: options) {
            image, info in
            cell.image = image
            cell.info = info
            done.signal()
        }
        Self.wait(done)
        #expect(cell.image != nil)
        #expect((cell.info?[PHImageResultIsDegradedKey] as? NSNumber)?.boolValue == false)

        PHImageManager.default().requestImageDataAndOrientation(for: asset, options: nil) { data, type, orientation, _ in
            cell.data = data
            done.signal()
        }
        Self.wait(done)
        #expect((cell.data?.count ?? 0) > 0)

        let resource = try #require(PHAssetResource.assetResources(for: asset).first)
        let resourceOptions = PHAssetResourceRequestOptions()
        resourceOptions.progressHandler = { fraction in cell.progress.append(fraction) }
        PHAssetResourceManager.default().requestData(for: resource, options: resourceOptions) { _ in
            cell.chunks += 1
        } completionHandler: { error in
            cell.error = error
            done.signal()
        }
        Self.wait(done)
        #expect(cell.chunks == 1)
        #expect(cell.error == nil)
        #expect(cell.progress.last == 1)
    }

    @Test func editingAndAuthorizationHandlersCaptureOrdinaryState() throws {
        let temporary = try TemporaryLibrary()
        let asset = try KeyValueReadingTests.importedPhoto(temporary)
        let cell = Cell()
        let done = DispatchSemaphore(value: 0)
        let options = PHContentEditingInputRequestOptions()
        options.canHandleAdjustmentData = { _ in
            cell.askedAboutAdjustments = true
            return false
        }
        asset.requestContentEditingInput(with: options) { input, _ in
            cell.input = input
            done.signal()
        }
        Self.wait(done)
        #expect(cell.input?.fullSizeImageURL != nil)

        PHPhotoLibrary.requestAuthorization(for: .readWrite) { status in
            cell.status = status
            done.signal()
        }
        Self.wait(done)
        #expect(cell.status == .authorized)
    }
}
