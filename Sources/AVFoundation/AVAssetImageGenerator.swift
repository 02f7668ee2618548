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
/// Linux: each frame is decoded by an `ffmpeg` process (seeking to the frame, scaling to
/// ``maximumSize``, raw RGB out), so an asset must be an `AVURLAsset` of a local file or a
/// composition (rendered first). Frames
/// are exact whatever the tolerances: the frame shown at the requested time (the last one past
/// the end), and its own time is the actual time. Asynchronous requests run on a background
/// queue in the order asked, two frames at a time.
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
    /// How many ``cancelAllCGImageGeneration()`` calls came; a request started before a call
    /// stops at its next frame.
    private let cancellations = Mutex(0)
    private static let queue = DispatchQueue(label: "AVAssetImageGenerator", qos: .userInitiated, attributes: .concurrent)

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
        return try await withCheckedThrowingContinuation { continuation in
            Self.queue.async {
                do {
                    let (image, actual) = try self.frame(at: time, settings: settings)
                    continuation.resume(returning: (image, actual))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Makes a frame for each of `requestedTimes` (`NSValue(time:)`), calling `handler` once
    /// for each, in order, on a background queue.
    open func generateCGImagesAsynchronously(forTimes requestedTimes: [NSValue], completionHandler handler: @escaping AVAssetImageGeneratorCompletionHandler) {
        let settings = settings()
        let times = requestedTimes.map(\.timeValue)
        let started = cancellations.withLock { $0 }
        // Apple's handler is not @Sendable; it is called from one serial task at a time.
        let handler = UncheckedHandler(call: handler)
        let frames = Mutex([Int: Swift.Result<(CGImage, CMTime), any Error>]())
        let ready = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let limit = DispatchSemaphore(value: 2)
        Self.queue.async {
            for (index, time) in times.enumerated() {
                limit.wait()
                group.enter()
                Self.queue.async {
                    defer { limit.signal(); group.leave(); ready.signal() }
                    let cancelled = self.cancellations.withLock { $0 } != started
                    let outcome: Swift.Result<(CGImage, CMTime), any Error> =
                        cancelled ? .failure(CancellationError()) : Swift.Result { try self.frame(at: time, settings: settings) }
                    frames.withLock { $0[index] = outcome }
                }
            }
        }
        // The handler in order, as each frame (and those before it) is ready.
        Self.queue.async {
            for (index, time) in times.enumerated() {
                var outcome = frames.withLock { $0.removeValue(forKey: index) }
                while outcome == nil {
                    ready.wait()
                    outcome = frames.withLock { $0.removeValue(forKey: index) }
                }
                switch outcome! {
                case .success(let (image, actual)): handler.call(time, image, actual, .succeeded, nil)
                case .failure(let error) where error is CancellationError: handler.call(time, nil, .invalid, .cancelled, nil)
                case .failure(let error): handler.call(time, nil, .invalid, .failed, error)
                }
            }
        }
    }

    /// Stops the asynchronous requests running: their frames not yet made are reported
    /// `.cancelled`.
    open func cancelAllCGImageGeneration() {
        cancellations.withLock { $0 += 1 }
    }

    // MARK: Frames

    private struct Settings {
        var transform: Bool
        var maximumSize: CGSize
    }

    private struct UncheckedHandler: @unchecked Sendable {
        let call: AVAssetImageGeneratorCompletionHandler
    }

    private func settings() -> Settings {
        Settings(transform: appliesPreferredTrackTransform, maximumSize: maximumSize)
    }

    private func frame(at requested: CMTime, settings: Settings) throws(AVError) -> (CGImage, CMTime) {
        guard requested.isNumeric, requested.seconds >= 0 else {
            throw AVError(.noImageAtTime, "There is no frame at \(requested)")
        }
        // A file asset's movie, or a composition's rendered one.
        let movie = try asset.movieDescription()
        let url = movie.url
        guard let video = movie.video, video.width > 0, video.height > 0 else {
            throw AVError(.noImageAtTime, "\(url.lastPathComponent) has no video track")
        }
        let rate = video.frameRate > 0 ? video.frameRate : 30
        let start = video.start.isNumeric ? video.start.seconds : 0
        let length = (video.duration.isNumeric ? video.duration : movie.duration).seconds
        guard length.isFinite, length > 0 else {
            throw AVError(.noImageAtTime, "\(url.lastPathComponent) is not a movie (it has no duration)")
        }
        let lastFrame = max(0, Int((length * rate).rounded(.up)) - 1)
        let index = min(lastFrame, max(0, Int(((requested.seconds - start) * rate + 1e-6).rounded(.down))))
        let frameTime = Double(index) / rate
        let (width, height) = settings.transform ? movie.displaySize : (video.width, video.height)
        var scale = 1.0
        if settings.maximumSize.width > 0 { scale = min(scale, Double(settings.maximumSize.width) / Double(width)) }
        if settings.maximumSize.height > 0 { scale = min(scale, Double(settings.maximumSize.height) / Double(height)) }
        let outWidth = max(1, Int((Double(width) * scale).rounded())), outHeight = max(1, Int((Double(height) * scale).rounded()))

        let ffmpeg = try FFmpegTools.require(FFmpegTools.ffmpeg, "ffmpeg")
        // Accurate seeking: the first frame at or after a tenth of a frame before this one's time.
        var arguments = ["-v", "error", "-nostdin", "-ss", String(format: "%.6f", max(0, frameTime - 0.1 / rate))]
        if !settings.transform { arguments.append("-noautorotate") }
        arguments += ["-i", url.path, "-frames:v", "1", "-an", "-sn"]
        if outWidth != width || outHeight != height { arguments += ["-vf", "scale=\(outWidth):\(outHeight):flags=bilinear"] }
        arguments += ["-f", "rawvideo", "-pix_fmt", "rgb24", "-"]
        let pixels = try FFmpegTools.run(ffmpeg, arguments, failure: .decodeFailed, what: "read a frame of \(url.lastPathComponent)")
        guard pixels.count == outWidth * outHeight * 3 else {
            throw AVError(.noImageAtTime, "ffmpeg gave no frame of \(url.lastPathComponent) at \(String(format: "%.3f", frameTime)) s")
        }
        do {
            let image = try CGImage(VipsImage(pixels: pixels, width: outWidth, height: outHeight, bands: 3))
            return (image, CMTime(seconds: start + frameTime, preferredTimescale: 600))
        } catch {
            throw AVError(.decodeFailed, "Can't keep the frame of \(url.lastPathComponent): \(error)")
        }
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

        public struct AsyncIterator: AsyncIteratorProtocol {
            let generator: AVAssetImageGenerator
            let times: [CMTime]
            var index = 0

            public mutating func next() async -> Element? {
                guard index < times.count else { return nil }
                let time = times[index]
                index += 1
                do {
                    return Element(requestedTime: time, outcome: .success(try await generator.image(at: time)))
                } catch {
                    return Element(requestedTime: time, outcome: .failure(error))
                }
            }
        }

        let generator: AVAssetImageGenerator
        let times: [CMTime]

        public func makeAsyncIterator() -> AsyncIterator {
            AsyncIterator(generator: generator, times: times)
        }
    }
}
