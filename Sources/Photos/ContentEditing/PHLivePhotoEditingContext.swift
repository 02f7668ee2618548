public import AVFoundation
public import CoreImage
public import Foundation
import Imaging
import PhotosLocking

/// Whether a frame handed to a ``PHLivePhotoEditingContext/frameProcessor`` is the still or
/// one of the movie's frames.
public enum PHLivePhotoFrameType: Int, Sendable {
    case photo = 0
    case video = 1
}

/// One frame a Live Photo's frame processor edits.
public protocol PHLivePhotoFrame {
    /// The frame, upright, its origin at (0, 0).
    var image: CIImage { get }
    /// Where in the movie it is (the still's ``PHLivePhotoEditingContext/photoTime`` for the photo).
    var time: CMTime { get }
    var type: PHLivePhotoFrameType { get }
    /// 1: frames are rendered at full size.
    var renderScale: CGFloat { get }
}

/// Edits one frame: returns the edited image, or nil and an error to stop the save.
public typealias PHLivePhotoFrameProcessingBlock = (any PHLivePhotoFrame, NSErrorPointer) -> CIImage?

/// Edits a Live Photo's still and movie together.
///
/// As on Apple's platforms, a ``frameProcessor`` edits each frame as a Core Image image (the
/// still, then every frame of the movie); `saveLivePhoto(to:)` renders both into the output,
/// which a change request then commits like any edit (the asset's `.fullSizePhoto` and
/// `.fullSizePairedVideo` resources). Linux: frames (``fullSizeImage`` and each movie frame)
/// come upright, and the renders are upright; the movie is decoded and re-encoded (H.264) by
/// `ffmpeg` processes one frame at a time. Without a frame processor, ``adjustments`` (a
/// ``PHBasicAdjustments`` recipe, a Linux addition) edits both. ``audioVolume`` scales the
/// movie's sound. `prepareLivePhotoForPlayback` is not provided: nothing plays here.
public final class PHLivePhotoEditingContext: NSObject, @unchecked Sendable {
    // @unchecked Sendable: settings sit behind `state`; the rest is immutable.
    private struct State {
        var adjustments = PHBasicAdjustments()
        var audioVolume: Float = 1
        var cancelled = false
        var frameProcessor: UncheckedSendable<PHLivePhotoFrameProcessingBlock>?
    }

    private struct Frame: PHLivePhotoFrame {
        let image: CIImage
        let time: CMTime
        let type: PHLivePhotoFrameType
        var renderScale: CGFloat { 1 }
    }

    private let livePhoto: PHLivePhoto
    private let state = Mutex(State())

    /// The movie's length.
    public let duration: CMTime
    /// Where in the movie the still was taken (Apple's `com.apple.quicktime.still-image-time`
    /// when the file says, else the middle).
    public let photoTime: CMTime
    /// The still's EXIF orientation.
    public let orientation: Int32

    /// A context for the input's Live Photo; nil when the input is not a Live Photo's.
    public init?(livePhotoEditingInput: PHContentEditingInput) {
        guard let livePhoto = livePhotoEditingInput.livePhoto else { return nil }
        self.livePhoto = livePhoto
        // try?: a movie that can't be read has no length here (zero); rendering it then fails
        // with the reason.
        let movie = try? MovieDescription.of(livePhoto.videoURL)
        duration = movie?.duration ?? .zero
        let stillTime = movie?.tags["com.apple.quicktime.still-image-time"].flatMap(Double.init)
        photoTime = CMTime(seconds: stillTime ?? (duration.isNumeric ? duration.seconds / 2 : 0), preferredTimescale: 600)
        orientation = livePhotoEditingInput.fullSizeImageOrientation
        super.init()
    }

    /// The recipe applied to the still and to every frame. Linux addition (in place of
    /// `frameProcessor`).
    public var adjustments: PHBasicAdjustments {
        get { state.withLock { $0.adjustments } }
        set { state.withLock { $0.adjustments = newValue } }
    }

    /// Edits each frame (the still and the movie's) when the Live Photo is saved; nil: the
    /// ``adjustments`` do. Apple's block is not `@Sendable`; it is called on the save's
    /// background queue, one frame at a time.
    public var frameProcessor: PHLivePhotoFrameProcessingBlock? {
        get { state.withLock { $0.frameProcessor?.value } }
        set { state.withLock { $0.frameProcessor = newValue.map(UncheckedSendable.init) } }
    }

    /// The still, upright, as a Core Image image.
    public var fullSizeImage: CIImage {
        CIImage(contentsOf: livePhoto.photoURL)?.oriented(forExifOrientation: orientation) ?? .empty()
    }

    /// The movie's sound level: 0 silent, 1 unchanged.
    public var audioVolume: Float {
        get { state.withLock { $0.audioVolume } }
        set { state.withLock { $0.audioVolume = newValue } }
    }

    /// Renders the still and the movie into `output` (its ``PHContentEditingOutput/renderedContentURL``
    /// and its Live Photo movie), then calls `handler` on a background queue with `true`, or
    /// `false` and the error. Set the output's adjustment data before committing it.
    public func saveLivePhoto(
        to output: PHContentEditingOutput, options: [String: Any]? = nil,
        completionHandler handler: @escaping (Bool, (any Error)?) -> Void
    ) {
        let handler = UncheckedSendable(handler)
        let settings = state.withLock { $0 }
        let livePhoto = livePhoto
        DispatchQueue.global(qos: .userInitiated).async {
            do {
                guard !settings.cancelled else { throw PHPhotosError(.userCancelled, "The Live Photo edit was cancelled") }
                guard let movieURL = output.renderedPairedVideoURL else {
                    throw PHPhotosError(.invalidResource, "The output was not made from a Live Photo's editing input")
                }
                if let processor = settings.frameProcessor?.value {
                    try self.process(with: processor, into: output.renderedContentURL, movie: movieURL, audioVolume: settings.audioVolume)
                } else {
                    try settings.adjustments.render(imageAt: livePhoto.photoURL, to: output.renderedContentURL)
                    guard !self.state.withLock({ $0.cancelled }) else { throw PHPhotosError(.userCancelled, "The Live Photo edit was cancelled") }
                    try settings.adjustments.render(movieAt: livePhoto.videoURL, to: movieURL, audioVolume: settings.audioVolume)
                }
                handler.value(true, nil)
            } catch {
                handler.value(false, error)
            }
        }
    }

    /// The still through `processor`, written as a JPEG, then every frame of the movie.
    private func process(with processor: PHLivePhotoFrameProcessingBlock, into still: URL, movie: URL, audioVolume: Float) throws {
        func edited(_ frame: Frame) throws -> CIImage {
            var error: NSError?
            guard let image = processor(frame, &error) else {
                throw error ?? PHPhotosError(.invalidResource, "The frame processor returned no image for the \(frame.type == .photo ? "still" : "movie frame at \(frame.time.seconds) s")")
            }
            return image
        }
        let photo = fullSizeImage
        guard !photo.extent.isEmpty else { throw PHPhotosError(.invalidResource, "The Live Photo's still \(livePhoto.photoURL.path) can't be read") }
        let editedStill = try edited(Frame(image: photo, time: photoTime, type: .photo)).cropped(to: photo.extent)
        try CIContext().writeJPEGRepresentation(of: editedStill, to: still, colorSpace: CGColorSpaceCreateDeviceRGB())
        try FrameFilter.run(movie: livePhoto.videoURL, to: movie, audioVolume: audioVolume, isCancelled: { self.state.withLock { $0.cancelled } }) { frame in
            try edited(Frame(image: frame.image, time: frame.time, type: .video))
        }
    }

    /// Stops a save that has not finished rendering its movie.
    public func cancel() {
        state.withLock { $0.cancelled = true }
    }
}
