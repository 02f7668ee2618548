import AVFoundation
import Foundation
import Logging
import UniformTypeIdentifiers
package import PhotosStore
import PhotosLocking

/// A step of the rendition work, for tests to wait on.
package enum VideoRenditionEvent: Sendable, Equatable {
    case started(assetUUID: String, foreground: Bool)
    case finished(assetUUID: String, state: RenditionState)
    case failed(assetUUID: String, reason: String)
}

/// How a browser can play a movie.
package enum BrowserPlayability: Sendable, Equatable {
    /// As it is: H.264 (8-bit 4:2:0), VP8/9 or AV1 with AAC, MP3, Opus, Vorbis, FLAC or no
    /// sound, in an MP4 (or WebM for the open codecs).
    case asIs
    /// Its streams play, its container doesn't (a QuickTime movie): copied into an MP4.
    case remux
    /// Anything else (HEVC, ProRes, MPEG-2, AVI, 10-bit H.264, PCM sound...): H.264/AAC.
    case transcode

    /// Chromium and Firefox's set; Safari adds HEVC, which the others don't play.
    static func of(_ movie: MovieDescription) -> BrowserPlayability {
        guard let video = movie.video else { return .transcode }
        let videoPlays: Bool =
            switch video.codecName {
            case "h264": ["yuv420p", "yuvj420p"].contains(video.pixelFormat ?? "yuv420p")
            case "vp8", "vp9", "av1": true
            default: false
            }
        let audioPlays = movie.audio.map { ["aac", "mp3", "opus", "vorbis", "flac"].contains($0.codecName ?? "") } ?? true
        guard videoPlays, audioPlays else { return .transcode }
        if movie.formatName.contains("webm") { return .asIs }
        guard movie.formatName.contains("mp4") else { return .transcode }
        return movie.tags["major_brand"]?.trimmingCharacters(in: .whitespaces) == "qt" ? .remux : .asIs
    }
}

/// The browser-playable renditions of one library's videos and Live Photos' movies
/// (``VideoRendition`` names the
/// files): the work waiting lives in the library (`videoRendition` rows, which triggers keep
/// pending for new and edited videos), so it survives restarts and is shared by every
/// process. Background workers take due work at `nice` 10, a few at a time; a request for a
/// video a person is waiting for makes its rendition at once (joining the work if a worker
/// has it). A failure is recorded with its reason and retried after 1 min, 2, 4... (at most
/// a day), behind everything else due.
package final class VideoRenditions: Sendable {
    /// A movie a browser can play, and what it is.
    package struct Playable: Sendable {
        package var url: URL
        package var mimeType: String
        /// False when the original plays as it is.
        package var isRendition: Bool
        /// The movie's size, when `url` is its object in the library's bucket: it plays as it
        /// is and isn't on this machine, so a server streams it from there.
        package var objectSize: Int64?

        package init(url: URL, mimeType: String, isRendition: Bool, objectSize: Int64? = nil) {
            self.url = url
            self.mimeType = mimeType
            self.isRendition = isRendition
            self.objectSize = objectSize
        }
    }

    /// A caller waiting for a rendition.
    private typealias Waiter = @Sendable (Result<Playable, PHPhotosError>) -> Void

    private let store: LibraryDatabase
    private let concurrency: Int
    private let delegate: any PHPhotoLibrary.Delegate
    /// Where failures the work goes on from are reported (the library's logger).
    private let logger: Logger
    /// Work under way here, with its claims and the callers waiting for each.
    private let claims: SharedWorkClaims<[Waiter]>
    private let workers = BackgroundWorkers(name: "Renditions")
    /// The workers' reads of what is due, which fail at every wake-up while the database is gone.
    private let dueReads = RecurringFailure(), retryReads = RecurringFailure()

    init(store: LibraryDatabase, concurrency: Int, delegate: any PHPhotoLibrary.Delegate, logger: Logger) {
        self.store = store
        self.concurrency = max(1, concurrency)
        self.delegate = delegate
        self.logger = logger
        claims = SharedWorkClaims(store: store, logger: logger, work: "the rendition") { .rendition(assetID: $0) }
    }

    // MARK: First need

    /// What to send a browser for `asset`'s current version: its rendition (made now if it
    /// isn't yet, at full priority), or the movie itself when that plays.
    package func playable(for asset: PHAsset) throws(PHPhotosError) -> Playable {
        guard asset.mediaType == .video || asset.mediaSubtypes.contains(.photoLive) else {
            throw PHPhotosError(.requestNotSupportedForAsset, "\(asset.localIdentifier) is neither a video nor a Live Photo")
        }
        let assetID = asset.rowID
        let known = job(assetID: assetID, of: asset.uuid)
        if let known, let ready = ready(known) { return ready }
        if store.isReadOnly {
            // Nothing can be made or recorded: the movie as it is.
            guard let movie = currentSource(assetID: assetID), !LibraryLayout.isRemote(path: movie.path) else {
                throw PHPhotosError(.missingResource, "\(asset.localIdentifier) has no local movie, and a read-only library can't fetch one")
            }
            return Playable(url: store.layout.url(forRelativePath: movie.path), mimeType: Self.mimeType(of: movie), isRendition: false)
        }
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<Result<Playable, PHPhotosError>?>(nil)
        let waiter: Waiter = { outcome in
            result.withLock { $0 = outcome }
            done.signal()
        }
        let joined = claims.waiting(for: assetID) { waiting -> Bool in
            if waiting != nil {
                waiting!.append(waiter)
                return true
            }
            waiting = [waiter]
            return false
        }
        if !joined {
            let job = known
                ?? RenditionJob(assetID: assetID, assetUUID: asset.uuid, state: .pending, sourcePath: nil, attempts: 0, lastError: nil, notBefore: .distantPast)
            // Waits while another process or instance makes it, then uses what it made.
            // Unclaimed when the claim fails (logged): made here regardless, as with no other process.
            let claim = logger.attempt(.warning, "claim the rendition of \(asset.uuid)") {
                try store.claimJob(.rendition(assetID: assetID), waiting: true)
            }
            if let claim { claims.hold(claim, for: assetID) }
            finish(assetID, perform(job, foreground: true))
        }
        done.wait()
        return try result.withLock { $0! }.get()
    }

    /// The rendition (or the movie) when the job says it is ready and the file is there.
    private func ready(_ job: RenditionJob) -> Playable? {
        guard let source = job.sourcePath, let current = currentSource(assetID: job.assetID), current.path == source else { return nil }
        switch job.state {
        case .notNeeded:
            let url = store.layout.url(forRelativePath: source)
            if LibraryLayout.isRemote(path: source) {
                // Its local copy when this machine has one, else the object itself.
                let copy = localCopy(of: current, assetUUID: job.assetUUID)
                if FileManager.default.fileExists(atPath: copy.path) {
                    return Playable(url: copy, mimeType: Self.mimeType(of: current), isRendition: false)
                }
                guard url.scheme?.lowercased() == "s3" else { return nil }
                return Playable(url: url, mimeType: Self.mimeType(of: current), isRendition: false, objectSize: current.fileSize)
            }
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            return Playable(url: url, mimeType: Self.mimeType(of: current), isRendition: false)
        case .made:
            let url = store.layout.url(forRelativePath: VideoRendition.relativePath(assetUUID: job.assetUUID, sourcePath: source))
            guard FileManager.default.fileExists(atPath: url.path) else { return nil }
            return Playable(url: url, mimeType: "video/mp4", isRendition: true)
        case .pending, .failed:
            return nil
        }
    }

    /// Where a remote movie's local copy is (it may not exist).
    private func localCopy(of record: ResourceRecord, assetUUID: String) -> URL {
        store.layout.remoteCopy(of: store.layout.url(forRelativePath: record.path), assetUUID: assetUUID, resourceType: record.type)
    }

    private static func mimeType(of record: ResourceRecord) -> String {
        UTType(record.uniformTypeIdentifier)?.preferredMIMEType ?? "video/mp4"
    }

    /// The current version's movie record (``VideoRendition/currentMovie(in:)``); nil when the
    /// asset has none, or its files can't be read (logged).
    private func currentSource(assetID: Int64) -> ResourceRecord? {
        logger.attempt(.warning, "read the files of asset \(assetID) for its rendition") { try store.resources(assetID: assetID) }
            .flatMap(VideoRendition.currentMovie(in:))
    }

    /// The rendition job of an asset as recorded; nil when it has none, or it can't be read
    /// (logged: the caller goes on as if it had none).
    private func job(assetID: Int64, of assetUUID: String) -> RenditionJob? {
        logger.attempt(.warning, "read the rendition job of \(assetUUID)") { try store.renditions.job(assetID: assetID) }
    }

    // MARK: The work

    /// Decides, makes and records one rendition.
    private func work(_ job: RenditionJob, foreground: Bool) -> Result<Playable, PHPhotosError> {
        delegate.videoRenditions(didReport: .started(assetUUID: job.assetUUID, foreground: foreground))
        let now = Date()
        do throws(PHPhotosError) {
            guard let source = currentSource(assetID: job.assetID) else {
                throw PHPhotosError(.missingResource, "The video \(job.assetUUID) has no movie")
            }
            var file = store.layout.url(forRelativePath: source.path)
            let object = file
            let copy = localCopy(of: source, assetUUID: job.assetUUID)
            // A movie in a bucket with no copy here is probed where it is (ffprobe reads its
            // header by ranges); fetched only when a rendition must be made of it.
            var inBucket = false
            if LibraryLayout.isRemote(path: source.path) {
                if FileManager.default.fileExists(atPath: copy.path) {
                    file = copy
                } else if ObjectStorage.backend(for: object) != nil {
                    inBucket = true
                } else {
                    try RemoteOriginals.fetch(object, to: copy)
                    file = copy
                }
            }
            let presigned =
                inBucket
                ? try ObjectStorage.requireBackend(for: object).presignedURL(object, expires: 3_600, contentType: nil, contentDisposition: nil)
                : nil
            let movie: MovieDescription
            do throws(AVError) {
                if let presigned {
                    movie = try MovieDescription.of(remote: presigned, name: object.absoluteString)
                } else {
                    movie = try MovieDescription.of(file)
                }
            } catch {
                throw PHPhotosError(.invalidResource, error.message)
            }
            let playability = BrowserPlayability.of(movie)
            var playable: Playable
            if inBucket, playability != .asIs {
                try RemoteOriginals.fetch(object, to: copy)
                file = copy
            }
            // A remote movie that plays: its local copy or the object.
            if playability == .asIs {
                playable =
                    inBucket
                    ? Playable(url: object, mimeType: Self.mimeType(of: source), isRendition: false, objectSize: source.fileSize)
                    : Playable(url: file, mimeType: Self.mimeType(of: source), isRendition: false)
                record(job, "record that the movie of \(job.assetUUID) plays as it is", orRetryAt: now.addingTimeInterval(60)) {
                    try store.renditions.finish(assetID: job.assetID, sourcePath: source.path, state: .notNeeded, now: now)
                }
                delegate.videoRenditions(didReport: .finished(assetUUID: job.assetUUID, state: .notNeeded))
                return .success(playable)
            }
            let output = store.layout.url(forRelativePath: VideoRendition.relativePath(assetUUID: job.assetUUID, sourcePath: source.path))
            playable = Playable(url: output, mimeType: "video/mp4", isRendition: true)
            if !FileManager.default.fileExists(atPath: output.path) {
                // try?: a folder that can't be made fails the export below, whose reason is recorded.
                try? FileManager.default.createDirectory(at: output.deletingLastPathComponent(), withIntermediateDirectories: true)
                let session = AVAssetExportSession(
                    asset: AVURLAsset(url: file), preset: playability == .remux ? .remux : .browserRendition)
                session.outputURL = output
                session.outputFileType = .mp4
                session.shouldOptimizeForNetworkUse = true
                session.niceness = foreground ? 0 : 10
                session.exportSynchronously()
                // Another process may have made it meanwhile: that one serves.
                if session.status != .completed, !FileManager.default.fileExists(atPath: output.path) {
                    let reason = (session.error as? AVError)?.message ?? session.error.map { "\($0)" } ?? "the export did not complete"
                    throw PHPhotosError(.invalidResource, reason)
                }
            }
            record(job, "record the rendition of \(job.assetUUID) as made", orRetryAt: now.addingTimeInterval(60)) {
                try store.renditions.finish(assetID: job.assetID, sourcePath: source.path, state: .made, now: now)
            }
            delegate.videoRenditions(didReport: .finished(assetUUID: job.assetUUID, state: .made))
            return .success(playable)
        } catch {
            let retryAt = now.addingTimeInterval(min(86_400, 60 * pow(2, Double(min(job.attempts, 20)))))
            record(job, "record that the rendition of \(job.assetUUID) failed (\(error.message))", orRetryAt: retryAt) {
                try store.renditions.fail(assetID: job.assetID, reason: error.message, retryAt: retryAt, now: now)
            }
            delegate.videoRenditions(didReport: .failed(assetUUID: job.assetUUID, reason: error.message))
            return .failure(error)
        }
    }

    /// Writes a job's outcome with `write`. When that fails (logged as a warning), this
    /// process's workers pass the job over until `retryAt` (``SharedWorkClaims``); a request
    /// for the video still makes it at once.
    private func record(_ job: RenditionJob, _ what: @autoclosure () -> String, orRetryAt retryAt: Date, _ write: () throws -> Void) {
        guard logger.attempt(.warning, what(), write) == nil else { return }
        claims.passOver(job.assetID, until: retryAt)
    }

    /// A claimed job done: the rendition another process or instance made before the claim
    /// was had, else made here.
    private func perform(_ job: RenditionJob, foreground: Bool) -> Result<Playable, PHPhotosError> {
        let fresh = self.job(assetID: job.assetID, of: job.assetUUID) ?? job
        if let ready = ready(fresh) { return .success(ready) }
        return work(fresh, foreground: foreground)
    }

    /// Hands the outcome to everyone waiting for it, lets go of its claim and frees the asset
    /// for new work.
    private func finish(_ assetID: Int64, _ outcome: Result<Playable, PHPhotosError>) {
        for waiter in claims.finish(assetID) ?? [] { waiter(outcome) }
    }

    /// Takes the next due job nobody is doing: not this process, nor another process or
    /// instance (``SharedWorkClaims``); jobs whose outcome this process could not record are
    /// passed over until their retry. A job done elsewhere meanwhile is handed to whoever
    /// waited for it here. Nil when nothing is due or all of it is claimed.
    private func claim() -> RenditionJob? {
        claims.claimNext(
            idle: [],
            due: { excluding in
                logger.attempt(.warning, "find the next due rendition", recurring: dueReads) {
                    try store.renditions.nextDue(now: Date(), excluding: excluding)
                }
            },
            reread: { job in self.job(assetID: job.assetID, of: job.assetUUID) },
            notDue: { job, recorded, waiters in
                let outcome: Result<Playable, PHPhotosError> =
                    recorded.flatMap(ready).map { .success($0) }
                    ?? .failure(PHPhotosError(.missingResource, "The rendition of \(job.assetUUID) is not due"))
                for waiter in waiters ?? [] { waiter(outcome) }
            })
    }

    // MARK: Background work

    /// Starts the background workers (`concurrency` threads at utility priority), woken by the
    /// changes to `library` that may give them work (a video imported or edited here or by
    /// another process), or by ``wake()``, until ``stopBackgroundWork()``. Does nothing for a
    /// library opened read-only.
    package func startBackgroundWork(wakingOnChangesTo library: PHPhotoLibrary? = nil) {
        guard !store.isReadOnly else { return }
        workers.start(
            count: concurrency, wakingOnChangesTo: library,
            cycle: { [self] in
                guard let job = claim() else { return false }
                finish(job.assetID, perform(job, foreground: false))
                return true
            },
            nextRetry: { [self] in
                logger.attempt(.warning, "read when the next rendition retry is due", recurring: retryReads) { try store.renditions.nextRetry() }
            })
    }

    /// Stops the workers after their current job.
    package func stopBackgroundWork() {
        workers.stop()
    }

    /// Tells sleeping workers there may be new work (a video added or edited).
    package func wake() {
        workers.wake()
    }

    /// Makes every due rendition now, `concurrency` at a time, on the calling thread and
    /// helpers (failed ones first made due again when `retryingFailures`); returns the counts
    /// after. Each job is tried once, whether or not its outcome can be recorded (a library
    /// opened read-only records nothing: logged). For `photos cache warm --videos`.
    @discardableResult
    package func makeAllDue(retryingFailures: Bool, progress: (@Sendable (RenditionCounts) -> Void)? = nil) throws(PHPhotosError) -> RenditionCounts {
        if retryingFailures { logger.attempt(.warning, "make the failed renditions due again") { try store.renditions.retryFailed() } }
        // A failure is due again only a minute later or more: each job is tried once per run.
        DispatchQueue.concurrentPerform(iterations: concurrency) { _ in
            while let job = claim() {
                finish(job.assetID, perform(job, foreground: true))
                guard let progress else { continue }
                let counts = logger.attempt(.notice, "count the renditions for progress") { try store.renditions.counts() }
                if let counts { progress(counts) }
            }
        }
        do {
            return try store.renditions.counts()
        } catch {
            throw PHPhotosError(.internalError, error.message)
        }
    }

    /// Failed renditions with their reasons, most attempted first.
    package func failures(limit: Int = 20) -> [RenditionJob] {
        logger.attempt(.warning, "read the failed renditions") { try store.renditions.failed(limit: limit) } ?? []
    }

    /// How many videos are in each state.
    package func counts() throws(PHPhotosError) -> RenditionCounts {
        do {
            return try store.renditions.counts()
        } catch {
            throw PHPhotosError(.internalError, error.message)
        }
    }
}
