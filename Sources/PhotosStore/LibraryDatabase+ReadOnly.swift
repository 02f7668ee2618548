import CoreLocation
import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

extension LibraryDatabase {
    /// Opens an existing library for reading only: on a read-only mount, a backup drive, a
    /// folder this user can't write, or a full disk.
    ///
    /// Nothing is created or written: no folders, no lock file, no migration, no clean-up of
    /// staging or Recently Deleted, no identifier file. Connections are SQLite's read-only
    /// ones. A database in WAL mode needs its shared-memory file (`-shm`); when that can't be
    /// made (a read-only file system, a full disk), the database is opened as *immutable*:
    /// SQLite then reads the main file alone, so changes other processes make meanwhile are
    /// not seen, and changes left in a `-wal` file (a copy of a library taken while it was
    /// open) are not read: a warning on standard error says so.
    ///
    /// Refuses a folder without a database, a lost database beside a library's files
    /// (`.missingDatabase`), a newer schema, and an older one (a migration writes: open it
    /// read-write once).
    static func openForReading(at root: URL, gazetteer: GazetteerChoice, memoryMap: Int = mmapSize) throws(StoreError) -> LibraryDatabase {
        let memoryMap = max(0, memoryMap)
        let layout = LibraryLayout(root: root)
        try refuseMissingDatabase(layout)
        let file = layout.databaseFile.path
        guard fileSize(file) > 0 else {
            throw StoreError(.cannotOpen, "There is no library at \(root.path) to open read-only (no database/Photos.sqlite).")
        }
        var path = file
        let pool: DatabasePool
        do {
            pool = try openReadOnlyPool(path, memoryMap: memoryMap)
        } catch {
            // No shared memory to be had: read the main file as it is.
            path = immutableURI(file)
            do {
                pool = try openReadOnlyPool(path, memoryMap: memoryMap)
            } catch {
                throw StoreError(.cannotOpen, "Can't open the library database \(file) for reading: \(error)")
            }
            let unread = fileSize(file + "-wal")
            if unread > 0 {
                FileHandle.standardError.write(Data(
                    ("warning: \(root.path): the last changes (\(unread) bytes in database/Photos.sqlite-wal) can't be read "
                        + "without writing; open the library read-write once to fold them in.\n").utf8))
            }
        }
        do {
            let migrator = LibraryMigrations.migrator
            let (superseded, completed) = try pool.read { db in
                (try migrator.hasBeenSuperseded(db), try migrator.hasCompletedMigrations(db))
            }
            if superseded {
                throw StoreError(
                    .newerSchema,
                    "The library at \(root.path) was written by a newer version of PhotoKit for Linux; upgrade to open it.")
            }
            if !completed {
                throw StoreError(
                    .cannotOpen,
                    "The library at \(root.path) was written by an older version of PhotoKit for Linux and must be upgraded, "
                        + "which writes to it: open it once read-write (any photos command without --read-only), then read-only.")
            }
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.cannotOpen, "Can't read the library database \(file): \(error)")
        }
        return LibraryDatabase(layout: layout, pool: pool, gazetteer: gazetteer, connectionPath: path, readOnly: true, memoryMap: memoryMap)
    }

    /// A pool of read-only connections to `path`, checked by reading the schema (the first
    /// read is what needs the shared-memory file).
    private static func openReadOnlyPool(_ path: String, memoryMap: Int) throws -> DatabasePool {
        var config = Configuration()
        config.readonly = true
        config.maximumReaderCount = 8
        config.label = "PhotosLibrary.readOnly"
        config.busyMode = .timeout(busyTimeout)
        config.prepareDatabase { db in
            try ConnectionFunctions.register(in: db)
            try db.execute(sql: "PRAGMA mmap_size = \(memoryMap)")
        }
        let pool = try DatabasePool(path: path, configuration: config)
        _ = try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
        return pool
    }

    /// The SQLite URI that opens `file` as immutable.
    static func immutableURI(_ file: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "%?#")
        return "file:" + (file.addingPercentEncoding(withAllowedCharacters: allowed) ?? file) + "?immutable=1"
    }

    /// The size of the file at `path` (following links), 0 when there is none.
    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// Throws `.readOnly` for a library opened read-only.
    func refuseIfReadOnly() throws(StoreError) {
        guard isReadOnly else { return }
        throw StoreError(.readOnly, "The library at \(layout.root.path) is open read-only: changes can't be saved.")
    }

    /// What to add to a failure to open a library for writing when its folder can't be
    /// written: how to open it read-only instead.
    static func readOnlyHint(_ layout: LibraryLayout) -> String {
        var info = statvfs()
        let folder = FileManager.default.fileExists(atPath: layout.databaseFolder.path) ? layout.databaseFolder : layout.root
        guard statvfs(folder.path, &info) == 0 else { return "" }
        let readOnlyMount = info.f_flag & UInt(ST_RDONLY) != 0
        let full = info.f_bavail == 0
        guard readOnlyMount || full || access(folder.path, W_OK) != 0 else { return "" }
        let why = readOnlyMount ? "is on a read-only file system" : full ? "is on a full disk" : "can't be written"
        return " (the library \(why); to read it, open it read-only: `photos ... --read-only`, "
            + "`photos serve --read-only`, or `PHPhotoLibrary(url:readOnly: true)`)"
    }
}
