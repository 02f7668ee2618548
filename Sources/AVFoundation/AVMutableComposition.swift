public import CoreMedia
public import Foundation
import PhotosLocking

/// The track identifier that asks a composition to choose one.
public let kCMPersistentTrackID_Invalid: CMPersistentTrackID = 0

/// An asset assembled from parts of others.
open class AVComposition: AVAsset, @unchecked Sendable {}

/// A movie cut and joined from ranges of other movies: trims, joins, gaps; export it with
/// ``AVAssetExportSession``, read its frames with ``AVAssetImageGenerator``.
///
/// Linux: the composition is rendered into a movie file of its own (H.264 and AAC, by one
/// `ffmpeg` process that trims and concatenates its tracks) when something reads it — its
/// duration, tracks, an export, a frame — and again after each edit. Every part is scaled
/// to fit the first video part's upright size and frame rate (letterboxed, as AVFoundation's
/// default compositor lays out a larger source). ``tracks`` are that rendered movie's
/// `AVAssetTrack`s; the editable tracks are ``mutableTracks``. Sources must be file assets.
open class AVMutableComposition: AVComposition, @unchecked Sendable {
    // @unchecked Sendable: edits and the rendered file sit behind `state`.
    private struct State {
        var tracks: [AVMutableCompositionTrack] = []
        var rendered: Result<MovieDescription, AVError>?
    }

    private let state = Mutex(State())
    private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PhotoKitCompositions", isDirectory: true)

    public init() {
        super.init(source: URL(fileURLWithPath: "/dev/null"))
    }

    deinit {
        if case .success(let movie)? = state.withLock({ $0.rendered }) { unlink(movie.url.path) }
    }

    /// The editable tracks. Linux addition: Apple's mutable composition answers them as
    /// `tracks`; here `tracks` are the rendered movie's `AVAssetTrack`s.
    public var mutableTracks: [AVMutableCompositionTrack] { state.withLock { $0.tracks } }

    /// A new empty track of `mediaType` (`.video` or `.audio`); `kCMPersistentTrackID_Invalid`
    /// lets the composition number it.
    public func addMutableTrack(withMediaType mediaType: AVMediaType, preferredTrackID: CMPersistentTrackID) -> AVMutableCompositionTrack? {
        guard mediaType == .video || mediaType == .audio else { return nil }
        return state.withLock { state in
            let taken = Set(state.tracks.map(\.trackID))
            let id = preferredTrackID != kCMPersistentTrackID_Invalid && !taken.contains(preferredTrackID)
                ? preferredTrackID : (1...).first { !taken.contains(CMPersistentTrackID($0)) }.map { CMPersistentTrackID($0) }!
            let track = AVMutableCompositionTrack(mediaType: mediaType, trackID: id) { [weak self] in self?.edited() }
            state.tracks.append(track)
            state.rendered = nil
            return track
        }
    }

    public func removeTrack(_ track: AVCompositionTrack) {
        state.withLock { state in
            state.tracks.removeAll { $0 === track }
            state.rendered = nil
        }
    }

    /// `timeRange` of every video and audio track of `asset`, inserted at `startTime` into
    /// the first composition track of the same kind (made when there is none).
    public func insertTimeRange(_ timeRange: CMTimeRange, of asset: AVAsset, at startTime: CMTime) throws {
        let source = try asset.movieDescription()
        for mediaType in [AVMediaType.video, .audio] where source.streams.contains(where: { $0.mediaType == mediaType && !$0.isAttachedPicture }) {
            let track = mutableTracks.first { $0.mediaType == mediaType } ?? addMutableTrack(withMediaType: mediaType, preferredTrackID: kCMPersistentTrackID_Invalid)
            try track?.insert(timeRange, of: source.url, sourceDuration: source.duration, at: startTime)
        }
    }

    /// Nothing (black, silence) for `timeRange`'s duration at its start, in every track.
    public func insertEmptyTimeRange(_ timeRange: CMTimeRange) {
        for track in mutableTracks { track.insertEmptyTimeRange(timeRange) }
    }

    /// `timeRange` cut out of every track; what follows moves up.
    public func removeTimeRange(_ timeRange: CMTimeRange) {
        for track in mutableTracks { track.removeTimeRange(timeRange) }
    }

    /// Every track's `timeRange` played in `duration` (slow or fast motion); what follows moves.
    public func scaleTimeRange(_ timeRange: CMTimeRange, toDuration duration: CMTime) {
        for track in mutableTracks { track.scaleTimeRange(timeRange, toDuration: duration) }
    }

    public func track(withTrackID trackID: CMPersistentTrackID) -> AVMutableCompositionTrack? {
        mutableTracks.first { $0.trackID == trackID }
    }

    private func edited() {
        let old = state.withLock { state -> URL? in
            defer { state.rendered = nil }
            if case .success(let movie)? = state.rendered { return movie.url }
            return nil
        }
        if let old { unlink(old.path) }
    }

    /// The rendered movie's description (rendered now if an edit came since).
    override package func movieDescription() throws(AVError) -> MovieDescription {
        if let rendered = state.withLock({ $0.rendered }) { return try rendered.get() }
        let result: Result<MovieDescription, AVError>
        do throws(AVError) {
            result = .success(try CompositionRenderer(tracks: mutableTracks, folder: folder).render())
        } catch {
            result = .failure(error)
        }
        state.withLock { $0.rendered = result }
        return try result.get()
    }
}

/// One segment of a composition track: a range of a source file, or empty.
///
/// Linux: a value with the source's URL and its source and target ranges, where Apple's is a
/// class with `sourceURL`, `sourceTrackID` and a `timeMapping`.
public struct AVCompositionTrackSegment: Sendable, Equatable {
    /// The source file; nil for an empty segment.
    public let sourceURL: URL?
    /// The part of the source, in its own time.
    public let sourceRange: CMTimeRange
    /// Where it sits in the composition.
    public let targetRange: CMTimeRange
    public var isEmpty: Bool { sourceURL == nil }
}

/// An editable composition track.
open class AVCompositionTrack: NSObject, @unchecked Sendable {
    // @unchecked Sendable: segments sit behind `state`.
    public let mediaType: AVMediaType
    public let trackID: CMPersistentTrackID
    let state = Mutex<[AVCompositionTrackSegment]>([])

    init(mediaType: AVMediaType, trackID: CMPersistentTrackID) {
        self.mediaType = mediaType
        self.trackID = trackID
        super.init()
    }

    public var segments: [AVCompositionTrackSegment] { state.withLock { $0 } }

    /// The span of the segments.
    public var timeRange: CMTimeRange {
        CMTimeRange(start: .zero, duration: segments.last?.targetRange.end ?? .zero)
    }
}

/// A composition track whose segments can be edited.
open class AVMutableCompositionTrack: AVCompositionTrack, @unchecked Sendable {
    private let onEdit: @Sendable () -> Void

    init(mediaType: AVMediaType, trackID: CMPersistentTrackID, onEdit: @escaping @Sendable () -> Void) {
        self.onEdit = onEdit
        super.init(mediaType: mediaType, trackID: trackID)
    }

    /// `timeRange` of `track` (a file asset's track of the same kind) inserted at `startTime`.
    public func insertTimeRange(_ timeRange: CMTimeRange, of track: AVAssetTrack, at startTime: CMTime) throws {
        guard track.mediaType == mediaType else {
            throw AVError(.operationNotSupportedForAsset, "A \(mediaType.rawValue) track can't take a \(track.mediaType.rawValue) track's media")
        }
        guard let asset = track.asset else { throw AVError(.invalidSourceMedia, "The source track's asset is gone") }
        let source = try asset.movieDescription()
        try insert(timeRange, of: source.url, sourceDuration: source.duration, at: startTime)
    }

    func insert(_ range: CMTimeRange, of url: URL, sourceDuration: CMTime, at startTime: CMTime) throws(AVError) {
        guard range.start.isNumeric, range.duration.isNumeric, range.duration.seconds > 0, range.start.seconds >= 0,
            range.end.seconds <= sourceDuration.seconds + 0.001
        else {
            throw AVError(.invalidSourceMedia, "\(range) is not inside \(url.lastPathComponent) (\(sourceDuration.seconds) s)")
        }
        place(AVCompositionTrackSegment(sourceURL: url, sourceRange: range, targetRange: CMTimeRange(start: startTime, duration: range.duration)))
    }

    /// An empty segment for `timeRange`'s duration at its start.
    public func insertEmptyTimeRange(_ timeRange: CMTimeRange) {
        guard timeRange.duration.isNumeric, timeRange.duration.seconds > 0 else { return }
        place(AVCompositionTrackSegment(sourceURL: nil, sourceRange: timeRange, targetRange: timeRange))
    }

    /// `timeRange` cut out; what follows moves up.
    public func removeTimeRange(_ timeRange: CMTimeRange) {
        reshape(timeRange, toLength: 0) { _, _, _ in nil }
    }

    /// `timeRange` played in `duration`: the segments inside it (cut at its ends) last
    /// `duration / timeRange.duration` times as long, their source unchanged, and what follows
    /// moves. Linux: rendering (an `ffmpeg` process) speeds the pictures up or slows them down
    /// (frames repeated or dropped at the composition's rate) and the sound with them, its
    /// pitch kept (`atempo`).
    public func scaleTimeRange(_ timeRange: CMTimeRange, toDuration duration: CMTime) {
        let length = duration.seconds
        guard length.isFinite, length > 0 else { return }
        let (from, factor) = (timeRange.start.seconds, length / timeRange.duration.seconds)
        reshape(timeRange, toLength: length) { segment, a, b in
            segment.trimmed(from: a, to: b, placedAt: from + (a - from) * factor, lasting: (b - a) * factor)
        }
    }

    /// Each segment cut at `timeRange`'s ends: the parts before it stay, each part inside it
    /// (the segment, and the part's composition times) becomes what `inside` makes of it (nil:
    /// dropped), and the parts after it move so the range lasts `length`.
    private func reshape(
        _ timeRange: CMTimeRange, toLength length: Double, inside: (AVCompositionTrackSegment, Double, Double) -> AVCompositionTrackSegment?
    ) {
        let (from, to) = (timeRange.start.seconds, timeRange.end.seconds)
        guard to > from else { return }
        state.withLock { segments in
            var result: [AVCompositionTrackSegment] = []
            for segment in segments {
                let (start, end) = (segment.targetRange.start.seconds, segment.targetRange.end.seconds)
                if start < from { result.append(segment.trimmed(from: start, to: min(end, from), placedAt: start)) }
                if min(end, to) > max(start, from), let part = inside(segment, max(start, from), min(end, to)) { result.append(part) }
                if end > to { result.append(segment.trimmed(from: max(start, to), to: end, placedAt: max(start, to) + length - (to - from))) }
            }
            segments = result.filter { $0.targetRange.duration.seconds > 1e-6 }
        }
        onEdit()
    }

    /// Puts `segment` at its target start, splitting the segment there and moving what follows.
    private func place(_ segment: AVCompositionTrackSegment) {
        let at = segment.targetRange.start.seconds
        let length = segment.targetRange.duration.seconds
        state.withLock { segments in
            var result: [AVCompositionTrackSegment] = []
            let end = segments.last?.targetRange.end.seconds ?? 0
            if at > end + 1e-6 {
                // A gap before the new part stays empty.
                let gap = CMTimeRange(start: CMTime(seconds: end, preferredTimescale: 600), duration: CMTime(seconds: at - end, preferredTimescale: 600))
                segments.append(AVCompositionTrackSegment(sourceURL: nil, sourceRange: gap, targetRange: gap))
            }
            for existing in segments {
                let (start, stop) = (existing.targetRange.start.seconds, existing.targetRange.end.seconds)
                if stop <= at + 1e-9 {
                    result.append(existing)
                } else if start >= at - 1e-9 {
                    result.append(existing.trimmed(from: start, to: stop, placedAt: start + length))
                } else {
                    result.append(existing.trimmed(from: start, to: at, placedAt: start))
                    result.append(existing.trimmed(from: at, to: stop, placedAt: at + length))
                }
            }
            result.append(segment)
            segments = result.sorted { $0.targetRange.start.seconds < $1.targetRange.start.seconds }
        }
        onEdit()
    }
}

extension AVCompositionTrackSegment {
    /// How many seconds of the composition a second of the source lasts (1 unless scaled).
    var scale: Double {
        let source = sourceRange.duration.seconds
        return source > 0 ? targetRange.duration.seconds / source : 1
    }

    /// The part of the segment between composition times `from` and `to`, placed at `placedAt`
    /// and lasting `lasting` seconds there (by default as long as it lasted).
    func trimmed(from: Double, to: Double, placedAt: Double, lasting: Double? = nil) -> AVCompositionTrackSegment {
        let target = CMTimeRange(
            start: CMTime(seconds: placedAt, preferredTimescale: 600), duration: CMTime(seconds: lasting ?? (to - from), preferredTimescale: 600))
        guard sourceURL != nil else { return AVCompositionTrackSegment(sourceURL: nil, sourceRange: target, targetRange: target) }
        let scale = self.scale
        let source = CMTimeRange(
            start: CMTime(seconds: sourceRange.start.seconds + (from - targetRange.start.seconds) / scale, preferredTimescale: 600),
            duration: CMTime(seconds: (to - from) / scale, preferredTimescale: 600))
        return AVCompositionTrackSegment(sourceURL: sourceURL, sourceRange: source, targetRange: target)
    }
}
