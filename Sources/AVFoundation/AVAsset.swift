public import Foundation
import PhotosLocking

/// A timed audiovisual work: a movie's duration, tracks and what can be done with it.
///
/// Linux: a stand-in backed by FFmpeg. Properties are read with `ffprobe` on first use (the
/// `load(_:)` forms off the caller's thread, the synchronous forms on it) and kept; a file
/// FFmpeg can't read makes `load` throw an ``AVError`` naming it and the synchronous forms
/// answer empty values (zero duration, no tracks), as Apple's do for an unloadable asset.
/// Nothing here plays media: playback belongs to a UI (the web gallery plays videos in the
/// browser).
open class AVAsset: NSObject, AVAsynchronousKeyValueLoading, @unchecked Sendable {
    // @unchecked Sendable: the file's description is loaded once behind a Mutex; the rest is
    // immutable.
    /// The file behind the asset.
    let source: URL
    private let loaded = Mutex<Result<MovieDescription, AVError>?>(nil)

    init(source: URL) {
        self.source = source
        super.init()
    }

    /// The file's description, read once.
    package func movieDescription() throws(AVError) -> MovieDescription {
        if let known = loaded.withLock({ $0 }) { return try known.get() }
        let result: Result<MovieDescription, AVError>
        do throws(AVError) {
            result = .success(try MovieDescription.of(source))
        } catch {
            result = .failure(error)
        }
        loaded.withLock { $0 = result }
        return try result.get()
    }

    private var descriptionIfReadable: MovieDescription? { try? movieDescription() }

    // MARK: Properties (the synchronous forms, deprecated on Apple's platforms since iOS 16)

    /// The longest track's span; `.zero` when the file can't be read.
    public var duration: CMTime { descriptionIfReadable?.duration ?? .zero }

    /// The tracks, video first as the file orders them.
    public var tracks: [AVAssetTrack] {
        guard let description = descriptionIfReadable else { return [] }
        return description.streams.filter { !$0.isAttachedPicture }.map { AVAssetTrack(asset: self, stream: $0) }
    }

    public func tracks(withMediaType mediaType: AVMediaType) -> [AVAssetTrack] {
        tracks.filter { $0.mediaType == mediaType }
    }

    public func track(withTrackID trackID: CMPersistentTrackID) -> AVAssetTrack? {
        tracks.first { $0.trackID == trackID }
    }

    /// `true` when FFmpeg can decode a video or audio track of it.
    public var isPlayable: Bool { descriptionIfReadable.map { $0.video != nil || $0.audio != nil } ?? false }
    /// `true` when an ``AVAssetExportSession`` can export it.
    public var isExportable: Bool { isPlayable }
    public var isReadable: Bool { isPlayable }
    public var isComposable: Bool { isPlayable }
    /// The video track's transform (identity without video).
    public var preferredTransform: CGAffineTransform { tracks(withMediaType: .video).first?.preferredTransform ?? .identity }
    public var preferredRate: Float { 1 }
    public var preferredVolume: Float { 1 }
    /// The natural size of the video track, unrotated (deprecated on Apple's platforms).
    public var naturalSize: CGSize { tracks(withMediaType: .video).first?.naturalSize ?? .zero }

    // MARK: Loading

    /// Video tracks: `try await asset.loadTracks(withMediaType: .video)`.
    public func loadTracks(withMediaType mediaType: AVMediaType) async throws -> [AVAssetTrack] {
        try await load(.tracks).filter { $0.mediaType == mediaType }
    }

    public func loadTrack(withTrackID trackID: CMPersistentTrackID) async throws -> AVAssetTrack? {
        try await load(.tracks).first { $0.trackID == trackID }
    }

    public func statusOfValue(forKey key: String, error outError: NSErrorPointer) -> AVKeyValueStatus {
        guard let result = loaded.withLock({ $0 }) else { return .unknown }
        switch result {
        case .success: return Self.knownKeys.contains(key) ? .loaded : .failed
        case .failure(let error):
            outError?.pointee = NSError(domain: AVFoundationErrorDomain, code: error.code.rawValue, userInfo: error.errorUserInfo)
            return .failed
        }
    }

    /// Reads the file on a background queue, then calls `handler` there.
    public func loadValuesAsynchronously(forKeys keys: [String], completionHandler handler: (() -> Void)? = nil) {
        let handler = UncheckedBox(handler)
        DispatchQueue.global(qos: .userInitiated).async {
            _ = try? self.movieDescription()
            handler.value?()
        }
    }

    static let knownKeys: Set<String> = [
        "duration", "tracks", "playable", "isPlayable", "exportable", "isExportable", "readable", "isReadable",
        "preferredTransform", "naturalSize", "composable", "preferredRate", "preferredVolume",
    ]
}

/// An asset read from a file URL.
///
/// Linux: only `file:` URLs; the `options` (`AVURLAssetPreferPreciseDurationAndTimingKey`
/// and others) are accepted and change nothing: durations are always read exactly.
open class AVURLAsset: AVAsset, @unchecked Sendable {
    /// The file.
    public let url: URL

    public init(url URL: URL, options: [String: Any]? = nil) {
        url = URL
        super.init(source: URL)
    }

    /// The file types the stand-in reads (what FFmpeg demuxes; these are the usual ones).
    public class func audiovisualTypes() -> [AVFileType] { [.mov, .mp4, .m4v, .m4a, .mobile3GPP] }

    public class func isPlayableExtendedMIMEType(_ extendedMIMEType: String) -> Bool {
        let type = extendedMIMEType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return ["video/mp4", "video/quicktime", "video/x-m4v", "audio/mp4", "video/3gpp", "video/x-matroska", "video/webm"]
            .contains(type)
    }
}

/// Option key of ``AVURLAsset/init(url:options:)``; accepted and ignored on Linux.
public let AVURLAssetPreferPreciseDurationAndTimingKey = "AVURLAssetPreferPreciseDurationAndTimingKey"

extension AVPartialAsyncProperty where Root: AVAsset {
    /// A property read once the file has been (a failure to read it throws).
    private static func loaded<Value>(_ name: String, _ value: @escaping (Root) -> Value) -> AVAsyncProperty<Root, Value> {
        AVAsyncProperty(name: name) { asset in
            _ = try asset.movieDescription()
            return value(asset)
        }
    }

    public static var duration: AVAsyncProperty<Root, CMTime> {
        AVAsyncProperty(name: "duration") { try $0.movieDescription().duration }
    }
    public static var tracks: AVAsyncProperty<Root, [AVAssetTrack]> { loaded("tracks") { $0.tracks } }
    public static var isPlayable: AVAsyncProperty<Root, Bool> { loaded("playable") { $0.isPlayable } }
    public static var isExportable: AVAsyncProperty<Root, Bool> { loaded("exportable") { $0.isExportable } }
    public static var isReadable: AVAsyncProperty<Root, Bool> { loaded("readable") { $0.isReadable } }
    public static var preferredTransform: AVAsyncProperty<Root, CGAffineTransform> {
        loaded("preferredTransform") { $0.preferredTransform }
    }
    public static var preferredRate: AVAsyncProperty<Root, Float> { AVAsyncProperty(name: "preferredRate") { _ in 1 } }
    public static var preferredVolume: AVAsyncProperty<Root, Float> { AVAsyncProperty(name: "preferredVolume") { _ in 1 } }
}
