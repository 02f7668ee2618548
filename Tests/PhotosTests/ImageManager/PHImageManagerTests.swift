import Foundation
import Imaging
import PhotosTestSupport
import PhotosLocking
import Testing

@testable import Photos

/// `PHImageManager` on real JPEGs made by libvips: a gradient whose red grows left to right and
/// green top to bottom, so a pixel's colour says where in the original it came from.
@Suite("PHImageManager")
struct PHImageManagerTests {
    /// Imports a `width` × `height` gradient (with an EXIF orientation) and returns its asset.
    static func asset(
        _ temporary: TemporaryLibrary, width: Int = 800, height: Int = 600, orientation: Int? = nil, name: String = "photo.jpg"
    ) throws -> PHAsset {
        var exif = ExifBuilder()
        exif.orientation = orientation
        let file = try TestImages.writeJPEG(
            to: temporary.scratch.appendingPathComponent(name), width: width, height: height,
            exif: orientation == nil ? nil : exif)
        var identifier: String?
        try temporary.library.performChangesAndWait {
            identifier = PHAssetCreationRequest.creationRequestForAssetFromImage(atFileURL: file)?
                .placeholderForCreatedAsset?.localIdentifier
        }
        let created = try #require(identifier)
        return try #require(
            temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [created], options: nil).firstObject })
    }

    /// Every delivery of one asynchronous request, in order, waiting for a final (or
    /// cancelled/failed) one.
    final class Deliveries: Sendable {
        struct Delivery: @unchecked Sendable {
            var image: UIImage?
            var info: [AnyHashable: Any]
            var onMainThread: Bool
            var degraded: Bool { (info[PHImageResultIsDegradedKey] as? NSNumber)?.boolValue ?? false }
            var cancelled: Bool { (info[PHImageCancelledKey] as? NSNumber)?.boolValue ?? false }
            var error: (any Error)? { info[PHImageErrorKey] as? any Error }
        }

        let received = Mutex<[Delivery]>([])
        let done = DispatchSemaphore(value: 0)

        var handler: @Sendable (UIImage?, [AnyHashable: Any]?) -> Void {
            { [self] image, info in
                let delivery = Delivery(image: image, info: info ?? [:], onMainThread: Thread.isMainThread)
                received.withLock { $0.append(delivery) }
                done.signal()
            }
        }

        /// Waits for the final delivery (or, `untilAny`, the first: fastFormat's only one), then
        /// for `queue` (the manager's delivery queue) to run what was already given to it, so a
        /// delivery wrongly made after the final one is seen.
        func wait(untilAny: Bool = false, queue: DispatchQueue = PHImageManager.default().deliveryQueue) -> [Delivery] {
            let deadline = DispatchTime.now() + 30
            while done.wait(timeout: deadline) == .success {
                if untilAny || received.withLock({ $0.last.map { !$0.degraded } ?? false }) { break }
            }
            queue.sync {}
            return received.withLock { $0 }
        }
    }

    static func request(
        _ asset: PHAsset, _ size: CGSize, _ mode: PHImageContentMode = .aspectFit, manager: PHImageManager = .default(),
        configure: (PHImageRequestOptions) -> Void = { _ in }
    ) -> [Deliveries.Delivery] {
        let options = PHImageRequestOptions()
        configure(options)
        let deliveries = Deliveries()
        manager.requestImage(for: asset, targetSize: size, contentMode: mode, options: options, resultHandler: deliveries.handler)
        return deliveries.wait(untilAny: options.deliveryMode != .opportunistic, queue: manager.deliveryQueue)
    }

    /// Red and green of a pixel, 0...255.
    static func redGreen(_ image: UIImage, _ x: Int, _ y: Int) -> (Int, Int) {
        let pixel = image.pixel(x: x, y: y) ?? [0, 0, 0]
        return (Int(pixel[0]), Int(pixel[1]))
    }

    @Test func aspectFitAndFillAtTheirSizesWithTheRightPixels() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.asset(temporary)
        let fit = try #require(Self.request(asset, CGSize(width: 200, height: 200)) { $0.deliveryMode = .highQualityFormat }.first?.image)
        #expect(fit.size == CGSize(width: 200, height: 150))
        #expect(fit.pixelData()?.count == 200 * 150 * fit.bytesPerPixel)
        let (leftRed, topGreen) = Self.redGreen(fit, 2, 2)
        let (rightRed, bottomGreen) = Self.redGreen(fit, 197, 147)
        // JPEG's subsampled chroma blurs the edges by a few levels; a flip or turn would be ~250 off.
        #expect(leftRed < 50 && topGreen < 50 && rightRed > 205 && bottomGreen > 205, "\(leftRed) \(topGreen) \(rightRed) \(bottomGreen)")

        let fill = try #require(Self.request(asset, CGSize(width: 200, height: 200), .aspectFill) { $0.deliveryMode = .highQualityFormat }.first?.image)
        #expect(fill.size == CGSize(width: 267, height: 200), ".fast fill covers the target with the photo's aspect")
        let exactFill = try #require(
            Self.request(asset, CGSize(width: 200, height: 200), .aspectFill) {
                $0.deliveryMode = .highQualityFormat
                $0.resizeMode = .exact
            }.first?.image)
        #expect(exactFill.size == CGSize(width: 200, height: 200))
        // Centre-cropped: the left edge is an eighth of the way into the original.
        let (cropLeftRed, _) = Self.redGreen(exactFill, 0, 100)
        #expect(abs(cropLeftRed - 32) < 20, "\(cropLeftRed)")

        let maximum = try #require(Self.request(asset, PHImageManagerMaximumSize) { $0.deliveryMode = .highQualityFormat }.first?.image)
        #expect(maximum.size == CGSize(width: 800, height: 600))
    }

    @Test func normalizedCropRectDeliversThatPartOfTheImage() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.asset(temporary)
        // The bottom-right quarter, at 100 × 75.
        let image = try #require(
            Self.request(asset, CGSize(width: 100, height: 100)) {
                $0.deliveryMode = .highQualityFormat
                $0.resizeMode = .exact
                $0.normalizedCropRect = CGRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5)
            }.first?.image)
        #expect(image.size == CGSize(width: 100, height: 75))
        let (red, green) = Self.redGreen(image, 1, 1)
        #expect(abs(red - 128) < 20 && abs(green - 128) < 20, "top left is the original's centre: \(red) \(green)")
        let (farRed, farGreen) = Self.redGreen(image, 98, 73)
        #expect(farRed > 205 && farGreen > 205, "\(farRed) \(farGreen)")
    }

    /// EXIF orientation 6 (rotate 90° clockwise to display): delivered upright.
    @Test func orientationIsApplied() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.asset(temporary, width: 800, height: 600, orientation: 6)
        #expect(asset.pixelWidth == 600 && asset.pixelHeight == 800)
        let image = try #require(Self.request(asset, CGSize(width: 300, height: 300)) { $0.deliveryMode = .highQualityFormat }.first?.image)
        #expect(image.size == CGSize(width: 225, height: 300))
        // The stored bottom-left corner (red 0, green 255) shows at the top left.
        let (red, green) = Self.redGreen(image, 1, 1)
        #expect(red < 50 && green > 205, "\(red) \(green)")
    }

    @Test func deliveryModesDeliverAsApplePromises() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.asset(temporary)
        // Nothing cached: opportunistic has no cheaper image, so it delivers only the final one.
        let first = Self.request(asset, CGSize(width: 400, height: 400))
        #expect(first.map(\.degraded) == [false])
        #expect(first.allSatisfy { !$0.onMainThread })
        #expect((first.first?.info[PHImageResultRequestIDKey] as? NSNumber)?.int32Value ?? 0 > 0)
        #expect((first.first?.info["PHImageResultIsInCloudKey"] as? NSNumber)?.boolValue == false)

        // A 400 px image is cached now: a 600 px opportunistic request shows it first.
        let bigger = Self.request(asset, CGSize(width: 600, height: 600))
        #expect(bigger.map(\.degraded) == [true, false])
        #expect(bigger.map { $0.image?.size.width } == [400, 600])
        // Cached now: exactly one, final.
        #expect(Self.request(asset, CGSize(width: 600, height: 600)).map(\.degraded) == [false])

        // In memory, an opportunistic request is answered before requestImage returns, on the
        // calling thread (this test's, not the main one); highQualityFormat still goes to the queue.
        let answeredOn = Mutex<pthread_t?>(nil)
        PHImageManager.default().requestImage(for: asset, targetSize: CGSize(width: 600, height: 600), contentMode: .aspectFit, options: nil) {
            _, _ in answeredOn.withLock { $0 = pthread_self() }
        }
        let thread = answeredOn.withLock { $0 }
        #expect(thread != nil, "answered before requestImage returned")
        #expect(thread == pthread_self())

        // highQualityFormat: one final image even when a smaller one is cached.
        let high = Self.request(asset, CGSize(width: 700, height: 700)) { $0.deliveryMode = .highQualityFormat }
        #expect(high.map(\.degraded) == [false] && high.first?.image?.size.width == 700)
        // fastFormat: exactly one, the cached smaller image, marked degraded.
        let fast = Self.request(asset, CGSize(width: 780, height: 780)) { $0.deliveryMode = .fastFormat }
        #expect(fast.count == 1 && fast.first?.degraded == true && fast.first?.image?.size.width == 700)
    }

    @Test func synchronousRequestsDeliverOnceOnTheCallingThreadBeforeReturning() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.asset(temporary)
        for mode in PHImageRequestOptionsDeliveryMode.allCases {
            let options = PHImageRequestOptions()
            options.isSynchronous = true
            options.deliveryMode = mode
            let calls = Mutex<[(Thread, CGSize?)]>([])
            let caller = Thread.current
            PHImageManager.default().requestImage(
                for: asset, targetSize: CGSize(width: 120, height: 120), contentMode: .aspectFit, options: options
            ) { image, _ in
                calls.withLock { $0.append((Thread.current, image?.size)) }
            }
            let made = calls.withLock { $0 }
            #expect(made.count == 1, "\(mode)")
            #expect(made.first?.0 == caller)
            #expect(made.first?.1 == CGSize(width: 120, height: 90))
        }
    }

    @Test func identicalRequestsShareOneDecodeAndTheCache() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.asset(temporary, width: 1600, height: 1200)
        let loader = temporary.library.imageLoader
        let before = loader.renderCount
        let all = (0..<8).map { _ in Deliveries() }
        let options = PHImageRequestOptions()
        options.deliveryMode = .highQualityFormat
        for deliveries in all {
            PHImageManager.default().requestImage(
                for: asset, targetSize: CGSize(width: 333, height: 333), contentMode: .aspectFit, options: options,
                resultHandler: deliveries.handler)
        }
        let images = all.compactMap { $0.wait().first?.image }
        #expect(images.count == 8)
        #expect(images.allSatisfy { $0 === images[0] }, "one image object for all")
        // The library has its own loader: exactly one render for these eight, none for the hit.
        let again = Self.request(asset, CGSize(width: 333, height: 333)) { $0.deliveryMode = .highQualityFormat }
        #expect(again.first?.image === images[0], "a cache hit")
        #expect(loader.renderCount - before == 1)
        let key = try ImageRequestPlan(
            asset: asset, targetSize: CGSize(width: 333, height: 333), contentMode: .aspectFit, options: PHImageRequestOptions()
        ).key
        #expect(loader.cache.image(for: key) === images[0])
    }

    @Test func aCancelledRequestSaysSoAndDeliversNothingElse() throws {
        let temporary = try TemporaryLibrary()
        // Big decodes ahead of it (on a pool the size of the cores) keep the last request queued;
        // cancelled while queued or running, it is told so once and gets nothing else.
        let assets = try (0..<3).map { try Self.asset(temporary, width: 2400, height: 1800, name: "big\($0).jpg") }
        let manager = PHImageManager()
        let options = PHImageRequestOptions()
        options.deliveryMode = .highQualityFormat
        let earlier = assets.dropLast().map { asset in
            let deliveries = Deliveries()
            manager.requestImage(for: asset, targetSize: PHImageManagerMaximumSize, contentMode: .aspectFit, options: options, resultHandler: deliveries.handler)
            return deliveries
        }
        let cancelled = Deliveries()
        let id = manager.requestImage(
            for: assets[2], targetSize: CGSize(width: 2399, height: 2399), contentMode: .aspectFit, options: options,
            resultHandler: cancelled.handler)
        manager.cancelImageRequest(id)
        let got = cancelled.wait()
        #expect(got.count == 1)
        #expect(got.first?.cancelled == true && got.first?.image == nil)
        #expect((got.first?.info[PHImageResultRequestIDKey] as? NSNumber)?.int32Value == id)
        for deliveries in earlier { #expect(deliveries.wait().first?.image != nil) }
        manager.cancelImageRequest(id)  // twice: nothing more
        #expect(cancelled.received.withLock { $0.count } == 1)
    }

    @Test func aMissingOriginalIsAnError() throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.asset(temporary)
        for file in temporary.originalFiles() {
            try FileManager.default.removeItem(at: temporary.url.appendingPathComponent("originals").appendingPathComponent(file))
        }
        let got = Self.request(asset, CGSize(width: 64, height: 64)) { $0.deliveryMode = .highQualityFormat }
        #expect(got.count == 1 && got.first?.image == nil)
        let error = try #require(got.first?.error as? PHPhotosError)
        #expect(error.code == .missingResource, "\(error)")
    }
}

@Suite("PHImageManager data and async forms")
struct PHImageManagerDataTests {
    @Test func imageDataComesWithItsTypeAndOrientation() throws {
        let temporary = try TemporaryLibrary()
        let asset = try PHImageManagerTests.asset(temporary, orientation: 6)
        let original = try Data(contentsOf: temporary.url.appendingPathComponent("originals").appendingPathComponent(
            try #require(temporary.originalFiles().first)))
        let options = PHImageRequestOptions()
        options.isSynchronous = true
        let result = Mutex<(Data?, String?, CGImagePropertyOrientation)?>(nil)
        PHImageManager.default().requestImageDataAndOrientation(for: asset, options: options) { data, type, orientation, _ in
            result.withLock { $0 = (data, type, orientation) }
        }
        let (data, type, orientation) = try #require(result.withLock { $0 })
        #expect(data == original)
        #expect(type == "public.jpeg")
        #expect(orientation == .right)

        // Asynchronously: once, off the main thread.
        let done = DispatchSemaphore(value: 0)
        let calls = Mutex(0)
        PHImageManager.default().requestImageDataAndOrientation(for: asset, options: nil) { data, _, _, info in
            #expect(!Thread.isMainThread)
            #expect(data?.count == original.count && info?[PHImageErrorKey] == nil)
            calls.withLock { $0 += 1 }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        // Deliveries go through the delivery queue: a second call would be there by now.
        PHImageManager.default().deliveryQueue.sync {}
        #expect(calls.withLock { $0 } == 1)
    }

    @Test func asyncFormsDeliverTheFinalImageAndEveryStep() async throws {
        let temporary = try TemporaryLibrary()
        let asset = try PHImageManagerTests.asset(temporary)
        let manager = PHImageManager.default()
        let small = try await manager.image(for: asset, targetSize: CGSize(width: 160, height: 160))
        #expect(small.size == CGSize(width: 160, height: 120))
        var steps: [(Bool, CGFloat?)] = []
        for try await delivery in manager.images(for: asset, targetSize: CGSize(width: 320, height: 320)) {
            steps.append((delivery.isDegraded, delivery.image?.size.width))
        }
        #expect(steps.map(\.0) == [true, false])
        #expect(steps.map(\.1) == [160, 320])

        // A movie with no decodable frame (a synthetic container): the error is thrown.
        await #expect(throws: PHPhotosError.self) {
            var movie = TestMovie()
            movie.duration = 1
            let file = temporary.scratch.appendingPathComponent("clip.mp4")
            try movie.data().write(to: file)
            var identifier: String?
            try temporary.library.performChangesAndWait {
                identifier = PHAssetCreationRequest.creationRequestForAssetFromVideo(atFileURL: file)?.placeholderForCreatedAsset?.localIdentifier
            }
            let created = try #require(identifier)
            let video = try #require(
                temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [created], options: nil).firstObject })
            _ = try await manager.image(for: video, targetSize: CGSize(width: 100, height: 100))
        }
    }
}
