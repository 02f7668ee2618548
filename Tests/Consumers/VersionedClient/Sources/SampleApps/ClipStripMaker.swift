import AVFoundation
import Foundation

/// A video editor's timeline: a strip of thumbnails made with `AVAssetImageGenerator`, and two
/// clips trimmed and joined with `AVMutableComposition`, exported.
final class ClipStripMaker {
    /// Collects the generator's answers, called on its queue.
    private final class Strip: @unchecked Sendable {
        private let lock = NSLock()
        private var images: [Int: CGImage] = [:]
        private var failures: [Error] = []
        private var answered = 0

        func add(_ index: Int, _ image: CGImage?, _ error: Error?) -> Bool {
            lock.lock()
            defer { lock.unlock() }
            if let image = image { images[index] = image }
            if let error = error { failures.append(error) }
            answered += 1
            return answered == expected
        }

        var expected = 0
        var result: ([CGImage], Error?) {
            lock.lock()
            defer { lock.unlock() }
            return (images.keys.sorted().compactMap { images[$0] }, failures.first)
        }
    }

    /// `count` frames spread over the movie, `height` points tall.
    func thumbnails(of asset: AVAsset, count: Int, height: CGFloat) async throws -> [CGImage] {
        let duration = try await asset.load(.duration)
        let generator = AVAssetImageGenerator(asset: asset)
        generator.appliesPreferredTrackTransform = true
        generator.maximumSize = CGSize(width: 0, height: height)
        let times = (0..<count).map { index in
            NSValue(time: CMTime(seconds: duration.seconds * (Double(index) + 0.5) / Double(count), preferredTimescale: 600))
        }
        let strip = Strip()
        strip.expected = count
        return try await withCheckedThrowingContinuation { continuation in
            var index = 0
            let order = NSLock()
            generator.generateCGImagesAsynchronously(forTimes: times) { _, image, _, _, error in
                order.lock()
                let mine = index
                index += 1
                order.unlock()
                if strip.add(mine, image, error) {
                    let (images, failure) = strip.result
                    if let failure = failure { continuation.resume(throwing: failure) } else { continuation.resume(returning: images) }
                }
            }
        }
    }

    /// `first`'s range then `second`'s, in one movie at `url`.
    func join(_ first: (AVAsset, CMTimeRange), _ second: (AVAsset, CMTimeRange), to url: URL) async throws {
        let composition = AVMutableComposition()
        guard let video = composition.addMutableTrack(withMediaType: .video, preferredTrackID: kCMPersistentTrackID_Invalid) else {
            throw SampleCheckFailure(description: "no video track")
        }
        var cursor = CMTime.zero
        for (asset, range) in [first, second] {
            let tracks = try await asset.loadTracks(withMediaType: .video)
            guard let track = tracks.first else { throw SampleCheckFailure(description: "a clip has no video") }
            try video.insertTimeRange(range, of: track, at: cursor)
            cursor = cursor + range.duration
        }
        guard let session = AVAssetExportSession(asset: composition, presetName: AVAssetExportPresetHighestQuality) else {
            throw SampleCheckFailure(description: "no export session")
        }
        try await session.export(to: url, as: .mp4)
    }
}
