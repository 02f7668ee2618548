import Foundation
import Imaging
import Logging
package import PhotosStore
import PhotosLocking

/// Reading the words in a library's photos with Tesseract (``TextRecognizer``), as background
/// work shared by every process and instance: the work waiting lives in the library
/// (`textRecognition` rows, pending for new and edited photos), a photo is read by whoever
/// claims it (``JobKey/textRecognition(assetID:)``), and what is read goes into the search index
/// in the same transaction that records it.
///
/// Screenshots come first. A photo is read at most 2,400 pixels on its long side (Tesseract
/// reads text of a few dozen pixels; a 24-megapixel photo would cost it four times as long),
/// at `nice` 10 with one thread per Tesseract. A failure is retried after 1 min, 2, 4... (at most
/// a day), and skipped after ``maximumAttempts``; a photo Tesseract chokes on (runs past its
/// timeout) is skipped at once: neither is ever retried by itself. An original in a bucket is
/// fetched into the library's cache of originals first; a store away is not the photo's fault:
/// it is retried, a day apart at most, and never skipped for it.
///
/// Linux addition (Apple's Photos reads text on device, with no API for it).
package final class TextRecognitionWork: Sendable {
    /// The longest side a photo is read at.
    package static let readingSize = 2400
    /// Failed attempts before a photo is skipped.
    package static let maximumAttempts = 3

    private let store: LibraryDatabase
    private let recognizer: TextRecognizer
    private let logger: Logger
    /// The photos this process is reading, with their claims.
    private let claims: SharedWorkClaims<Void>
    private let workers = BackgroundWorkers(name: "TextRecog")
    private let dueReads = RecurringFailure(), retryReads = RecurringFailure()

    init(store: LibraryDatabase, recognizer: TextRecognizer, logger: Logger) {
        self.store = store
        self.recognizer = recognizer
        self.logger = logger
        claims = SharedWorkClaims(store: store, logger: logger, work: "the text recognition") { .textRecognition(assetID: $0) }
    }

    /// Whether there is a Tesseract to run (`apt install tesseract-ocr`).
    package static var isAvailable: Bool { TextRecognizer.executable != nil }

    // MARK: One photo

    /// Reads one claimed photo and records what came of it.
    private func perform(_ job: TextRecognitionJob) {
        // Below the requests (`photos serve --background-niceness`); libvips's workers take the
        // nice value of the thread that starts them.
        BackgroundPriority.lowerCurrentThread()
        let now = Date()
        do throws(TextRecognitionFailure) {
            guard let source = try currentImage(of: job) else { return }
            let boxes: [RecognizedTextBox]
            do throws(ImagingError) {
                boxes = try read(source.url, assetUUID: job.assetUUID)
            } catch {
                throw .unreadable(error)
            }
            record(job, "record the words read in \(job.assetUUID)", orRetryAt: now.addingTimeInterval(60)) {
                try store.textRecognition.finish(assetID: job.assetID, sourcePath: source.path, boxes: boxes, now: Date())
            }
        } catch {
            let skip: Bool, reason: String
            switch error {
            case .unreadable(let error):
                let choked = error.code == .timedOut
                skip = choked || job.attempts + 1 >= Self.maximumAttempts
                reason = choked ? "Tesseract choked on it: \(error.message)" : error.message
            case .storeAway(let error):
                // A store away (the bucket, a web server) is tried again, a day apart at most:
                // the photo isn't to blame.
                skip = false
                reason = error.message
            }
            let retryAt = now.addingTimeInterval(min(86_400, 60 * pow(2, Double(job.attempts))))
            logger.notice("Text recognition of \(job.assetUUID) failed\(skip ? "; skipped" : ""): \(reason)")
            record(job, "record the failed text recognition of \(job.assetUUID)", orRetryAt: retryAt) {
                try store.textRecognition.fail(assetID: job.assetID, reason: reason, skip: skip, retryAt: retryAt, now: Date())
            }
        }
    }

    /// The words in the image at `url`, read at ``readingSize`` at most, their boxes in 0...1.
    ///
    /// A JPEG or PNG within that size and shown as stored (no EXIF rotation) is handed to
    /// Tesseract as it is, as the `tesseract` command would read it; any other image is shrunk
    /// (and turned upright) by libvips and handed over as an uncompressed PNG: zlib's default
    /// level took up to 0.4 s of a 2,400-pixel photo, more than Tesseract's reading.
    private func read(_ url: URL, assetUUID: String) throws(ImagingError) -> [RecognizedTextBox] {
        let name = "photo \(assetUUID)"
        let words: [RecognizedWord], width: Double, height: Double
        let header = try VipsImage(contentsOf: url, access: .sequential)
        if Self.readsAsStored(header) {
            words = try recognizer.recognize(fileAt: url, name: name)
            (width, height) = (Double(max(1, header.width)), Double(max(1, header.height)))
        } else {
            let image = try VipsImage.thumbnail(fileAt: url, width: Self.readingSize, height: Self.readingSize, upscale: false)
            words = try recognizer.recognize(encoded: try image.pngData(keepMetadata: false, compression: 0), name: name)
            (width, height) = (Double(max(1, image.width)), Double(max(1, image.height)))
        }
        return words.map {
            RecognizedTextBox(
                text: $0.text, x: Double($0.x) / width, y: Double($0.y) / height, width: Double($0.width) / width,
                height: Double($0.height) / height)
        }
    }

    /// Whether Tesseract reads the file as it is: a single JPEG or PNG image within
    /// ``readingSize``, upright as stored.
    static func readsAsStored(_ header: VipsImage) -> Bool {
        max(header.width, header.height) <= readingSize && header.orientation == 1 && header.pageCount == 1
            && ["jpegload", "pngload"].contains(header.loader ?? "")
    }

    /// The file of the photo's current version (its edit's render, else the original) on this
    /// machine: an original in a bucket (or on a web server) is fetched into the library's
    /// cache of remote originals first, as a view of it fetches it. Nil when its files can't be
    /// read (logged; passed over for a minute).
    private func currentImage(of job: TextRecognitionJob) throws(TextRecognitionFailure) -> (url: URL, path: String)? {
        let records = logger.attempt(.warning, "read the files of \(job.assetUUID) for text recognition") {
            try store.resources(assetID: job.assetID)
        }
        guard let records else {
            claims.passOver(job.assetID, until: Date().addingTimeInterval(60))
            return nil
        }
        func record(_ type: PHAssetResourceType) -> ResourceRecord? { records.first { $0.type == type.rawValue } }
        guard let current = record(.fullSizePhoto) ?? record(.photo) else {
            throw .unreadable(ImagingError(.unreadable, "photo \(job.assetUUID) has no image file"))
        }
        let url = store.layout.url(forRelativePath: current.path)
        guard LibraryLayout.isRemote(path: current.path) else { return (url, current.path) }
        let copy = store.layout.remoteCopy(of: url, assetUUID: job.assetUUID, resourceType: current.type)
        if !FileManager.default.fileExists(atPath: copy.path) {
            do throws(PHPhotosError) {
                try RemoteOriginals.fetch(url, to: copy)
            } catch {
                // An object that is gone is the photo's fault; anything else, the store's.
                if error.code == .missingResource { throw .unreadable(ImagingError(.unreadable, error.message)) }
                throw .storeAway(error)
            }
        }
        return (copy, current.path)
    }

    /// Writes a job's outcome; when that fails (logged), this process passes the job over
    /// until `retryAt`.
    private func record(_ job: TextRecognitionJob, _ what: @autoclosure () -> String, orRetryAt retryAt: Date, _ write: () throws -> Void) {
        guard logger.attempt(.warning, what(), write) == nil else { return }
        claims.passOver(job.assetID, until: retryAt)
    }

    // MARK: Claims

    /// Takes the next due photo nobody is reading: not this process, nor another process or
    /// instance (``SharedWorkClaims``). Nil when nothing is due.
    private func claim() -> TextRecognitionJob? {
        claims.claimNext(
            idle: (),
            due: { excluding in
                logger.attempt(.warning, "find the next photo to read", recurring: dueReads) {
                    try store.textRecognition.nextDue(now: Date(), excluding: excluding)
                }
            },
            reread: { job in
                logger.attempt(.warning, "read the text recognition of \(job.assetUUID)") { try store.textRecognition.job(assetID: job.assetID) }
            })
    }

    private func finish(_ assetID: Int64) {
        claims.finish(assetID)
    }

    // MARK: Background work

    /// Starts `count` background threads, woken by changes to `library` that may give them
    /// work (a photo imported or edited, here or elsewhere), until ``stopBackgroundWork()``.
    /// Does nothing for a library opened read-only, or without Tesseract (logged).
    package func startBackgroundWork(wakingOnChangesTo library: PHPhotoLibrary, count: Int = 1) {
        guard !store.isReadOnly else { return }
        guard Self.isAvailable else {
            logger.notice("Text in photos is not read: there is no tesseract (apt install tesseract-ocr)")
            return
        }
        workers.start(
            count: max(1, count), wakingOnChangesTo: library,
            cycle: { [self] in
                guard let job = claim() else { return false }
                perform(job)
                finish(job.assetID)
                return true
            },
            nextRetry: { [self] in
                logger.attempt(.warning, "read when the next text recognition retry is due", recurring: retryReads) {
                    try store.textRecognition.nextRetry()
                }
            })
    }

    /// Stops the workers after their current photo.
    package func stopBackgroundWork() {
        workers.stop()
    }

    /// Tells sleeping workers there may be new work.
    package func wake() {
        workers.wake()
    }

    /// Reads every due photo now, `workers` at a time, on the calling thread and helpers
    /// (failed ones made due first, and skipped ones too with `retryingSkipped`); returns the
    /// counts after. For `photos cache warm --text`.
    @discardableResult
    package func readAllDue(workers: Int, retryingSkipped: Bool = false) throws(PHPhotosError) -> TextRecognitionCounts {
        guard Self.isAvailable else { throw PHPhotosError(.operationInterrupted, "There is no tesseract to read text with (apt install tesseract-ocr)") }
        logger.attempt(.warning, "make failed text recognitions due again") { try store.textRecognition.retry(skipped: retryingSkipped) }
        DispatchQueue.concurrentPerform(iterations: max(1, workers)) { _ in
            while let job = claim() {
                perform(job)
                finish(job.assetID)
            }
        }
        return try counts()
    }

    /// How many photos are in each state.
    package func counts() throws(PHPhotosError) -> TextRecognitionCounts {
        do {
            return try store.textRecognition.counts()
        } catch {
            throw PHPhotosError(.internalError, error.message)
        }
    }

    /// Skipped and failed photos with their reasons.
    package func failures(limit: Int = 20) -> [TextRecognitionJob] {
        logger.attempt(.warning, "read the failed text recognitions") { try store.textRecognition.failures(limit: limit) } ?? []
    }

    /// The words read in `asset` and where they are; nil when it wasn't read (yet).
    package func words(in asset: PHAsset) -> [RecognizedTextBox]? {
        logger.attempt(.warning, "read the words of \(asset.localIdentifier)") { try store.textRecognition.boxes(assetUUID: asset.uuid) } ?? nil
    }
}

/// Why a photo's text could not be read: the photo (unreadable, or Tesseract choked on it), or
/// the store its original is in.
enum TextRecognitionFailure: Error {
    case unreadable(ImagingError)
    case storeAway(PHPhotosError)
}
