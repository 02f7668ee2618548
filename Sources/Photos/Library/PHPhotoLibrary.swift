public import Foundation
package import PhotosStore
import PhotosLocking

/// A photo library: a folder with a database, originals and derivatives.
///
/// ``shared()`` opens the library named by the `PHOTOS_LIBRARY` environment variable (a
/// folder, created on first use), else `$XDG_DATA_HOME/photos/Library.photoslibrary` (with
/// `~/.local/share` when `XDG_DATA_HOME` is unset). Linux additions: ``init(url:)`` opens any
/// library folder, and several libraries can be open in one process; fetch class methods such
/// as `PHAsset.fetchAssets(with:)` use the library of `withCurrent(_:)` (or of the change
/// block they run in), else the shared one. Methods that take an object use that object's
/// library.
///
/// Several processes may open one library at once (the CLI while the server runs): reads
/// never wait, and a write waits for another process's write to finish instead of failing.
public final class PHPhotoLibrary: NSObject, @unchecked Sendable {
    // @unchecked Sendable: NSObject is not Sendable; every stored property is a `let` of a
    // Sendable type (the database, the queues, the image loader, caches and collaborators are
    // safe to use from any thread).
    let store: LibraryDatabase
    /// The library folder.
    ///
    /// Linux addition.
    public let url: URL

    /// Closes the library's connections to its database server (a PostgreSQL library's pool
    /// and `LISTEN` connection) for a host that is done with it: every later use fails as
    /// `libraryVolumeOffline`. Nothing for a SQLite library.
    package func closeDatabaseConnections() {
        store.engine.shutDown()
    }
    /// Change blocks run here, one at a time.
    let changeQueue: DispatchQueue
    /// Completion handlers run here, in commit order, never on the main thread.
    let callbackQueue: DispatchQueue
    /// Tells library objects apart in caches (unlike an object address, never reused).
    let instanceNumber = PHPhotoLibrary.instances.wrappingAdd(1, ordering: .relaxed).oldValue
    private static let instances = Atomic<Int>(0)
    /// Delivers changes to observers.
    let dispatcher: ChangeDispatcher
    /// Tells availability observers when the folder or the database goes away.
    let availability = AvailabilityMonitor()
    /// What the library was opened with.
    package let configuration: Configuration
    /// Decodes and caches this library's images (its own memory cache and decode pool).
    let imageLoader: ImageLoader
    /// The files behind assets' images, remembered per asset snapshot.
    let imageSources = ImageSourceCache()
    /// Its thumbnails and previews, with the limit on previews.
    package let derivatives: LibraryDerivatives
    /// The local copies of remote originals, with their byte budget.
    let originalsCache: OriginalsCache
    /// Browser-playable renditions of its videos (the server and `photos cache` use them).
    package let videoRenditions: VideoRenditions
    /// Reading the words in photos for search (``TextRecognitionWork``).
    package let textRecognition: TextRecognitionWork
    /// Uploads imported by whichever process or instance claims them (the server's
    /// `POST /api/uploads`).
    package let importBatches: ImportBatches
    /// The person this library is opened for (``library(forPerson:)``): it shows only their
    /// photos and albums, and what it creates is theirs. `nil`: the whole library.
    ///
    /// Linux addition.
    public let person: PHLibraryPerson?
    /// ``person``'s row id, which the store's fetches and changes are scoped by.
    package let personID: Int64?

    /// Opens (creating if needed) the library folder at `url`.
    ///
    /// Linux addition. Throws ``PHPhotosError`` with `.libraryVolumeOffline` when the folder
    /// can't be created or opened, or `.internalError` when the library was written by a newer
    /// version of this software.
    public convenience init(url: URL) throws {
        try self.init(url: url, configuration: Configuration())
    }

    /// Opens the existing library folder at `url`, for reading only when `readOnly` is true.
    ///
    /// Linux addition, for a library on a read-only mount, a backup drive, a folder this user
    /// can't write, or a full disk: opening it writes nothing (no lock file, no schema upgrade,
    /// no clean-up), fetches, observers and image requests work, thumbnails and previews
    /// already made are used and new ones are not kept, and `performChanges` fails with
    /// `PHPhotosError.Code.accessRestricted`. When SQLite can't make its shared-memory file
    /// beside the database (a read-only file system, a full disk) the database is read as it is
    /// on disk: changes another process makes meanwhile are not seen. A library written by an
    /// older version must be opened read-write once (its schema is upgraded) before it can be
    /// opened read-only.
    public convenience init(url: URL, readOnly: Bool) throws {
        var configuration = Configuration()
        configuration.readOnly = readOnly
        try self.init(url: url, configuration: configuration)
    }

    /// Where a read-only library puts what it would keep in its folder (video poster frames,
    /// downloaded remote originals): a folder of this process's, removed with the library.
    var readOnlyScratch: URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("photokit-read-only-\(ProcessInfo.processInfo.processIdentifier)-\(instanceNumber)", isDirectory: true)
    }

    deinit {
        if store.isReadOnly {
            logger.attempt(.notice, "remove the read-only library's scratch folder \(readOnlyScratch.path)") {
                try FileManager.default.removeItemIfPresent(at: readOnlyScratch)
            }
        }
    }

    /// Whether the library was opened read-only (``init(url:readOnly:)``).
    ///
    /// Linux addition.
    public var isReadOnly: Bool { store.isReadOnly }

    /// Opens the library folder at `url` with its own image cache, decode pool, preview limit
    /// and gazetteer (see ``Configuration``).
    package convenience init(url: URL, configuration: Configuration) throws {
        let store: LibraryDatabase
        do {
            store = try LibraryDatabase.open(
                at: url, gazetteer: configuration.gazetteer, readOnly: configuration.readOnly, memoryMap: configuration.databaseMemoryMap)
        } catch {
            throw PHPhotosError(error)
        }
        try Self.attachOriginals(to: store, requested: configuration.originals, logger: configuration.logger)
        self.init(store: store, configuration: configuration)
    }

    /// A library over an opened store, whichever engine holds its rows (the `PhotosPostgres`
    /// module opens PostgreSQL ones).
    package init(store: LibraryDatabase, configuration: Configuration, person: (PHLibraryPerson, id: Int64)? = nil) {
        self.store = store
        self.person = person?.0
        personID = person?.id
        self.url = store.layout.root
        self.configuration = configuration
        imageLoader = ImageLoader(
            cache: ImageMemoryCache(costLimit: configuration.imageCacheBytes),
            maximumConcurrentRenders: configuration.maximumConcurrentDecodes, memoryRelease: configuration.memoryRelease,
            delegate: configuration.delegate)
        let logger = configuration.logger
        derivatives = LibraryDerivatives(store: store, previewLimit: configuration.previewCacheLimit, logger: logger)
        originalsCache = OriginalsCache(layout: store.layout, limit: configuration.originalsCacheLimit, logger: logger)
        videoRenditions = VideoRenditions(
            store: store, concurrency: configuration.videoRenditionConcurrency, delegate: configuration.delegate, logger: logger)
        textRecognition = TextRecognitionWork(store: store, recognizer: configuration.textRecognizer, logger: logger)
        changeQueue = DispatchQueue(label: "PHPhotoLibrary.changes")
        callbackQueue = DispatchQueue(label: "PHPhotoLibrary.callbacks")
        let owner = LibraryReference()
        dispatcher = ChangeDispatcher(owner: owner, store: store, checkInterval: configuration.changeCheckInterval, logger: logger)
        importBatches = ImportBatches(
            owner: owner, store: store, retry: configuration.importBatchRetry, delegate: configuration.delegate, logger: logger)
        super.init()
        owner.attach(self)
    }

    // MARK: - The shared library

    private static let sharedLibrary = Mutex<PHPhotoLibrary?>(nil)

    /// The library every fetch and change uses unless told otherwise.
    ///
    /// Stops the process with a message naming the folder if it can't be opened (Apple's
    /// `shared()` can't fail either); use ``init(url:)`` with ``defaultLibraryURL`` to handle
    /// that case.
    public class func shared() -> PHPhotoLibrary {
        sharedLibrary.withLock { library in
            if let library { return library }
            do {
                let opened = try PHPhotoLibrary(url: defaultLibraryURL)
                library = opened
                return opened
            } catch {
                fatalError("PHPhotoLibrary.shared(): \(error.localizedDescription)")
            }
        }
    }

    /// Where ``shared()`` keeps its library: `$PHOTOS_LIBRARY`, else
    /// `$XDG_DATA_HOME/photos/Library.photoslibrary`.
    ///
    /// Linux addition.
    public static var defaultLibraryURL: URL {
        defaultLibraryURL(in: ProcessInfo.processInfo.environment)
    }

    static func defaultLibraryURL(in environment: [String: String]) -> URL {
        if let path = environment["PHOTOS_LIBRARY"], !path.isEmpty {
            return URL(fileURLWithPath: (path as NSString).expandingTildeInPath, isDirectory: true)
        }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSHomeDirectory() as NSString).appendingPathComponent(".local/share")
        return URL(fileURLWithPath: dataHome, isDirectory: true)
            .appendingPathComponent("photos", isDirectory: true)
            .appendingPathComponent("Library.photoslibrary", isDirectory: true)
    }

    // MARK: - The current library

    @TaskLocal static var scoped: PHPhotoLibrary?

    /// The library class-method fetches use here: the scoped one, else the shared one.
    static var current: PHPhotoLibrary { scoped ?? shared() }

    /// Runs `body` with this library as the one PhotoKit's class methods use
    /// (`PHAsset.fetchAssets(with:)`, `PHAssetChangeRequest.creationRequestForAsset...`).
    ///
    /// Linux addition, for processes with several libraries (a server, tests). The scope
    /// follows Swift concurrency's task-local rules: child tasks inherit it.
    public func withCurrent<T>(_ body: () throws -> T) rethrows -> T {
        try Self.$scoped.withValue(self, operation: body)
    }

    /// The async form of ``withCurrent(_:)``.
    public func withCurrent<T>(_ body: () async throws -> T) async rethrows -> T {
        try await Self.$scoped.withValue(self, operation: body)
    }

    public override var description: String { "<PHPhotoLibrary: \(url.path)>" }
}
