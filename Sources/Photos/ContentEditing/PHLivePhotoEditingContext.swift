public import Foundation
import AVFoundation
import Imaging
import PhotosLocking

/// Edits a Live Photo's still and movie together.
///
/// Linux: Apple's context hands each frame to a `frameProcessor` as a Core Image image, which
/// Linux does not have. Here the edit is a ``PHBasicAdjustments`` recipe (``adjustments``),
/// applied to the still with libvips and to every frame of the movie with `ffmpeg`, so both
/// show the same edit; ``audioVolume`` scales the movie's sound. `saveLivePhoto(to:)` writes
/// both into the output, which a change request then commits like any edit (the asset's
/// `.fullSizePhoto` and `.fullSizePairedVideo` resources).
/// `prepareLivePhotoForPlayback` is not provided: nothing plays here.
public final class PHLivePhotoEditingContext: NSObject, @unchecked Sendable {
    // @unchecked Sendable: settings sit behind `state`; the rest is immutable.
    private struct State {
        var adjustments = PHBasicAdjustments()
        var audioVolume: Float = 1
        var cancelled = false
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
                try settings.adjustments.render(imageAt: livePhoto.photoURL, to: output.renderedContentURL)
                guard !self.state.withLock({ $0.cancelled }) else { throw PHPhotosError(.userCancelled, "The Live Photo edit was cancelled") }
                try settings.adjustments.render(movieAt: livePhoto.videoURL, to: movieURL, audioVolume: settings.audioVolume)
                handler.value(true, nil)
            } catch {
                handler.value(false, error)
            }
        }
    }

    /// Stops a save that has not finished rendering its movie.
    public func cancel() {
        state.withLock { $0.cancelled = true }
    }
}
