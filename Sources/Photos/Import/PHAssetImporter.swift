public import Foundation
import PhotosLocking

/// Imports files and folders into a library: the photo importer a PhotoKit app would build
/// on creation requests, done once.
///
/// Linux addition: Apple leaves importing to the Photos app and ImageCaptureCore. This type
/// finds media files (recursively, following links, each folder once), reads their metadata
/// without decoding pixels, fingerprints and copies them (or references them in place) on every
/// core, and commits them through
/// ordinary ``PHAssetCreationRequest``s in batches, so observers see the new assets as usual.
///
/// - **Pairs**: files with the same name in one folder become one asset: a photo and a short
///   movie (up to ``Options/maximumLivePhotoVideoDuration``) a Live Photo (`.photo` +
///   `.pairedVideo`), a JPEG or HEIC and a RAW a photo with an `.alternatePhoto`.
/// - **Bursts**: photos with one Apple BurstUUID, or runs of 3+ frames from one camera less
///   than a second apart, become a burst whose sharpest frame is the auto pick and
///   representative (see `ImportBursts`).
/// - **Evidence, not names**: HDR, panorama, screenshot, Portrait and selfie come from the
///   files' metadata (Apple's maker note, CustomRendered, XMP), see ``PHAssetMediaSubtype``.
/// - **Duplicates**: a file whose bytes the library already holds (under any name) is not
///   imported again, unless ``Options/allowsDuplicates``; the report names the asset. Files are
///   looked up by size and a signature of their first and last 64 KiB, and a match is
///   confirmed (same file, same SHA-256, or the bytes compared) before it counts. Two copies in
///   one import: whichever is read first is imported, the other reported as its duplicate.
/// - **In place**: with ``Options/referencesFiles`` the originals stay where they are (Photos
///   for Mac's "Copy items to the Photos library" turned off): an import reads each file's
///   headers and 128 KiB, not the whole file, and never moves or deletes them.
/// - **Bad files** (empty, truncated, damaged, unsupported, unreadable, a header claiming more
///   than ``Options/maximumPixelCount`` pixels or an aspect ratio beyond 100 : 1) are reported
///   with the reason naming what was wrong and where (cheap structural checks per format: see
///   `MediaProbe`); the rest go on. A photo whose structure is sound but whose pixels can't be
///   decoded is imported and recorded when a render fails (with ``Options/makesThumbnails``,
///   at once): ``PHPhotoLibrary/checkConsistency(verifyingContents:)`` lists it as
///   ``PHLibraryCheckReport/Problem/Kind/unrenderable``.
/// - **Interruption**: each batch commits atomically. ``cancel()`` (or a crash) loses nothing
///   committed and leaves no half-made asset; importing the same files again skips those
///   already in the library, so an import resumes.
public final class PHAssetImporter: Sendable {
    /// How an import behaves.
    public struct Options: Sendable {
        /// Import files whose bytes the library already holds.
        public var allowsDuplicates = false
        /// Add every imported asset to this album (a user album's local identifier).
        public var albumLocalIdentifier: String?
        /// Files read at once; the number of cores by default.
        public var maximumConcurrentFiles = ProcessInfo.processInfo.activeProcessorCount
        /// Assets per transaction.
        public var batchSize = 64
        /// Files whose header claims more pixels are refused (decompression bombs). 250 MP
        /// admits the largest phone sensors (200 MP).
        public var maximumPixelCount = 250_000_000
        /// Render each photo's grid thumbnail (256 × 256, JPEG) while importing, on the same
        /// workers, so a gallery shows the import at once. Screen-size previews are made when
        /// first asked for.
        public var makesThumbnails = false
        /// Leave the files where they are and refer to them instead of copying them into the
        /// library (see ``PHAssetResourceCreationOptions/shouldReferenceFile``). Only the
        /// headers and a 128 KiB signature of each file are read (a PNG is read whole: every
        /// chunk's CRC is checked), so an import runs at the disk's seek rate, not its
        /// bandwidth; the library holds no SHA-256 of such files, and `photos check --contents`
        /// verifies their signatures.
        public var referencesFiles = false
        /// A movie beside a same-named photo is its Live Photo video only if at most this long.
        public var maximumLivePhotoVideoDuration: TimeInterval = 4

        public init() {}
    }

    let library: PHPhotoLibrary
    let options: Options
    private let cancelled = Atomic<Bool>(false)

    public init(library: PHPhotoLibrary, options: Options = Options()) {
        self.library = library
        self.options = options
    }

    /// Stops the import: files being read finish, what is ready commits, the rest is left
    /// (``PHImportReport/notReached``). Safe from any thread, such as a signal handler's queue.
    public func cancel() {
        cancelled.store(true, ordering: .relaxed)
    }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    /// Imports the files and folders at `urls`, blocking until done or cancelled.
    ///
    /// - Parameters:
    ///   - urls: files and folders; folders are walked recursively.
    ///   - progress: called on the importing thread after each group of files is read and after
    ///     each commit.
    public func importFiles(at urls: [URL], progress: ((PHImportProgress) -> Void)? = nil) -> PHImportReport {
        ImportPipeline(importer: self, urls: urls, progress: progress).run()
    }
}
