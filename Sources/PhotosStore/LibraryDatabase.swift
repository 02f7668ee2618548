package import CoreLocation
package import Foundation
import GRDB
import PhotosLocking

#if canImport(Glibc)
    import Glibc
#endif

/// The gateway to a library's database: every query and write goes through here.
///
/// The store's logic runs on a ``StoreEngine``: SQLite (``open(at:gazetteer:readOnly:memoryMap:)``,
/// a `DatabasePool` in WAL mode whose writes wait up to ``busyTimeout`` for another process's,
/// so the CLI and the server can use one library at the same time) or PostgreSQL (the
/// `PhotosStorePostgres` target). Files (originals, renders, derivatives) live in ``layout``
/// either way.
package final class LibraryDatabase: Sendable {
    package let layout: LibraryLayout
    /// The database engine.
    package let engine: any StoreEngine
    /// Where moments' place names come from.
    package let gazetteer: GazetteerChoice
    private let historyLimitValue = Mutex(LibraryDatabase.defaultHistoryLimit)
    /// The library's identifier once read: it never changes (every change token carries it).
    private let identifierValue = Mutex<String?>(nil)
    /// The library owner's row id once there is one: the first person stays the owner (they
    /// can't be removed), so a person's history, observers and changes don't read it each time.
    let knownOwnerID = Mutex<Int64?>(nil)
    private let logRestartFramesValue = Mutex(LibraryDatabase.defaultLogRestartFrames)

    /// Past this many frames (~32 MB of 4 KiB pages) the log is restarted by force.
    package static let defaultLogRestartFrames = 8_192

    /// Past this many frames in the write-ahead log, commits restart it (``restartLogIfLong()``).
    package var logRestartFrames: Int {
        get { logRestartFramesValue.withLock { $0 } }
        set { logRestartFramesValue.withLock { $0 = newValue } }
    }

    /// How many changes persistent history keeps by default.
    package static let defaultHistoryLimit = 100_000

    /// How many changes persistent history keeps; older ones are removed as changes commit
    /// (in steps of 64 changes, or of the limit when it is smaller).
    package var historyLimit: Int {
        get { historyLimitValue.withLock { $0 } }
        set { historyLimitValue.withLock { $0 = newValue } }
    }

    /// How much of the database file connections map into memory (`PRAGMA mmap_size`) unless
    /// the library is opened with another `memoryMap`.
    package static let mmapSize = 1 << 30

    /// How long a write waits for another connection's write before giving up.
    package static let busyTimeout: TimeInterval = 30

    /// Whether the library was opened for reading only: every write throws `.readOnly`.
    package let isReadOnly: Bool

    /// Where the library keeps originals when not in its folder (an S3 bucket), and who
    /// removes them once their rows are gone.
    package let objectOriginals = ObjectOriginals()

    /// A library whose rows `engine` holds and whose files are in `layout`.
    package init(layout: LibraryLayout, engine: any StoreEngine, gazetteer: GazetteerChoice, readOnly: Bool = false) {
        self.layout = layout
        self.engine = engine
        self.gazetteer = gazetteer
        self.isReadOnly = readOnly
    }

    /// `connectionPath` is the database file's path, or an SQLite URI for a read-only open.
    /// `memoryMap` is every connection's `mmap_size` (non-negative): the pool's, the direct
    /// readers' and the snapshots'.
    convenience init(
        layout: LibraryLayout, pool: DatabasePool, gazetteer: GazetteerChoice, connectionPath: String? = nil, readOnly: Bool = false,
        memoryMap: Int
    ) {
        let engine = SQLiteEngine(
            pool: pool, layout: layout, connectionPath: connectionPath ?? layout.databaseFile.path, memoryMap: memoryMap)
        self.init(layout: layout, engine: engine, gazetteer: gazetteer, readOnly: readOnly)
    }

    /// The SQLite engine, for what only SQLite has (backups, checkpoints, `PRAGMA` checks);
    /// `nil` for a library on another engine.
    var sqlite: SQLiteEngine? { engine as? SQLiteEngine }

    /// Opens the library at `root`, creating the folder and database when missing, and
    /// migrating an older schema. Refuses a database made by a newer schema. Moments get place
    /// names from `gazetteer`.
    ///
    /// With `readOnly`, nothing is created or written (see ``openForReading(at:gazetteer:memoryMap:)``).
    ///
    /// `memoryMap` bounds the bytes of the database file its connections map (`mmap_size`).
    /// Mapped pages are the kernel's page cache, but a process's resident set counts each
    /// mapping's pages: a bulk import that touches every index page of a large library shows
    /// its whole database there (`photos import` opens with a small map; its lookups are point
    /// reads, which `pread` serves as fast).
    package static func open(
        at root: URL, gazetteer: GazetteerChoice = .machine, readOnly: Bool = false, memoryMap: Int = mmapSize
    ) throws(StoreError) -> LibraryDatabase {
        let memoryMap = max(0, memoryMap)
        if readOnly { return try openForReading(at: root, gazetteer: gazetteer, memoryMap: memoryMap) }
        let layout = LibraryLayout(root: root)
        do {
            try layout.createFolders()
        } catch {
            throw StoreError(.cannotOpen, "Can't create the library folder at \(root.path): \(error.localizedDescription)" + readOnlyHint(layout))
        }
        // One process at a time creates or migrates the schema.
        let lock: FolderLock
        do {
            lock = try FolderLock(layout.databaseFolder.appendingPathComponent(".open-lock"))
        } catch {
            throw StoreError(error.code, error.message + readOnlyHint(layout))
        }
        defer { lock.release() }
        try refuseMissingDatabase(layout)

        let pool: DatabasePool
        do {
            pool = try DatabasePool(path: layout.databaseFile.path, configuration: configuration(memoryMap: memoryMap))
        } catch {
            throw StoreError(.cannotOpen, "Can't open the library database \(layout.databaseFile.path): \(error)" + readOnlyHint(layout))
        }
        do {
            let migrator = LibraryMigrations.migrator
            if try pool.read({ try migrator.hasBeenSuperseded($0) }) {
                let applied = try pool.read { try migrator.appliedIdentifiers($0) }
                let unknown = applied.subtracting(migrator.migrations).sorted()
                throw StoreError(
                    .newerSchema,
                    "The library at \(root.path) was written by a newer version of PhotoKit for Linux "
                        + "(schema \(unknown.joined(separator: ", ")) is unknown to this version); "
                        + "upgrade to open it. Nothing was changed.")
            }
            try migrator.migrate(pool)
            // The journal's triggers live on the writer connection only.
            try pool.writeWithoutTransaction { db in try JournalTriggers.install(db) }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.cannotOpen, "Can't prepare the library database \(layout.databaseFile.path): \(error)" + readOnlyHint(layout))
        }
        let database = LibraryDatabase(layout: layout, pool: pool, gazetteer: gazetteer, memoryMap: memoryMap)
        database.backups.takeAutomaticSnapshotIfDue()  // skipped when the folder isn't writable
        database.finishOpening()
        return database
    }

    /// What every engine's opening does last: the identifier file, stale staging folders,
    /// expired Recently Deleted items, moments still without place names, assets not in the search
    /// index yet.
    package func finishOpening() {
        writeIdentifierFileIfMissing()
        removeStaleStagingFolders()
        _ = try? purgeExpiredTrash()
        _ = try? nameUnnamedMoments()
        _ = try? indexUnindexedAssets()
    }

    /// Throws `.missingDatabase` when the folder holds a library (originals, renders, its
    /// identifier) but its database is missing or empty: a lost database must not quietly
    /// become a new, empty library beside the old files.
    static func refuseMissingDatabase(_ layout: LibraryLayout) throws(StoreError) {
        let root = layout.root
        if fileSize(layout.databaseFile.path) == 0, let contents = layout.libraryContents() {
            let state = FileManager.default.fileExists(atPath: layout.databaseFile.path) ? "is empty (0 bytes)" : "is missing"
            throw StoreError(
                .missingDatabase,
                "The library at \(root.path) holds \(contents), but its database (database/Photos.sqlite) \(state). "
                    + "Opening it would start an empty library beside them, so it was not opened and nothing was changed. "
                    + layout.recoveryAdvice())
        }
    }

    /// Writes `library-identifier` (temporary file and rename) when the folder has none.
    func writeIdentifierFileIfMissing() {
        guard !FileManager.default.fileExists(atPath: layout.identifierFile.path),
            let identifier = try? read({ db in try db.text("SELECT value FROM libraryInfo WHERE key = 'libraryIdentifier'") })
        else { return }
        let temporary = layout.root.appendingPathComponent(".library-identifier.\(UUID().uuidString)")
        guard (try? Data((identifier + "\n").utf8).write(to: temporary)) != nil else { return }
        if rename(temporary.path, layout.identifierFile.path) != 0 { try? FileManager.default.removeItem(at: temporary) }
    }

    private static func configuration(memoryMap: Int) -> Configuration {
        var config = Configuration()
        config.busyMode = .timeout(busyTimeout)
        config.maximumReaderCount = 8
        config.label = "PhotosLibrary"
        config.prepareDatabase { db in
            try ConnectionFunctions.register(in: db)
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // Map the file: large fetches and reads touch pages in place instead of copying
            // them with pread (1.8x faster on a 1M-asset fetch). Address space, not memory.
            try db.execute(sql: "PRAGMA mmap_size = \(memoryMap)")
            // A log written from its start again is cut back to this size (see restartLogIfLong).
            try db.execute(sql: "PRAGMA journal_size_limit = \(64 << 20)")
        }
        return config
    }

    /// The library's own identifier, made when it was created.
    package func libraryIdentifier() throws(StoreError) -> String {
        if let known = identifierValue.withLock({ $0 }) { return known }
        let read = try read { db in
            try db.text("SELECT value FROM libraryInfo WHERE key = 'libraryIdentifier'") ?? ""
        }
        if !read.isEmpty { identifierValue.withLock { $0 = read } }
        return read
    }

    /// Runs a read in a snapshot of the database.
    func read<T>(_ body: (any StoreConnection) throws -> T) throws(StoreError) -> T {
        try StoreError.mapping("Reading the library failed") { try engine.read(body) }
    }

    /// Runs `body` in one write transaction: all of it commits, or none of it.
    @discardableResult
    func write<T>(_ body: (any StoreConnection) throws -> T) throws(StoreError) -> T {
        try refuseIfReadOnly()
        return try StoreError.mapping("Writing to the library failed") { try engine.write(body) }
    }

    /// Runs a read on the SQLite connection itself, for what only SQLite has (`PRAGMA`s,
    /// query plans); throws `.unsupported` on another engine.
    func sqliteRead<T: Sendable>(_ body: (Database) throws -> T) throws(StoreError) -> T {
        let pool = try sqlitePool()
        return try StoreError.mapping("Reading the library failed") { try pool.read(body) }
    }

    /// The SQLite pool; throws `.unsupported` on another engine.
    func sqlitePool(_ feature: String = "This") throws(StoreError) -> DatabasePool {
        guard let sqlite else {
            throw StoreError(.unsupported, "\(feature) works on SQLite libraries only; this library is on \(engine.dialect)")
        }
        return sqlite.pool
    }
}

/// An advisory lock on a file (`flock`), held while a library is created or migrated.
final class FolderLock {
    private let descriptor: Int32

    init(_ url: URL) throws(StoreError) {
        descriptor = Glibc.open(url.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw StoreError(.cannotOpen, "Can't create the lock file \(url.path): \(String(cString: strerror(errno)))")
        }
        while flock(descriptor, LOCK_EX) != 0 && errno == EINTR {}
    }

    func release() {
        flock(descriptor, LOCK_UN)
    }

    deinit {
        flock(descriptor, LOCK_UN)
        close(descriptor)
    }
}
