public import Foundation
public import Photos
package import PhotosStore
import PhotosLocking
import PhotosPostgres
import PhotosStorePostgres

/// A library in a fresh temporary folder, removed when the test process exits.
///
/// Not at `deinit`: a fetch result or library handle may outlive this value (Swift may end a
/// local's lifetime after its last use), and must still find the database folder. Folders
/// left by processes that died are removed an hour later by the next test process.
///
/// Opened twice: as a `PHPhotoLibrary` (what tests exercise) and as a raw store (for fast
/// seeding of synthetic rows, the way a second process would write to the library).
public final class TemporaryLibrary: @unchecked Sendable {
    // @unchecked Sendable: immutable after init; both handles are thread-safe.
    public let folder: URL
    public let url: URL
    public let library: PHPhotoLibrary
    let store: LibraryDatabase

    /// A new library with the default configuration.
    public convenience init(function: String = #function) throws {
        try self.init(configuration: PHPhotoLibrary.Configuration(), function: function)
    }

    /// A new library with a configuration of its own (its image cache and decode pool, events,
    /// and the gazetteer its moments are named from, which the raw store uses too).
    package init(configuration: PHPhotoLibrary.Configuration, function: String = #function) throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("photokit-tests", isDirectory: true)
            .appendingPathComponent("\(function.prefix(40).filter { $0.isLetter || $0.isNumber })-\(UUID().uuidString.prefix(8))", isDirectory: true)
        url = folder.appendingPathComponent("Library.photoslibrary", isDirectory: true)
        TemporaryFolders.register(folder)
        database = try TestStore.postgres()?.createDatabase()
        library = try Self.open(url, database, configuration)
        store = try Self.openStore(url, database, configuration.gazetteer)
    }

    /// The PostgreSQL database holding the library's rows; `nil` on SQLite.
    public let database: URL?

    private static func open(_ url: URL, _ database: URL?, _ configuration: PHPhotoLibrary.Configuration) throws -> PHPhotoLibrary {
        if let database { return try PHPhotoLibrary(database: database, files: url, configuration: configuration) }
        return try PHPhotoLibrary(url: url, configuration: configuration)
    }

    private static func openStore(_ url: URL, _ database: URL?, _ gazetteer: GazetteerChoice) throws -> LibraryDatabase {
        if let database { return try LibraryDatabase.open(postgres: database, files: url, gazetteer: gazetteer) }
        return try LibraryDatabase.open(at: url, gazetteer: gazetteer)
    }

    /// Another handle on the same library (another process opening it, or this one again
    /// after a restart), on its engine.
    public func openAgain() throws -> PHPhotoLibrary {
        try Self.open(url, database, PHPhotoLibrary.Configuration())
    }

    package func openAgain(configuration: PHPhotoLibrary.Configuration) throws -> PHPhotoLibrary {
        try Self.open(url, database, configuration)
    }

    /// Another raw store on the same library.
    package func openStoreAgain(gazetteer: GazetteerChoice) throws -> LibraryDatabase {
        try Self.openStore(url, database, gazetteer)
    }

    /// Runs one statement on the library's database in a transaction of its own, as another
    /// program editing rows would (nothing is journaled: observers don't hear of it).
    package func execute(_ statement: StoreSQL) throws {
        try store.executeUnjournaled(statement)
    }

    /// The first column of every row a query returns, as text.
    package func texts(_ statement: StoreSQL) throws -> [String] {
        try store.texts(statement)
    }

    /// PostgreSQL: waits until this library's database has `count` `LISTEN` connections (the
    /// handles' change listeners); `false` after `timeout` seconds. Polls the server's
    /// activity view every 20 ms: the event it waits for happens in the server.
    public func waitForListeners(atLeast count: Int, timeout: TimeInterval) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try listenerCount() >= count { return true }
            usleep(20_000)
        }
        return false
    }

    /// PostgreSQL: ends every `LISTEN` connection of this library's database, as a server
    /// restart would; returns how many.
    public func terminateListeners() throws -> Int {
        Int(try postgres("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \(Self.listeners)")) ?? 0
    }

    private func listenerCount() throws -> Int {
        Int(try postgres("SELECT count(*) FROM pg_stat_activity \(Self.listeners)")) ?? 0
    }

    private static let listeners = "WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()"

    private func postgres(_ sql: String) throws -> String {
        guard let database, let server = try TestStore.postgres() else { throw TestStore.NotPostgres() }
        return try server.psql(sql, database: database.lastPathComponent)
    }

    /// A new, empty library on this one's engine (a folder beside it; on PostgreSQL, a
    /// database of its own with its files folder beside this one's).
    public func emptyPeer(_ name: String = "peer") throws -> PHPhotoLibrary {
        let files = folder.appendingPathComponent(name, isDirectory: true)
        guard let server = try TestStore.postgres() else { return try PHPhotoLibrary(url: files) }
        return try PHPhotoLibrary(database: try server.createDatabase(), files: files)
    }

    /// A scratch folder beside the library, for source files.
    public var scratch: URL {
        let scratch = folder.appendingPathComponent("scratch", isDirectory: true)
        try? FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        return scratch
    }

    /// Adds synthetic assets (rows only, no files) in one transaction; returns their local
    /// identifiers in order.
    @discardableResult
    public func seed(_ assets: [SyntheticAsset], now: Date = Date()) throws -> [String] {
        var changes = StoreChangeSet(now: now)
        for asset in assets {
            changes.newAssets.append(NewAsset(record: asset.record(addedDefault: now), resources: []))
        }
        try store.commit(changes)
        return assets.map { $0.uuid + "/L0/001" }
    }

    /// Moves an asset's deletion date into the past (for Recently Deleted expiry tests).
    public func backdateTrash(ofAsset localIdentifier: String, by interval: TimeInterval) throws {
        let uuid = String(localIdentifier.prefix(36))
        guard var record = try store.assets(uuids: [uuid]).first, let trashed = record.trashedDate else { return }
        record.trashedDate = trashed.addingTimeInterval(-interval)
        try store.setTrashedDate(record.trashedDate, forAsset: uuid)
    }

    /// Runs the Recently Deleted expiry as the library does when it opens.
    public func purgeExpiredTrash(now: Date = Date()) throws -> Int {
        try store.purgeExpiredTrash(now: now).count
    }

    /// Files under the library's `originals` folder (relative paths), to check for strays.
    public func originalFiles() -> [String] {
        let originals = url.appendingPathComponent("originals")
        let enumerator = FileManager.default.enumerator(atPath: originals.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: originals.appendingPathComponent(path).path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files.append(path)
            }
        }
        return files.sorted()
    }

    /// Files under the library's `tmp` folder, to check staging is cleaned up.
    public func temporaryFiles() -> [String] {
        let temporary = url.appendingPathComponent("tmp")
        let enumerator = FileManager.default.enumerator(atPath: temporary.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: temporary.appendingPathComponent(path).path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            {
                files.append(path)
            }
        }
        return files.sorted()
    }
}

/// An asset row for seeding, with PhotoKit-typed fields.
public struct SyntheticAsset: Sendable {
    public var uuid = UUID().uuidString
    public var mediaType: PHAssetMediaType = .image
    public var mediaSubtypes: PHAssetMediaSubtype = []
    public var creationDate: Date? = Date(timeIntervalSince1970: 1_600_000_000)
    public var addedDate: Date?
    public var latitude: Double?
    public var longitude: Double?
    public var duration: Double = 0
    public var pixelWidth = 4000
    public var pixelHeight = 3000
    public var isFavorite = false
    public var isHidden = false
    public var burstIdentifier: String?
    public var burstSelectionTypes: PHAssetBurstSelectionType = []
    public var representsBurst = false
    public var selfPortrait = false
    public var raw = false
    public var animated = false

    public init(
        mediaType: PHAssetMediaType = .image, mediaSubtypes: PHAssetMediaSubtype = [], creationDate: Date? = Date(timeIntervalSince1970: 1_600_000_000),
        isFavorite: Bool = false, isHidden: Bool = false
    ) {
        self.mediaType = mediaType
        self.mediaSubtypes = mediaSubtypes
        self.creationDate = creationDate
        self.isFavorite = isFavorite
        self.isHidden = isHidden
    }

    public var localIdentifier: String { uuid + "/L0/001" }

    func record(addedDefault: Date) -> AssetRecord {
        var traits = AssetTraits()
        if selfPortrait { traits.insert(.selfPortrait) }
        if raw { traits.insert(.raw) }
        if animated { traits.insert(.animated) }
        return AssetRecord(
            uuid: uuid, mediaType: mediaType.rawValue, mediaSubtypes: Int(mediaSubtypes.rawValue),
            pixelWidth: pixelWidth, pixelHeight: pixelHeight, creationDate: creationDate, modificationDate: addedDate ?? addedDefault,
            addedDate: addedDate ?? addedDefault,
            location: latitude.flatMap { lat in longitude.map { LocationRecord(latitude: lat, longitude: $0) } },
            duration: duration, isFavorite: isFavorite, isHidden: isHidden, burstIdentifier: burstIdentifier,
            burstSelectionTypes: Int(burstSelectionTypes.rawValue), representsBurst: representsBurst,
            playbackStyle: mediaType == .video ? 4 : (animated ? 2 : 1),
            uniformTypeIdentifier: mediaType == .video ? "public.mpeg-4" : "public.jpeg", traits: traits.rawValue)
    }
}

/// Temporary folders removed at process exit.
enum TemporaryFolders {
    private static let folders = Mutex<[URL]?>(nil)

    static func register(_ folder: URL) {
        folders.withLock { list in
            if list == nil {
                list = []
                removeStaleFolders(in: folder.deletingLastPathComponent())
                atexit {
                    for folder in TemporaryFolders.folders.withLock({ $0 ?? [] }) {
                        try? FileManager.default.removeItem(at: folder)
                    }
                }
            }
            list?.append(folder)
        }
    }

    private static func removeStaleFolders(in parent: URL) {
        let entries = (try? FileManager.default.contentsOfDirectory(at: parent, includingPropertiesForKeys: [.contentModificationDateKey])) ?? []
        for entry in entries {
            let modified = (try? entry.resourceValues(forKeys: [.contentModificationDateKey]).contentModificationDate) ?? nil
            if let modified, modified < Date().addingTimeInterval(-3600) {
                try? FileManager.default.removeItem(at: entry)
            }
        }
    }
}
