public import Foundation

/// What a player would play: an asset and its presentation state.
///
/// Linux: there is no player; an item carries its asset, its duration and the upright
/// presentation size, and is ``Status-swift.enum/readyToPlay`` once its file has been read
/// (``Status-swift.enum/failed`` with ``error`` when FFmpeg can't read it). PhotoKit's
/// `requestPlayerItem` delivers items already read.
public final class AVPlayerItem: NSObject {
    /// Where an item stands. Raw values are Apple's.
    public enum Status: Int, Sendable {
        case unknown = 0
        case readyToPlay = 1
        case failed = 2
    }

    public let asset: AVAsset

    public init(asset: AVAsset) {
        self.asset = asset
        super.init()
    }

    public convenience init(url URL: URL) {
        self.init(asset: AVURLAsset(url: URL))
    }

    /// `.readyToPlay` when the file has been read, `.failed` when it can't be.
    public var status: Status {
        var error: NSError?
        switch asset.statusOfValue(forKey: "duration", error: &error) {
        case .loaded: return .readyToPlay
        case .failed: return .failed
        default: return .unknown
        }
    }

    /// Why the item can't play, when ``status`` is `.failed`.
    public var error: (any Error)? {
        do {
            _ = try asset.movieDescription()
            return nil
        } catch {
            return status == .failed ? error : nil
        }
    }

    /// The asset's duration once read (`.indefinite` before, as on Apple's platforms).
    public var duration: CMTime { status == .readyToPlay ? asset.duration : .indefinite }

    /// The video's size as shown (after its rotation); `.zero` before the file is read.
    public var presentationSize: CGSize {
        guard status == .readyToPlay, let video = try? asset.movieDescription().displaySize else { return .zero }
        return CGSize(width: video.width, height: video.height)
    }

    /// The playhead: always the start, as nothing plays here.
    public func currentTime() -> CMTime { .zero }

    /// The audio mix to apply; kept, not applied (nothing plays here).
    public var audioMix: AVAudioMix?
}

/// How audio tracks are mixed. PhotoKit hands one out with slow-motion videos on Apple's
/// platforms; here `requestAVAsset` always delivers `nil` (no ramps are applied).
open class AVAudioMix: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: immutable.
    public let inputParameters: [AVAudioMixInputParameters]

    public override init() {
        inputParameters = []
        super.init()
    }

    init(inputParameters: [AVAudioMixInputParameters]) {
        self.inputParameters = inputParameters
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }
}

/// One track's part of an ``AVAudioMix``.
open class AVAudioMixInputParameters: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable.
    public let trackID: CMPersistentTrackID

    public init(trackID: CMPersistentTrackID) {
        self.trackID = trackID
        super.init()
    }
}
