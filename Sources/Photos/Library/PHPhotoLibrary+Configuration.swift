import Foundation
package import Logging
package import CoreLocation
package import Imaging
import PhotosStore

extension PHPhotoLibrary {
    /// What a library is made of besides its folder: the memory cache and decode pool its
    /// image requests use, the limit of its preview files, the gazetteer its moments are named
    /// from. Each library owns its own, as Nuke's pipeline owns its configuration, so two
    /// libraries in one process (a server hosting several users, tests running in parallel)
    /// never share limits or state.
    ///
    /// `package` access: `photos serve` and the tests make libraries with their own;
    /// ``PHPhotoLibrary/init(url:)`` and ``PHPhotoLibrary/shared()`` use the defaults.
    package struct Configuration: Sendable {
        /// Bytes of decoded images kept in memory: a quarter of physical memory, at most 512 MiB.
        package var imageCacheBytes = Int(min(ProcessInfo.processInfo.physicalMemory / 4, 512 << 20))
        /// Images decoded at once: one per core.
        package var maximumConcurrentDecodes = ProcessInfo.processInfo.activeProcessorCount
        /// The most bytes of previews kept in `derivatives/` (least recently used go first).
        package var previewCacheLimit: Int64 = 4 << 30
        /// Where moments' place names come from.
        package var gazetteer: GazetteerChoice = .machine
        /// Gives the heap's free pages back once the loader's renders are idle: the process's
        /// (``IdleMemoryRelease/shared``) unless a test brings its own.
        package var memoryRelease: IdleMemoryRelease = .shared
        /// Browser renditions of videos made at once by background workers: one (a
        /// rendition keeps both of this machine's cores busy through ffmpeg's threads).
        package var videoRenditionConcurrency = 1
        /// The languages text in photos is read in (Tesseract's names: `eng`, `deu`, `fra`...;
        /// those installed, `apt install tesseract-ocr-deu`), and how long one photo may take
        /// before it is skipped as one Tesseract chokes on.
        package var textRecognizer = TextRecognizer(languages: ["eng"], timeout: 60)
        /// Told of each step of the library's work: the image loader's, the renditions', the
        /// import batches', a host's heavy jobs (``PHPhotoLibrary/Delegate``).
        package var delegate: any PHPhotoLibrary.Delegate = QuietLibraryDelegate()
        /// Where errors the library handles and goes on from are reported: a derivative not
        /// kept, a render failure or a rendition not recorded, a background job's store read that
        /// failed (``PHPhotoLibrary/logger``). swift-log, label `photokit`: the process's
        /// backend when it bootstraps one (`LoggingSystem.bootstrap`), else swift-log's default,
        /// which writes `.info` and above to standard error. Levels: `.warning` for work or
        /// state lost (a file not kept, a row not written or not read), `.notice` for what only
        /// degrades (a retry later, a display image missing), `.debug` for expected races.
        package var logger = Logger(label: "photokit")
        /// When an import batch that did not finish is tried again, and how often at most.
        package var importBatchRetry = ImportBatchRetry()

        /// How often change observers look at the journal (and `photos serve` at the access
        /// version) when no wake-up came
        /// (for file systems without `inotify`). Tests set `.never` to see that the signal
        /// file alone wakes them.
        package var changeCheckInterval: DispatchTimeInterval = ChangeSignalWatcher.fallbackInterval

        /// How often, while availability observers are registered, the library looks at its
        /// folder and its database (``PHPhotoLibraryAvailabilityObserver``).
        package var availabilityCheckInterval: DispatchTimeInterval = .seconds(2)

        /// Bytes of the database file its connections map into memory (`PRAGMA mmap_size`):
        /// 1 GiB, which makes large fetches read pages in place. A process that only imports
        /// maps less: every mapped page it touches counts in its resident set.
        package var databaseMemoryMap = LibraryDatabase.mmapSize

        /// bcrypt's cost (log2 of its rounds) for people's passwords: 12, about a quarter of a
        /// second of one core per hash here. Tests lower it to bcrypt's least, 4.
        package var passwordHashCost: UInt8 = 12

        /// Open the library for reading only (``PHPhotoLibrary/init(url:readOnly:)``).
        package var readOnly = false
        /// Where a library created by this open keeps its originals: an object store's
        /// `s3://BUCKET/PREFIX` (recorded in the library; its backend registered by the
        /// `PhotosS3` module). Nil: wherever the library recorded, its folder by default.
        package var originals: URL?
        /// The most bytes of local copies of remote originals (``PHPhotoLibrary/originalsCacheLimit``).
        package var originalsCacheLimit = OriginalsCache.defaultLimit
        package init() {}
    }

    /// The most bytes of previews (the 1440 px derivatives image requests make) this library
    /// keeps; past it, the least recently used are removed. 4 GiB unless set.
    ///
    /// Linux addition: Apple's Photos manages its derivatives itself.
    public var previewCacheLimit: Int64 {
        get { derivatives.previewBudget.limit }
        set { derivatives.previewBudget.limit = newValue }
    }
}
