public import Foundation
import PhotosLocking

/// Transcodes an asset to a new file with a preset: a size, a codec, a container.
///
/// Linux: backed by an `ffmpeg` process (see ``AVAssetExportPresetPassthrough`` and the
/// other preset names for what each writes). The output is written to a hidden file beside
/// ``outputURL`` and renamed into place when complete, so a failed or cancelled export
/// leaves nothing behind; ``cancelExport()`` kills the process at once. As on Apple's
/// platforms, an export into an existing file fails with ``AVError/Code/fileAlreadyExists``.
/// ``progress`` follows the encoder's output time.
public class AVAssetExportSession: NSObject, @unchecked Sendable {
    // @unchecked Sendable: every mutable property sits behind `state`.
    /// Where an export stands. Raw values are Apple's.
    public enum Status: Int, Sendable {
        case unknown = 0
        case waiting = 1
        case exporting = 2
        case completed = 3
        case failed = 4
        case cancelled = 5
    }

    private struct State {
        var outputURL: URL?
        var outputFileType: AVFileType?
        var timeRange = CMTimeRange(start: .zero, duration: .positiveInfinity)
        var shouldOptimizeForNetworkUse = false
        var fileLengthLimit: Int64 = 0
        var audioMix: AVAudioMix?
        var videoComposition: AVVideoComposition?
        var status = Status.unknown
        var error: (any Error)?
        var progress: Float = 0
        var job: FFmpegJob?
        var cancelled = false
        var progressObserver: (@Sendable (Float) -> Void)?
        var niceness = 0
    }

    public let asset: AVAsset
    public let presetName: String
    let preset: ExportPreset
    private let state = Mutex(State())

    /// A session for `asset` with one of the `AVAssetExportPreset…` names; `nil` for a name
    /// the stand-in doesn't know.
    public init?(asset: AVAsset, presetName: String) {
        guard let preset = ExportPreset.named(presetName) else { return nil }
        self.asset = asset
        self.presetName = presetName
        self.preset = preset
        super.init()
    }

    /// Made by the library for its own renditions, with a faster encoder setting. Linux only.
    package init(asset: AVAsset, preset: ExportPreset) {
        self.asset = asset
        self.presetName = preset.name
        self.preset = preset
        super.init()
    }

    // MARK: Settings

    public var outputURL: URL? {
        get { state.withLock { $0.outputURL } }
        set { state.withLock { $0.outputURL = newValue } }
    }
    public var outputFileType: AVFileType? {
        get { state.withLock { $0.outputFileType } }
        set { state.withLock { $0.outputFileType = newValue } }
    }
    /// The part of the asset to export; all of it unless set.
    public var timeRange: CMTimeRange {
        get { state.withLock { $0.timeRange } }
        set { state.withLock { $0.timeRange = newValue } }
    }
    /// Puts the movie header first ("fast start"), so a browser can play while downloading.
    public var shouldOptimizeForNetworkUse: Bool {
        get { state.withLock { $0.shouldOptimizeForNetworkUse } }
        set { state.withLock { $0.shouldOptimizeForNetworkUse = newValue } }
    }
    /// Stops writing at this many bytes (0: no limit).
    public var fileLengthLimit: Int64 {
        get { state.withLock { $0.fileLengthLimit } }
        set { state.withLock { $0.fileLengthLimit = newValue } }
    }
    /// Kept and not applied: the stand-in mixes no audio.
    /// Draws the frames through a Core Image handler (``AVVideoComposition/init(asset:applyingCIFiltersWithHandler:)``):
    /// the movie is re-encoded frame by frame first, then exported with the preset.
    public var videoComposition: AVVideoComposition? {
        get { state.withLock { $0.videoComposition } }
        set { state.withLock { $0.videoComposition = newValue } }
    }

    public var audioMix: AVAudioMix? {
        get { state.withLock { $0.audioMix } }
        set { state.withLock { $0.audioMix = newValue } }
    }
    public var supportedFileTypes: [AVFileType] { preset.fileTypes }

    // MARK: State

    public var status: Status { state.withLock { $0.status } }
    /// Why the export failed (an ``AVError``), or `CocoaError(.userCancelled)` once cancelled.
    public var error: (any Error)? { state.withLock { $0.error } }
    /// 0...1.
    public var progress: Float { state.withLock { $0.progress } }

    /// Runs the encoder under `nice` (background work). Linux only.
    package var niceness: Int {
        get { state.withLock { $0.niceness } }
        set { state.withLock { $0.niceness = newValue } }
    }

    /// Runs the export on the calling thread (the library's own workers have threads of
    /// their own); `status`, `error` and `progress` as for ``exportAsynchronously(completionHandler:)``.
    package func exportSynchronously() {
        let start = state.withLock { state -> Bool in
            guard state.status == .unknown, !state.cancelled else { return false }
            state.status = .waiting
            return true
        }
        if start { export() }
    }

    /// Called with each progress update, on the export's queue (tests wait on it).
    package var progressObserver: (@Sendable (Float) -> Void)? {
        get { state.withLock { $0.progressObserver } }
        set { state.withLock { $0.progressObserver = newValue } }
    }

    public class func allExportPresets() -> [String] { ExportPreset.all }

    /// The presets that can export `asset`: all but Apple M4A for a movie with video, Apple
    /// M4A and Passthrough for audio alone, none for a file FFmpeg can't read.
    public class func exportPresets(compatibleWith asset: AVAsset) -> [String] {
        guard let movie = try? asset.movieDescription() else { return [] }
        if movie.video != nil { return ExportPreset.all.filter { $0 != AVAssetExportPresetAppleM4A || movie.audio != nil } }
        return movie.audio != nil ? [AVAssetExportPresetAppleM4A, AVAssetExportPresetPassthrough] : []
    }

    public func determineCompatibleFileTypes(completionHandler handler: @escaping ([AVFileType]) -> Void) {
        let handler = UncheckedBox(handler)
        let types = supportedFileTypes
        DispatchQueue.global().async { handler.value(types) }
    }

    // MARK: Exporting

    /// Starts the export on a background queue; `handler` runs there when it has completed,
    /// failed or been cancelled (read ``status`` and ``error``).
    public func exportAsynchronously(completionHandler handler: @escaping () -> Void) {
        let handler = UncheckedBox(handler)
        let start = state.withLock { state -> Bool in
            guard state.status == .unknown else { return false }
            state.status = state.cancelled ? .cancelled : .waiting
            return !state.cancelled
        }
        guard start else {
            DispatchQueue.global().async { handler.value() }
            return
        }
        Self.queue.async {
            self.export()
            handler.value()
        }
    }

    /// Exports to `url` as `fileType` (the async form of iOS 18). Cancelling the task
    /// cancels the export and throws `CancellationError`.
    public func export(to url: URL, as fileType: AVFileType) async throws {
        outputURL = url
        outputFileType = fileType
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                exportAsynchronously { continuation.resume() }
            }
        } onCancel: {
            cancelExport()
        }
        switch status {
        case .completed: return
        case .cancelled: throw CancellationError()
        default: throw error ?? AVError(.exportFailed, "The export of \(asset) failed")
        }
    }

    /// Stops the export: the `ffmpeg` process is killed, its partial file removed, ``status``
    /// becomes `.cancelled`.
    public func cancelExport() {
        let job = state.withLock { state -> FFmpegJob? in
            state.cancelled = true
            if state.status == .unknown || state.status == .waiting {
                state.status = .cancelled
                state.error = CocoaError(.userCancelled)
            }
            return state.job
        }
        job?.cancel()
    }

    private static let queue = DispatchQueue(label: "AVAssetExportSession", qos: .utility, attributes: .concurrent)

    private func export() {
        let settings = state.withLock { state -> State? in
            guard !state.cancelled else { return nil }
            state.status = .exporting
            return state
        }
        guard let settings else { return }
        let outcome: Result<Void, FFmpegJob.Stop>
        do throws(FFmpegJob.Stop) {
            try run(settings)
            outcome = .success(())
        } catch {
            outcome = .failure(error)
        }
        state.withLock { state in
            state.job = nil
            switch outcome {
            case .success:
                state.status = .completed
                state.progress = 1
            case .failure(.cancelled):
                state.status = .cancelled
                state.error = CocoaError(.userCancelled)
            case .failure(.failed(let error)):
                state.status = state.cancelled ? .cancelled : .failed
                state.error = state.cancelled ? CocoaError(.userCancelled) : error
            }
        }
    }

    private func run(_ settings: State) throws(FFmpegJob.Stop) {
        guard let output = settings.outputURL else {
            throw .failed(AVError(.exportFailed, "The export session has no outputURL"))
        }
        guard let fileType = settings.outputFileType else {
            throw .failed(AVError(.exportFailed, "The export session has no outputFileType (set .mp4 or .mov)"))
        }
        guard preset.fileTypes.contains(fileType), let muxer = fileType.muxer else {
            throw .failed(
                AVError(
                    .exportFailed,
                    "\(presetName) can't write \(fileType.rawValue); it writes \(preset.fileTypes.map(\.rawValue).joined(separator: ", "))"))
        }
        let folder = output.deletingLastPathComponent()
        if FileManager.default.fileExists(atPath: output.path) {
            throw .failed(AVError(.fileAlreadyExists, "Can't export to \(output.path): the file exists"))
        }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            throw .failed(AVError(.exportFailed, "Can't export to \(output.path): there is no folder \(folder.path)"))
        }
        var movie: MovieDescription
        do throws(AVError) {
            movie = try asset.movieDescription()
        } catch {
            throw .failed(error)
        }
        // A Core Image composition: every frame through its handler into a movie of its own,
        // which the preset then exports.
        let composed = folder.appendingPathComponent(".\(output.lastPathComponent).\(UUID().uuidString).composition.mov")
        defer { unlink(composed.path) }
        if let composition = settings.videoComposition {
            do throws(AVError) {
                try FrameFilter.run(movie: movie.url, to: composed, isCancelled: { self.state.withLock { $0.cancelled } }) { frame in
                    let request = AVAsynchronousCIImageFilteringRequest(
                        renderSize: composition.renderSize, compositionTime: frame.time, sourceImage: frame.image)
                    composition.filteringHandler(request)
                    return try request.image()
                }
                movie = try MovieDescription.of(composed)
            } catch {
                throw state.withLock({ $0.cancelled }) ? .cancelled : .failed(error)
            }
        }
        if preset.video != .none && preset.video != .copy && movie.video == nil {
            throw .failed(AVError(.noSourceTrack, "\(movie.url.lastPathComponent) has no video track for \(presetName)"))
        }
        var arguments: [String] = []
        let total = movie.duration.isNumeric ? movie.duration.seconds : 0
        var start = 0.0
        var length = total
        let range = settings.timeRange
        if range.start.isNumeric, range.start.seconds > 0 {
            start = range.start.seconds
            arguments += ["-ss", String(format: "%.6f", start)]
            length = max(0, total - start)
        }
        arguments += ["-i", movie.url.path]
        if range.duration.isNumeric {
            arguments += ["-t", String(format: "%.6f", range.duration.seconds)]
            length = total > 0 ? min(length, range.duration.seconds) : range.duration.seconds
        }
        arguments += preset.codecArguments(for: movie)
        if settings.shouldOptimizeForNetworkUse, muxer != "3gp" { arguments += ["-movflags", "+faststart"] }
        if settings.fileLengthLimit > 0 { arguments += ["-fs", String(settings.fileLengthLimit)] }
        let temporary = folder.appendingPathComponent(".\(output.lastPathComponent).\(UUID().uuidString).partial")
        arguments += ["-f", muxer, "-y", temporary.path]

        let job = FFmpegJob(arguments: arguments, expectedDuration: length, niceness: settings.niceness)
        let cancelledBeforeStart = state.withLock { state -> Bool in
            state.job = job
            return state.cancelled
        }
        if cancelledBeforeStart { throw .cancelled }
        defer { unlink(temporary.path) }
        try job.run(what: "Exporting \(movie.url.lastPathComponent) with \(presetName)") { fraction in
            let (progress, observer) = state.withLock { state in
                state.progress = max(state.progress, Float(fraction))
                return (state.progress, state.progressObserver)
            }
            observer?(progress)
        }
        // Linked, not renamed: a file that appeared meanwhile at `output` is not replaced.
        guard link(temporary.path, output.path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw .failed(
                AVError(errno == EEXIST ? .fileAlreadyExists : .exportFailed, "Can't write \(output.path): \(reason)"))
        }
    }
}
