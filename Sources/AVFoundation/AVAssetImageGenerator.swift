public import CoreGraphics
public import CoreMedia
public import Foundation
import Imaging
import PhotosLocking

/// What ``AVAssetImageGenerator/generateCGImagesAsynchronously(forTimes:completionHandler:)``
/// calls for each requested time: the time asked for, the image, the frame's own time, the
/// outcome and the error.
public typealias AVAssetImageGeneratorCompletionHandler = (CMTime, CGImage?, CMTime, AVAssetImageGenerator.Result, (any Error)?) -> Void

/// Still images of a movie's frames: thumbnails, strips, posters.
///
/// Linux: frames are decoded by `ffmpeg` processes (seeking, scaling to ``maximumSize``, raw
/// RGB out), so an asset must be an `AVURLAsset` of a local file or a composition (rendered
/// first). Frames are exact whatever the tolerances: the frame shown at the requested time (the
/// last one past the end), and its own time is the actual time. Frames asked for together
/// (``generateCGImagesAsynchronously(forTimes:completionHandler:)``, ``images(for:)``) are
/// decoded in runs, one process a run, two at a time: frames that share the stretch from a key
/// frame (read from an MP4/MOV's sample tables) are decoded on from one to the next instead of
/// each from its key frame; they are handed back in the order asked.
open class AVAssetImageGenerator: NSObject, @unchecked Sendable {
    // @unchecked Sendable: settings are read when a request starts; the cancellation count is
    // behind a lock.
    /// The outcome of one asynchronous request.
    public enum Result: Int, Sendable {
        case succeeded = 0
        case failed = 1
        case cancelled = 2
    }

    public let asset: AVAsset
    /// Whether frames come out turned as the track's `preferredTransform` shows them.
    open var appliesPreferredTrackTransform = false
    /// The largest size a frame comes out at (aspect kept, never enlarged); zero: full size.
    open var maximumSize: CGSize = .zero
    open var requestedTimeToleranceBefore: CMTime = .positiveInfinity
    open var requestedTimeToleranceAfter: CMTime = .positiveInfinity
    /// Draws each frame through a composition. Linux: compositions are Core Image ones
    /// (`AVVideoComposition(asset:applyingCIFiltersWithHandler:)`); the handler gets the frame
    /// upright at full size and its image, scaled to ``maximumSize``, is the frame given back.
    /// Frames are then upright whatever ``appliesPreferredTrackTransform`` says, as Apple's
    /// composition renders them.
    open var videoComposition: AVVideoComposition?
    /// How many ``cancelAllCGImageGeneration()`` calls came; a request started before a call
    /// stops at its next frame.
    private let cancellations = Mutex(0)

    public init(asset: AVAsset) {
        self.asset = asset
        super.init()
    }

    /// The frame at `requestedTime`, and in `actualTime` the frame's own time.
    open func copyCGImage(at requestedTime: CMTime, actualTime: UnsafeMutablePointer<CMTime>?) throws -> CGImage {
        let (image, time) = try frame(at: requestedTime, settings: settings())
        actualTime?.pointee = time
        return image
    }

    /// The frame at `time` and its own time.
    public func image(at time: CMTime) async throws -> (image: CGImage, actualTime: CMTime) {
        let settings = settings()
        // A batch of one: decoded on a thread of its own, not a Dispatch worker (see FrameBatch).
        return try await withCheckedThrowingContinuation { continuation in
            generate([time], settings: settings, isCancelled: { false }) { _, outcome in
                continuation.resume(with: outcome.map { (image: $0.0, actualTime: $0.1) })
            }
        }
    }

    /// Makes a frame for each of `requestedTimes` (`NSValue(time:)`), calling `handler` once
    /// for each, in order, on a background queue.
    ///
    /// Linux: the frames are decoded in runs (see the type's description), two processes at a
    /// time.
    open func generateCGImagesAsynchronously(forTimes requestedTimes: [NSValue], completionHandler handler: @escaping AVAssetImageGeneratorCompletionHandler) {
        let times = requestedTimes.map(\.timeValue)
        // Apple's handler is not @Sendable; it is called from one serial task at a time.
        let handler = UncheckedHandler(call: handler)
        let started = cancellations.withLock { $0 }
        generate(times, settings: settings(), isCancelled: { self.cancellations.withLock { $0 } != started }) { time, outcome in
            switch outcome {
            case .success(let (image, actual)): handler.call(time, image, actual, .succeeded, nil)
            case .failure(let error) where error is CancellationError: handler.call(time, nil, .invalid, .cancelled, nil)
            case .failure(let error): handler.call(time, nil, .invalid, .failed, error)
            }
        }
    }

    /// The frames at `times`: `deliver` is called once for each, in order, one call at a time
    /// (see ``FrameBatch``); `isCancelled` is asked before each run and after each frame.
    func generate(
        _ times: [CMTime], settings: Settings, isCancelled: @escaping @Sendable () -> Bool,
        deliver: @escaping @Sendable (CMTime, Swift.Result<(CGImage, CMTime), any Error>) -> Void
    ) {
        FrameBatch(times: times, isCancelled: isCancelled, deliver: deliver).start(asset: asset, settings: settings)
    }

    /// Stops the asynchronous requests running: their frames not yet made are reported
    /// `.cancelled`.
    open func cancelAllCGImageGeneration() {
        cancellations.withLock { $0 += 1 }
    }

    // MARK: Frames

    struct Settings {
        var transform: Bool
        var maximumSize: CGSize
        var videoComposition: AVVideoComposition?
    }

    private struct UncheckedHandler: @unchecked Sendable {
        let call: AVAssetImageGeneratorCompletionHandler
    }

    func settings() -> Settings {
        Settings(transform: appliesPreferredTrackTransform, maximumSize: maximumSize, videoComposition: videoComposition)
    }

    private func frame(at requested: CMTime, settings: Settings) throws(AVError) -> (CGImage, CMTime) {
        let plan = try FramePlan(asset: asset, settings: settings)
        let frame = try plan.frame(at: requested)
        return (try plan.image(of: frame), plan.time(of: frame))
    }
}

extension AVAssetImageGenerator {
    /// The frames at `times`, in order, as an async sequence (iOS 16): each element carries its
    /// image and actual time, or the error that frame met.
    public func images(for times: [CMTime]) -> Images {
        Images(generator: self, times: times)
    }

    public struct Images: AsyncSequence, Sendable {
        public struct Element: Sendable {
            public let requestedTime: CMTime
            private let outcome: Swift.Result<(image: CGImage, actualTime: CMTime), any Error>

            init(requestedTime: CMTime, outcome: Swift.Result<(image: CGImage, actualTime: CMTime), any Error>) {
                self.requestedTime = requestedTime
                self.outcome = outcome
            }

            public var image: CGImage { get throws { try outcome.get().image } }
            public var actualTime: CMTime { get throws { try outcome.get().actualTime } }
        }

        /// Decodes the frames in runs as ``generateCGImagesAsynchronously(forTimes:completionHandler:)``
        /// does, starting at the first `next()`; ending the iteration early stops the runs not
        /// started yet.
        public struct AsyncIterator: AsyncIteratorProtocol {
            let generator: AVAssetImageGenerator
            let times: [CMTime]
            var elements: AsyncStream<Element>.Iterator?

            public mutating func next() async -> Element? {
                if elements == nil {
                    let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
                    let stopped = Mutex(false)
                    continuation.onTermination = { _ in stopped.withLock { $0 = true } }
                    let count = times.count
                    let delivered = Mutex(0)
                    if count == 0 { continuation.finish() }
                    generator.generate(times, settings: generator.settings(), isCancelled: { stopped.withLock { $0 } }) { time, outcome in
                        continuation.yield(Element(requestedTime: time, outcome: outcome.map { (image: $0.0, actualTime: $0.1) }))
                        if delivered.withLock({ $0 += 1; return $0 }) == count { continuation.finish() }
                    }
                    elements = stream.makeAsyncIterator()
                }
                return await elements?.next()
            }
        }

        let generator: AVAssetImageGenerator
        let times: [CMTime]

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(generator: generator, times: times)
        }
    }
}
