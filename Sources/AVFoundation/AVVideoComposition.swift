import CoreGraphics
public import CoreImage
public import CoreMedia
public import Foundation
import PhotosLocking

/// How an export draws a movie's frames: here, each frame through a Core Image handler
/// (`init(asset:applyingCIFiltersWithHandler:)`), which ``AVAssetExportSession`` honours.
///
/// Linux: only Core Image compositions are made; custom compositors and layer instructions
/// are not. The handler gets each frame upright and is called one frame at a time on the
/// export's background queue; it may finish its request from another thread (within a minute).
open class AVVideoComposition: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable.
    /// One frame's time at the movie's rate.
    public let frameDuration: CMTime
    /// The frames' size: the movie's, upright.
    public let renderSize: CGSize
    public var renderScale: Float { 1 }
    let filteringHandler: @Sendable (AVAsynchronousCIImageFilteringRequest) -> Void

    /// A composition that hands each frame of `asset`'s video to `applier` as a `CIImage`.
    public init(asset: AVAsset, applyingCIFiltersWithHandler applier: @escaping @Sendable (AVAsynchronousCIImageFilteringRequest) -> Void) {
        // try?: a movie that can't be described has no size here; the export then fails with
        // the reason.
        let movie = try? asset.movieDescription()
        let size: (width: Int, height: Int) = movie?.displaySize ?? (0, 0)
        renderSize = CGSize(width: size.width, height: size.height)
        let rate = movie?.video?.frameRate ?? 30
        frameDuration = CMTime(value: 1, timescale: CMTimeScale(max(1, rate.rounded())))
        filteringHandler = applier
        super.init()
    }

    /// The async form (iOS 16).
    public static func videoComposition(
        with asset: AVAsset, applyingCIFiltersWithHandler applier: @escaping @Sendable (AVAsynchronousCIImageFilteringRequest) -> Void
    ) async throws -> AVVideoComposition {
        AVVideoComposition(asset: asset, applyingCIFiltersWithHandler: applier)
    }
}

/// One frame for a Core Image composition's handler: finish it with the filtered image, or an
/// error that fails the export.
open class AVAsynchronousCIImageFilteringRequest: NSObject, @unchecked Sendable {
    // @unchecked Sendable: the outcome is behind a lock; the rest is immutable.
    public let renderSize: CGSize
    public let compositionTime: CMTime
    public let sourceImage: CIImage
    private let outcome = Mutex<Result<CIImage, any Error>?>(nil)
    private let finished = DispatchSemaphore(value: 0)

    init(renderSize: CGSize, compositionTime: CMTime, sourceImage: CIImage) {
        self.renderSize = renderSize
        self.compositionTime = compositionTime
        self.sourceImage = sourceImage
        super.init()
    }

    /// The frame's image. Linux: `context` is not read (the export renders with its own).
    public func finish(with filteredImage: CIImage, context: CIContext?) {
        settle(.success(filteredImage))
    }

    public func finish(with error: any Error) {
        settle(.failure(error))
    }

    private func settle(_ result: Result<CIImage, any Error>) {
        let first = outcome.withLock { outcome in
            guard outcome == nil else { return false }
            outcome = result
            return true
        }
        if first { finished.signal() }
    }

    /// Waits for the handler to finish the request (a minute at most).
    func image() throws -> CIImage {
        guard finished.wait(timeout: .now() + 60) == .success, let result = outcome.withLock({ $0 }) else {
            throw AVError(.exportFailed, "The video composition's handler did not finish the frame at \(compositionTime.seconds) s")
        }
        return try result.get()
    }
}
