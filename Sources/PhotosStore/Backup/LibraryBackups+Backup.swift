package import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// What ``LibraryDatabase/backup(to:keeping:afterSnapshot:)`` did.
package struct BackupReport: Sendable {
    package var generation = ""
    package var assets = 0
    /// Files the snapshot names (originals, renders, adjustment data, referenced originals).
    package var files = 0
    /// Files copied this time, and their bytes; the others were in the backup already.
    package var copiedFiles = 0
    package var copiedBytes: Int64 = 0
    /// Originals referenced in place (outside the library), copied into the backup too.
    package var referencedFiles = 0
    /// Originals in a remote store: not copied.
    package var remoteOriginals = 0
    /// Files the snapshot names that the library itself has lost (not deleted during the run).
    package var missingFiles: [String] = []
    /// Files whose bytes differ from the SHA-256 recorded at import (backed up as they are).
    package var damagedFiles: [String] = []
    /// Snapshots taken: more than one when a commit removed a file the first one named.
    package var snapshotAttempts = 0
    /// Older generations removed to keep the number asked for.
    package var removedGenerations: [String] = []
    /// The snapshot's size.
    package var databaseBytes: Int64 = 0
}

/// A resource row of a database snapshot.
package struct SnapshotResource: Sendable, Hashable {
    package var path: String
    package var size: Int64
    package var contentHash: String?
    package var assetUUID: String
    package var type: Int
}

extension LibraryBackups {
    /// Writes a consistent snapshot of the database to `url` (which must not exist) with
    /// `VACUUM INTO` on a reader, so writers go on meanwhile; the snapshot is a single file
    /// (rollback journal, no `-wal`), flushed to disk.
    package func writeSnapshot(to url: URL) throws(StoreError) {
        let pool = try database.sqlitePool("A snapshot of the database file")
        unlink(url.path)
        do {
            try pool.unsafeRead { db in try db.execute(sql: "VACUUM INTO ?", arguments: [url.path]) }
            let queue = try DatabaseQueue(path: url.path)
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
            try queue.close()
        } catch {
            unlink(url.path)
            throw StoreError(.database, "Taking a snapshot of the database into \(url.path) failed: \(error)")
        }
        try SafeFiles.flush(url)
    }

    /// The resource rows, asset count and library identifier of a database file (a snapshot).
    package static func snapshotContents(at url: URL) throws(StoreError) -> (resources: [SnapshotResource], assets: Int, identifier: String) {
        try StoreError.mapping("Reading the database snapshot \(url.path) failed") {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: url.path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                let resources = try Row.fetchAll(
                    db, sql: "SELECT resource.path, resource.fileSize, resource.contentHash, asset.uuid, resource.type FROM resource JOIN asset ON asset.id = resource.assetID ORDER BY resource.id"
                ).map { SnapshotResource(path: $0[0], size: $0[1], contentHash: $0[2], assetUUID: $0[3], type: $0[4]) }
                let assets = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset") ?? 0
                let identifier = try String.fetchOne(db, sql: "SELECT value FROM libraryInfo WHERE key = 'libraryIdentifier'") ?? ""
                return (resources, assets, identifier)
            }
        }
    }

    /// How many snapshots a backup takes at most before it gives up: each retry follows a
    /// commit that removed a file the previous snapshot named.
    static let maximumSnapshotAttempts = 8

    /// Backs the library up into the folder `destination` (see ``BackupManifest`` for its
    /// database.layout): a snapshot of the database and every file it names, verified by SHA-256.
    ///
    /// Safe while other connections and processes write: the snapshot is consistent, and the
    /// library's files never change in place (an edit writes new names), so a file the
    /// snapshot names is either copied whole or has been removed by a later commit; then a
    /// new snapshot is taken and only what it adds is copied. A file missing from two
    /// snapshots in a row is lost from the library itself and listed. Incremental: a file
    /// whose path, size and modification time match the previous generation is not read.
    /// The new generation's manifest is written last, so an interrupted backup (even
    /// `kill -9`) leaves the earlier generations as they were. Keeps the newest `keeping`
    /// generations; files no kept generation names are removed. `afterSnapshot` runs after
    /// each snapshot (tests commit there).
    package func backup(
        to destination: URL, keeping: Int = 3, now: Date = Date(), afterSnapshot: (Int) -> Void = { _ in }
    ) throws(StoreError) -> BackupReport {
        let backup = BackupLayout(root: destination)
        let libraryPrefix = database.layout.root.path + "/"
        guard backup.root.path != database.layout.root.path, !(backup.root.path + "/").hasPrefix(libraryPrefix) else {
            throw StoreError(.notAllowed, "Can't back the library up into itself (\(backup.root.path)); choose a folder outside \(database.layout.root.path)")
        }
        guard keeping >= 1 else { throw StoreError(.notAllowed, "A backup keeps at least 1 generation (asked for \(keeping))") }
        if !backup.isBackup {
            guard SafeFiles.isEmptyFolder(backup.root) else {
                throw StoreError(
                    .notAllowed,
                    "\(backup.root.path) is not empty and is not a PhotoKit backup (no photokit-backup file); choose a new or empty folder")
            }
            try SafeFiles.createFolder(backup.root)
            try SafeFiles.write(Data("PhotoKit for Linux backup, format \(BackupManifest.currentFormat)\n".utf8), to: backup.marker)
        }
        for folder in [backup.generations, backup.objects, backup.temporary] { try SafeFiles.createFolder(folder) }
        guard let lock = TryLock(backup.lockFile) else {
            throw StoreError(.notAllowed, "Another backup is writing to \(backup.root.path); wait for it to finish")
        }
        defer { withExtendedLifetime(lock) {} }
        // Left by an interrupted run (this lock says none is running).
        for name in (try? FileManager.default.contentsOfDirectory(atPath: backup.temporary.path)) ?? [] {
            try? FileManager.default.removeItem(at: backup.temporary.appendingPathComponent(name))
        }

        let previous: [String: BackupManifest.File] = {
            guard let last = backup.generationNames().last, let manifest = try? backup.manifest(last) else { return [:] }
            return Dictionary(manifest.files.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        }()
        var report = BackupReport()
        let snapshot = backup.temporary.appendingPathComponent("snapshot-\(UUID().uuidString).sqlite")
        defer { unlink(snapshot.path) }
        var done: [String: BackupManifest.File] = [:]
        var missingBefore: Set<String>?
        var contents: (resources: [SnapshotResource], assets: Int, identifier: String)
        var lost: Set<String> = []
        while true {
            report.snapshotAttempts += 1
            try writeSnapshot(to: snapshot)
            afterSnapshot(report.snapshotAttempts)
            contents = try Self.snapshotContents(at: snapshot)
            var missing = Set<String>()
            for resource in contents.resources where done[resource.path] == nil && !LibraryLayout.isRemote(path: resource.path) {
                let source = database.layout.url(forRelativePath: resource.path)
                guard let (size, modified) = SafeFiles.stat(source) else {
                    missing.insert(resource.path)
                    continue
                }
                if let earlier = previous[resource.path], earlier.size == size, earlier.modified == modified,
                    SafeFiles.stat(backup.object(earlier.sha256))?.size == size
                {
                    done[resource.path] = earlier
                    continue
                }
                let hash: String
                do {
                    hash = try copyIfNeeded(source, knownHash: resource.contentHash, size: size, into: backup, report: &report)
                } catch where SafeFiles.stat(source) == nil {
                    missing.insert(resource.path)  // removed while it was being read
                    continue
                }
                if let known = resource.contentHash, known != hash { report.damagedFiles.append(resource.path) }
                done[resource.path] = BackupManifest.File(path: resource.path, sha256: hash, size: size, modified: modified)
            }
            if missing.isEmpty { break }
            // Missing from two snapshots in a row: not a commit's doing but a lost file.
            if let missingBefore, missing.isSubset(of: missingBefore) {
                lost = missing
                break
            }
            guard report.snapshotAttempts < Self.maximumSnapshotAttempts else {
                throw StoreError(
                    .fileOperation,
                    "The library changed under every one of \(report.snapshotAttempts) snapshots (files removed before they could be copied); try again when it is quieter. The earlier backups are unchanged")
            }
            missingBefore = missing
        }

        let generation = BackupLayout.generationName(for: now)
        let names = Set(contents.resources.map(\.path))
        let files = contents.resources.compactMap { done[$0.path] }.reduce(into: [String: BackupManifest.File]()) { $0[$1.path] = $1 }
            .values.sorted { $0.path < $1.path }
        report.generation = generation
        report.assets = contents.assets
        report.files = names.count
        report.referencedFiles = files.filter(\.isReferenced).count
        let remote = Set(contents.resources.map(\.path).filter(LibraryLayout.isRemote(path:))).sorted()
        report.remoteOriginals = remote.count
        report.missingFiles = lost.sorted()
        report.damagedFiles.sort()
        let databaseHash = try ContentHash.sha256(ofFileAt: snapshot)
        report.databaseBytes = SafeFiles.stat(snapshot)?.size ?? 0
        try SafeFiles.rename(snapshot, to: backup.databaseFile(generation))
        let manifest = BackupManifest(
            createdAt: ISO8601DateFormatter().string(from: now), generation: generation, libraryIdentifier: contents.identifier,
            libraryPath: database.layout.root.path, databaseSHA256: databaseHash, databaseSize: report.databaseBytes, assetCount: contents.assets,
            files: files, remoteOriginals: remote, missingFiles: report.missingFiles)
        Failpoint.hit(.backupBeforeManifest)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            try SafeFiles.write(try encoder.encode(manifest), to: backup.manifestFile(generation))
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(.fileOperation, "Can't encode the backup manifest: \(error)")
        }
        report.removedGenerations = pruneGenerations(of: backup, keeping: keeping)
        return report
    }

    /// The SHA-256 of a library file, copied into `objects/` unless its bytes are there: when
    /// the object of the hash recorded at import exists, the file is only read to confirm it.
    private func copyIfNeeded(
        _ source: URL, knownHash: String?, size: Int64, into backup: BackupLayout, report: inout BackupReport
    ) throws(StoreError) -> String {
        if let knownHash, SafeFiles.stat(backup.object(knownHash))?.size == size {
            let hash = try ContentHash.sha256(ofFileAt: source)
            if hash == knownHash { return hash }
        }
        return try storeObject(from: source, in: backup, report: &report, size: size)
    }

    /// Copies a library file into `objects/` by its SHA-256 (verified), unless that content is there.
    @discardableResult
    private func storeObject(from source: URL, in backup: BackupLayout, report: inout BackupReport, size: Int64) throws(StoreError) -> String {
        let staged = backup.temporary.appendingPathComponent("object-\(UUID().uuidString)")
        let hash = try SafeFiles.copyVerified(from: source, to: staged, staging: backup.temporary)
        let object = backup.object(hash)
        if SafeFiles.stat(object)?.size == size {
            unlink(staged.path)
        } else {
            try SafeFiles.createFolder(object.deletingLastPathComponent())
            try SafeFiles.rename(staged, to: object)
            report.copiedFiles += 1
            report.copiedBytes += size
            if report.copiedFiles == 1 { Failpoint.hit(.backupAfterFirstCopy) }
        }
        return hash
    }

    /// Removes the oldest generations beyond `keeping`, then every object no kept generation
    /// names, and unfinished generations' snapshots. Returns the generations removed.
    private func pruneGenerations(of backup: BackupLayout, keeping: Int) -> [String] {
        let names = backup.generationNames()
        let removed = Array(names.dropLast(keeping))
        for name in removed {
            unlink(backup.manifestFile(name).path)  // first: without it the generation no longer exists
            unlink(backup.databaseFile(name).path)
        }
        let kept = Set(names.suffix(keeping))
        var needed = Set<String>()
        for name in kept {
            guard let manifest = try? backup.manifest(name) else { return removed }  // unreadable: remove nothing
            needed.formUnion(manifest.files.map(\.sha256))
        }
        // Snapshots of runs that never wrote their manifest.
        for file in (try? FileManager.default.contentsOfDirectory(atPath: backup.generations.path)) ?? [] where file.hasSuffix(".sqlite") {
            if !kept.contains(String(file.dropLast(7))) { unlink(backup.generations.appendingPathComponent(file).path) }
        }
        for shard in (try? FileManager.default.contentsOfDirectory(atPath: backup.objects.path)) ?? [] {
            let folder = backup.objects.appendingPathComponent(shard, isDirectory: true)
            for object in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where !needed.contains(object) {
                unlink(folder.appendingPathComponent(object).path)
            }
        }
        return removed
    }
}
