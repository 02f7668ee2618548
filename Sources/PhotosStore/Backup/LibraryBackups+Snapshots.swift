import CoreLocation
package import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// A database snapshot the library took of itself (`database/snapshots/Photos-<stamp>.sqlite`).
package struct AutomaticSnapshot: Sendable, Hashable {
    /// `Photos-<stamp>.sqlite`.
    package var name: String
    package var url: URL
    package var date: Date
    package var size: Int64
}

extension LibraryLayout {
    /// The library's own database snapshots: `database/snapshots/`.
    package var snapshotsFolder: URL { databaseFolder.appendingPathComponent("snapshots", isDirectory: true) }

    /// The automatic snapshots, oldest first.
    package func automaticSnapshots() -> [AutomaticSnapshot] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: snapshotsFolder.path)) ?? []
        return names.filter { $0.hasPrefix("Photos-") && $0.hasSuffix(".sqlite") }.sorted().compactMap { name in
            let url = snapshotsFolder.appendingPathComponent(name)
            guard let (size, modified) = SafeFiles.stat(url) else { return nil }
            return AutomaticSnapshot(name: name, url: url, date: Date(timeIntervalSince1970: modified), size: size)
        }
    }

    /// The database's size in bytes, 0 when missing.
    package var databaseSize: Int64 { SafeFiles.stat(databaseFile)?.size ?? 0 }

    /// How to get a library whose database is lost back, for the error that refuses to open it:
    /// the one command that fits (its newest snapshot, else a rebuild from its files).
    package func recoveryAdvice() -> String {
        let quoted = "'" + root.path.replacingOccurrences(of: "'", with: "'\\''") + "'"
        if let newest = automaticSnapshots().last {
            let date = ISO8601DateFormatter().string(from: newest.date)
            return "To recover, run `photos restore --snapshot latest --library \(quoted)`: it puts back the database snapshot the library took "
                + "on \(date) and brings back as assets the originals and edits added since. "
                + "Without snapshots, `photos repair --library \(quoted)` rebuilds the database from the files (albums can't come back that way); "
                + "a backup made with `photos backup` comes back with `photos restore BACKUP --to NEW-FOLDER`. To start over, move the folder aside."
        }
        return "To recover, run `photos repair --library \(quoted)`: it rebuilds the database from the originals and edits in the folder "
            + "(albums, favorites and hidden states can't come back that way); "
            + "a backup made with `photos backup` comes back with `photos restore BACKUP --to NEW-FOLDER`. To start over, move the folder aside."
    }
}

extension LibraryBackups {
    /// A new automatic snapshot is taken when the newest is older than this (6 hours).
    package static let automaticSnapshotInterval: TimeInterval = 6 * 3600
    /// How many automatic snapshots are kept.
    package static let automaticSnapshotsKept = 3
    /// Commits between checks whether a snapshot is due, for processes that stay open.
    package static let snapshotCheckCommits: Int64 = 256

    /// Databases up to this size are snapshotted by the opening thread (about 125 ms for a
    /// 6 MB, 10,000-asset database on the 2-core test machine, once per interval); larger ones
    /// on a background thread, so opening never waits seconds for a big library (a process
    /// that exits first leaves a temporary file the next snapshot removes).
    package static let synchronousSnapshotLimit: Int64 = 16 << 20

    /// Takes an automatic snapshot when one is due: the library has assets, its folder is
    /// writable, and the newest snapshot is older than ``automaticSnapshotInterval``. Costs a
    /// `readdir` of a small folder when none is due. Never fails: a library that can't be
    /// written to, or another process taking a snapshot at the same moment, just means none
    /// this time. Called when a library opens and every ``snapshotCheckCommits`` commits.
    func takeAutomaticSnapshotIfDue(now: Date = Date(), inBackground: Bool = false) {
        guard access(database.layout.databaseFolder.path, W_OK) == 0 else { return }
        if let newest = database.layout.automaticSnapshots().last, now.timeIntervalSince(newest.date) < Self.automaticSnapshotInterval { return }
        guard (try? database.read({ db in try db.bool("SELECT EXISTS (SELECT 1 FROM asset)") })) == true else { return }
        if inBackground || database.layout.databaseSize > Self.synchronousSnapshotLimit {
            DispatchQueue.global(qos: .utility).async { _ = try? self.takeSnapshot(now: now) }
        } else {
            _ = try? takeSnapshot(now: now)
        }
    }

    /// The commit hook: checks, off the committing thread, whether a snapshot is due.
    func checkAutomaticSnapshot(after position: Int64) {
        guard position % Self.snapshotCheckCommits == 0 else { return }
        DispatchQueue.global(qos: .utility).async { self.takeAutomaticSnapshotIfDue(inBackground: true) }
    }

    /// Takes an automatic snapshot now (a temporary file renamed into place) and removes the
    /// oldest beyond ``automaticSnapshotsKept``. Returns nil when another process is taking
    /// one at this moment.
    @discardableResult
    package func takeSnapshot(now: Date = Date()) throws(StoreError) -> AutomaticSnapshot? {
        let folder = database.layout.snapshotsFolder
        try SafeFiles.createFolder(folder)
        guard let lock = TryLock(folder.appendingPathComponent(".lock")) else { return nil }
        defer { withExtendedLifetime(lock) {} }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] where name.hasPrefix(".snapshot-") {
            unlink(folder.appendingPathComponent(name).path)  // an interrupted one (the lock says none is running)
        }
        let temporary = folder.appendingPathComponent(".snapshot-\(UUID().uuidString).sqlite")
        try writeSnapshot(to: temporary)
        var name = "Photos-\(BackupLayout.generationName(for: now)).sqlite"
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
            name = "Photos-\(BackupLayout.generationName(for: now))-\(UUID().uuidString.prefix(4)).sqlite"
        }
        let url = folder.appendingPathComponent(name)
        do throws(StoreError) {
            try SafeFiles.rename(temporary, to: url)
        } catch {
            unlink(temporary.path)
            throw error
        }
        try? SafeFiles.flush(folder)
        let snapshots = database.layout.automaticSnapshots()
        for old in snapshots.dropLast(Self.automaticSnapshotsKept) { unlink(old.url.path) }
        return snapshots.last { $0.name == name }
    }

    /// Puts an automatic snapshot (`name`, else the newest) in place of a lost database, for
    /// ``open(at:gazetteer:)`` to open afterwards. Refuses when the database is there (not
    /// empty). Whatever is left of the lost one (a zero-byte file, a `-wal` or `-shm`, which
    /// SQLite would otherwise apply to the snapshot) is moved to `database/lost-<stamp>/`,
    /// never deleted. Returns the snapshot used and the files moved aside.
    package static func placeSnapshot(_ name: String?, inLibraryAt root: URL, now: Date = Date()) throws(StoreError) -> (snapshot: AutomaticSnapshot, movedAside: [String]) {
        let layout = LibraryLayout(root: root)
        let snapshots = layout.automaticSnapshots()
        guard !snapshots.isEmpty else {
            throw StoreError(.cannotOpen, "The library at \(layout.root.path) has no database snapshots (database/snapshots/ is empty); `photos repair` rebuilds a database from its files")
        }
        let chosen: AutomaticSnapshot
        if let name, name != "latest" {
            guard let match = snapshots.first(where: { $0.name == name || $0.name == "Photos-\(name).sqlite" }) else {
                throw StoreError(.cannotOpen, "The library has no snapshot \(name); it has \(snapshots.map(\.name).joined(separator: ", "))")
            }
            chosen = match
        } else {
            chosen = snapshots[snapshots.count - 1]
        }
        let lock = try FolderLock(layout.databaseFolder.appendingPathComponent(".open-lock"))
        defer { lock.release() }
        let size = layout.databaseSize
        guard size == 0 else {
            throw StoreError(
                .notAllowed,
                "The library's database (database/Photos.sqlite, \(size) bytes) is there; a snapshot only replaces a lost or empty one. Nothing was changed")
        }
        let movedAside = try moveAsideLostDatabase(layout, now: now)
        let staged = layout.databaseFolder.appendingPathComponent(".restore-\(UUID().uuidString).sqlite")
        let hash = try ContentHash.sha256(ofFileAt: chosen.url)
        try SafeFiles.copyVerified(from: chosen.url, to: staged, staging: layout.databaseFolder, expected: hash)
        try SafeFiles.rename(staged, to: layout.databaseFile)
        try? SafeFiles.flush(layout.databaseFolder)
        return (chosen, movedAside)
    }

    /// Moves what remains of a lost database (`Photos.sqlite` of 0 bytes, `-wal`, `-shm`) to
    /// `database/lost-<stamp>/`; returns the names moved.
    package static func moveAsideLostDatabase(_ layout: LibraryLayout, now: Date) throws(StoreError) -> [String] {
        let folder = layout.databaseFolder.appendingPathComponent("lost-\(BackupLayout.generationName(for: now))", isDirectory: true)
        var moved: [String] = []
        for suffix in ["", "-wal", "-shm", "-journal"] {
            let file = URL(fileURLWithPath: layout.databaseFile.path + suffix)
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            try SafeFiles.createFolder(folder)
            try SafeFiles.rename(file, to: folder.appendingPathComponent(file.lastPathComponent))
            moved.append("database/\(folder.lastPathComponent)/\(file.lastPathComponent)")
        }
        return moved
    }

    /// Puts a new, empty database in place of a lost one, keeping the library's identifier
    /// (from its `library-identifier` file), so ``open(at:gazetteer:)`` opens the folder again
    /// and repair can rebuild rows from its files. What is left of the lost database is moved
    /// to `database/lost-<stamp>/` (returned). Refuses when the database is there.
    ///
    /// The schema is made the ordinary way, by opening a library in a scratch folder under
    /// `tmp/`, and copied in with `VACUUM INTO` and a rename.
    package static func replaceLostDatabase(inLibraryAt root: URL, now: Date = Date()) throws(StoreError) -> [String] {
        let layout = LibraryLayout(root: root)
        let lock = try FolderLock(layout.databaseFolder.appendingPathComponent(".open-lock"))
        defer { lock.release() }
        guard layout.databaseSize == 0 else {
            throw StoreError(.notAllowed, "The library's database (database/Photos.sqlite) is there; it was not replaced")
        }
        let scratch = layout.temporary.appendingPathComponent("repair-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let staged = layout.databaseFolder.appendingPathComponent(".repair-\(UUID().uuidString).sqlite")
        defer { unlink(staged.path) }
        do {
            let fresh = try LibraryDatabase.open(at: scratch, gazetteer: .custom(nil))
            let identifier = (try? String(contentsOf: layout.identifierFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines)
            if let identifier, UUID(uuidString: identifier) != nil {
                try fresh.write { db in
                    try db.execute("UPDATE libraryInfo SET value = \(identifier) WHERE key = 'libraryIdentifier'")
                }
            }
            try fresh.backups.writeSnapshot(to: staged)
        }
        let moved = try moveAsideLostDatabase(layout, now: now)
        try SafeFiles.rename(staged, to: layout.databaseFile)
        try? SafeFiles.flush(layout.databaseFolder)
        return moved
    }
}
