public import Foundation

/// A track's identifier within its asset.
public typealias CMPersistentTrackID = Int32

/// One track of an ``AVAsset``: its media type, size, transform and timing.
///
/// Linux: made from `ffprobe`'s stream description; ``codecName`` is a Linux addition
/// (Apple's code reads the codec from `formatDescriptions`, which the stand-in does not have).
public final class AVAssetTrack: NSObject, AVAsynchronousKeyValueLoading, @unchecked Sendable {
    // @unchecked Sendable: immutable.
    public private(set) weak var asset: AVAsset?
    public let trackID: CMPersistentTrackID
    public let mediaType: AVMediaType
    /// The encoded frame size, before ``preferredTransform`` (a portrait phone video is
    /// 1920×1080 here and 1080×1920 on screen).
    public let naturalSize: CGSize
    /// How to show the frames upright: a rotation (and translation back into view) in
    /// Apple's convention, from the file's display matrix.
    public let preferredTransform: CGAffineTransform
    /// Frames per second (0 for audio).
    public let nominalFrameRate: Float
    public let timeRange: CMTimeRange
    /// Bits per second.
    public let estimatedDataRate: Float
    /// The track's language (ISO 639-2), when the file says.
    public let languageCode: String?
    /// Audio sample rate in Hz (0 for video). Linux addition.
    public let sampleRate: Double
    /// FFmpeg's name of the codec: `h264`, `hevc`, `prores`, `vp9`, `aac`... Linux addition.
    public let codecName: String?
    /// The sample entry's four-character code (`avc1`, `hvc1`, `hev1`, `mp4a`), when the
    /// container has one. Linux addition.
    public let codecTag: String?

    init(asset: AVAsset, stream: MovieDescription.Stream) {
        self.asset = asset
        trackID = CMPersistentTrackID(stream.index + 1)
        mediaType = stream.mediaType
        naturalSize = CGSize(width: stream.width, height: stream.height)
        let (a, b, c, d) = stream.matrix
        var transform = CGAffineTransform(a: CGFloat(a), b: CGFloat(b), c: CGFloat(c), d: CGFloat(d), tx: 0, ty: 0)
        // Apple's files carry the translation that brings the rotated frame back to the
        // origin (tx = height for a quarter turn clockwise); ffprobe drops it, so it is put back.
        let corners = [CGPoint(x: 0, y: 0), CGPoint(x: stream.width, y: 0), CGPoint(x: 0, y: stream.height), CGPoint(x: stream.width, y: stream.height)]
            .map { $0.applying(transform) }
        transform.tx = -(corners.map(\.x).min() ?? 0)
        transform.ty = -(corners.map(\.y).min() ?? 0)
        preferredTransform = transform
        nominalFrameRate = Float(stream.frameRate)
        timeRange = CMTimeRange(start: stream.start, duration: stream.duration.isNumeric ? stream.duration : asset.duration)
        estimatedDataRate = Float(stream.bitRate)
        languageCode = stream.tags["language"].flatMap { $0 == "und" ? nil : $0 }
        sampleRate = stream.sampleRate
        codecName = stream.codecName
        codecTag = stream.codecTag
        super.init()
    }

    public var isPlayable: Bool { codecName != nil }
    public var isEnabled: Bool { true }
    public var isSelfContained: Bool { true }

    public func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus { .loaded }

    public func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (() -> Void)? = nil) {
        let handler = UncheckedBox(handler)
        DispatchQueue.global(qos: .userInitiated).async { handler.value?() }
    }
}

extension AVPartialAsyncProperty where Root == AVAssetTrack {
    public static var naturalSize: AVAsyncProperty<AVAssetTrack, CGSize> { AVAsyncProperty(name: "naturalSize") { $0.naturalSize } }
    public static var preferredTransform: AVAsyncProperty<AVAssetTrack, CGAffineTransform> {
        AVAsyncProperty(name: "preferredTransform") { $0.preferredTransform }
    }
    public static var nominalFrameRate: AVAsyncProperty<AVAssetTrack, Float> {
        AVAsyncProperty(name: "nominalFrameRate") { $0.nominalFrameRate }
    }
    public static var timeRange: AVAsyncProperty<AVAssetTrack, CMTimeRange> { AVAsyncProperty(name: "timeRange") { $0.timeRange } }
    public static var estimatedDataRate: AVAsyncProperty<AVAssetTrack, Float> {
        AVAsyncProperty(name: "estimatedDataRate") { $0.estimatedDataRate }
    }
    public static var languageCode: AVAsyncProperty<AVAssetTrack, String?> { AVAsyncProperty(name: "languageCode") { $0.languageCode } }
    public static var isPlayable: AVAsyncProperty<AVAssetTrack, Bool> { AVAsyncProperty(name: "playable") { $0.isPlayable } }
    public static var isEnabled: AVAsyncProperty<AVAssetTrack, Bool> { AVAsyncProperty(name: "enabled") { $0.isEnabled } }
}
