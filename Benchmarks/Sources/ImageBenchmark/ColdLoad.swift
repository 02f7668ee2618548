import BenchmarkSupport
import Foundation
import Photos
import Synchronization

/// The cold run: one asynchronous `.highQualityFormat` request per asset, all made at once
/// (as a gallery asks for a screenful), timed from the first request to the last delivery.
/// Nothing is in the memory cache and, when the page cache was dropped, nothing is in memory:
/// each request reads its original from the disk and renders it on the manager's pool.
struct ColdLoad {
    struct Outcome {
        let files: Int
        let delivered: Int
        let failures: [String]
        /// Images whose longer side isn't the target (aspect fit, never upscaled).
        let wrongSize: Int
        let degraded: Int
        let wallNanos: UInt64
        let firstNanos: UInt64
        /// The delivered images, by asset index: the warm runs expect these very objects back.
        let images: [UIImage?]
        let pixelBytes: Int

        var filesPerSecond: Double { Double(files) / (Double(wallNanos) / 1e9) }
    }

    let assets: [PHAsset]
    let size: Int

    /// What the deliveries record, touched only on the manager's serial delivery queue (and
    /// read once every delivery is in).
    private final class Deliveries: @unchecked Sendable {
        var images: [UIImage?]
        var times: [UInt64]
        var failures: [String] = []
        var degraded = 0

        init(count: Int) {
            images = Array(repeating: nil, count: count)
            times = Array(repeating: 0, count: count)
        }
    }

    func run() -> Outcome {
        let manager = PHImageManager.default()
        let options = PHImageRequestOptions()
        options.deliveryMode = .highQualityFormat
        let target = CGSize(width: size, height: size)
        let deliveries = Deliveries(count: assets.count)
        let group = DispatchGroup()

        let start = monotonicNanos()
        for (index, asset) in assets.enumerated() {
            group.enter()
            manager.requestImage(for: asset, targetSize: target, contentMode: .aspectFit, options: options) { image, info in
                deliveries.times[index] = monotonicNanos()
                if (info?[PHImageResultIsDegradedKey] as? NSNumber)?.boolValue == true {
                    deliveries.degraded += 1  // .highQualityFormat must never deliver one
                    return
                }
                if let image {
                    deliveries.images[index] = image
                } else {
                    let error = info?[PHImageErrorKey].map { "\($0)" } ?? "no image and no error"
                    deliveries.failures.append("\(asset.localIdentifier): \(error)")
                }
                group.leave()
            }
        }
        group.wait()
        let end = monotonicNanos()

        let images = deliveries.images
        let wrongSize = zip(assets, images).filter { asset, image in
            guard let image else { return false }
            let expected = min(size, max(asset.pixelWidth, asset.pixelHeight))
            return max(image.pixelWidth, image.pixelHeight) != expected
        }.count
        let pixelBytes = images.reduce(0) { $0 + ($1.map { $0.pixelWidth * $0.pixelHeight * (($0.cgImage?.bitsPerPixel ?? 0) / 8) } ?? 0) }
        return Outcome(
            files: assets.count, delivered: images.compactMap { $0 }.count, failures: deliveries.failures,
            wrongSize: wrongSize, degraded: deliveries.degraded, wallNanos: end - start,
            firstNanos: (deliveries.times.filter { $0 > 0 }.min() ?? end) - start, images: images, pixelBytes: pixelBytes)
    }
}
