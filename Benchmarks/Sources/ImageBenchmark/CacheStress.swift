import BenchmarkSupport
import Foundation
import Photos
import Synchronization

/// The memory cache under more than its bound (issue 19, aim 6): after the warm runs, every
/// photo again at larger sizes (1440 and 2048 px aspect fit, all requests of a size at once),
/// more decoded bytes than the cache holds, so it must evict; its cost after each insertion
/// (`peakCachedBytes`) must stay within its bound.
struct CacheStress {
    struct Outcome {
        let requested: Int
        let delivered: Int
        /// Bytes of pixels delivered, all sizes together.
        let deliveredBytes: Int
        let seconds: Double
        let statistics: PHPhotoLibrary.ImageMemoryStatistics
    }

    let assets: [PHAsset]
    let sizes: [Int]

    func run(library: PHPhotoLibrary) -> Outcome {
        let manager = PHImageManager.default()
        let options = PHImageRequestOptions()
        options.deliveryMode = .highQualityFormat
        let delivered = Counter()
        let start = monotonicNanos()
        for size in sizes {
            let group = DispatchGroup()
            for asset in assets {
                group.enter()
                manager.requestImage(
                    for: asset, targetSize: CGSize(width: size, height: size), contentMode: .aspectFit, options: options
                ) { image, _ in
                    if let image { delivered.add(image.pixelWidth * image.pixelHeight * ((image.cgImage?.bitsPerPixel ?? 0) / 8)) }
                    group.leave()
                }
            }
            group.wait()
        }
        let seconds = Double(monotonicNanos() - start) / 1e9
        return Outcome(
            requested: assets.count * sizes.count, delivered: delivered.count, deliveredBytes: delivered.bytes, seconds: seconds,
            statistics: library.imageMemoryStatistics)
    }

    static func resultLine(_ outcome: Outcome) {
        let s = outcome.statistics
        Output.result([
            "phase": "cache-stress", "requested": "\(outcome.requested)", "delivered": "\(outcome.delivered)",
            "delivered_bytes": "\(outcome.deliveredBytes)", "seconds": Format.fixed(outcome.seconds, 2),
            "cache_images": "\(s.cachedImages)", "cache_bytes": "\(s.cachedBytes)", "cache_peak_bytes": "\(s.peakCachedBytes)",
            "cache_limit_bytes": "\(s.cacheLimit)", "rss_kb": "\(ProcessMemory.residentKilobytes())",
        ])
        log(
            "Cache stress: \(outcome.delivered) of \(outcome.requested) images, \(Format.fixed(Double(outcome.deliveredBytes) / 1_048_576, 0)) MiB "
                + "of pixels in \(Format.fixed(outcome.seconds, 1)) s; the cache holds \(s.cachedImages) images, "
                + "\(Format.fixed(Double(s.cachedBytes) / 1_048_576, 0)) MiB, peak \(Format.fixed(Double(s.peakCachedBytes) / 1_048_576, 0)) MiB "
                + "of a \(Format.fixed(Double(s.cacheLimit) / 1_048_576, 0)) MiB bound.")
    }
}

/// Deliveries counted from the manager's delivery queue.
private final class Counter: Sendable {
    private let tally = Mutex<(images: Int, bytes: Int)>((0, 0))

    func add(_ bytes: Int) {
        tally.withLock {
            $0.images += 1
            $0.bytes += bytes
        }
    }

    var count: Int { tally.withLock { $0.images } }
    var bytes: Int { tally.withLock { $0.bytes } }
}
