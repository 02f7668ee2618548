package import Foundation
import GRDB

#if canImport(Glibc)
    import Glibc
#endif

/// What ``LibraryRestore/restore(backup:generation:to:copyingReferenced:)`` did.
package struct RestoreReport: Sendable {
    package var generation = ""
    package var assets = 0
    /// Files written into the new library, and their bytes.
    package var files = 0
    package var bytes: Int64 = 0
    /// Originals referenced in place that are still where they were: referenced again.
    package var referencedKept: [String] = []
    /// Originals referenced in place that were gone (or `copyingReferenced`): copied into
    /// the library from the backup (absolute path, new path in the library).
    package var referencedCopied: [(from: String, to: String)] = []
    /// Originals in a remote store: referenced as before.
    package var remoteOriginals = 0
    /// Files the library had lost before the backup was made: not in the backup.
    package var missingFiles: [String] = []
}

/// Brings a backup (see ``BackupManifest``) back as a new library folder.
package enum LibraryRestore {
    /// Restores generation `generation` (the newest when nil) of the backup at `backup` into
    /// `target`, which must be missing or empty: every file is copied from the backup through
    /// a temporary file and renamed into place once its SHA-256 matches the manifest; the
    /// database goes in last, so a restore that fails half-way leaves a folder that refuses
    /// to open as a library (and is removed). Originals that were referenced in place stay
    /// referenced when they are still at their path with their size, else (or with
    /// `copyingReferenced`) are copied into the library and their rows point there.
    package static func restore(backup root: URL, generation: String?, to target: URL, copyingReferenced: Bool) throws(StoreError) -> RestoreReport {
        let backup = BackupLayout(root: root)
        guard backup.isBackup else {
            throw StoreError(.cannotOpen, "\(backup.root.path) is not a PhotoKit backup (it has no photokit-backup file)")
        }
        let names = backup.generationNames()
        guard let chosen = generation ?? names.last else {
            throw StoreError(.cannotOpen, "The backup at \(backup.root.path) holds no finished generation")
        }
        guard names.contains(chosen) else {
            throw StoreError(.cannotOpen, "The backup at \(backup.root.path) has no generation \(chosen); it has \(names.joined(separator: ", "))")
        }
        let manifest = try backup.manifest(chosen)
        let layout = LibraryLayout(root: target)
        guard SafeFiles.isEmptyFolder(layout.root) else {
            throw StoreError(.notAllowed, "\(layout.root.path) is not empty; restore into a new or empty folder (nothing was changed)")
        }
        let existed = FileManager.default.fileExists(atPath: layout.root.path)
        var finished = false
        defer {
            if !finished {
                if existed {
                    for name in (try? FileManager.default.contentsOfDirectory(atPath: layout.root.path)) ?? [] {
                        try? FileManager.default.removeItem(at: layout.root.appendingPathComponent(name))
                    }
                } else {
                    try? FileManager.default.removeItem(at: layout.root)
                }
            }
        }
        do {
            try layout.createFolders()
        } catch {
            throw StoreError(.cannotOpen, "Can't create the library folder at \(layout.root.path): \(error.localizedDescription)")
        }
        let staging = layout.temporary.appendingPathComponent("restore-\(getpid())", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: staging) }

        // The database first into staging: verified, and read for the referenced originals' rows.
        let database = staging.appendingPathComponent("Photos.sqlite")
        try SafeFiles.copyVerified(from: backup.databaseFile(chosen), to: database, staging: staging, expected: manifest.databaseSHA256)
        let rows = try LibraryBackups.snapshotContents(at: database).resources
        let rowsByPath = Dictionary(rows.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })

        var report = RestoreReport(generation: chosen, assets: manifest.assetCount)
        var rewrites: [(from: String, to: String, hash: String)] = []
        for file in manifest.files {
            let object = backup.object(file.sha256)
            guard SafeFiles.stat(object) != nil else {
                throw StoreError(.fileOperation, "The backup is missing the file \(file.path) (objects/\(file.sha256.prefix(2))/\(file.sha256)); restore another generation")
            }
            var path = file.path
            if file.isReferenced {
                if !copyingReferenced, SafeFiles.stat(URL(fileURLWithPath: file.path))?.size == file.size {
                    report.referencedKept.append(file.path)
                    continue
                }
                let row = rowsByPath[file.path]
                let uuid = row?.assetUUID ?? UUID().uuidString
                let suffix = row.map { [1, 2].contains($0.type) ? "" : "_\($0.type)" } ?? ""
                let ext = URL(fileURLWithPath: file.path).pathExtension.lowercased()
                path = "originals/\(uuid.prefix(1))/\(uuid)\(suffix)\(ext.isEmpty ? "" : ".\(ext)")"
                rewrites.append((file.path, path, file.sha256))
                report.referencedCopied.append((file.path, path))
            }
            do {
                try SafeFiles.copyVerified(from: object, to: layout.root.appendingPathComponent(path), staging: staging, expected: file.sha256)
            } catch {
                throw StoreError(.fileOperation, "Restoring \(file.path) failed: \(error.message)")
            }
            report.files += 1
            report.bytes += file.size
        }
        if !rewrites.isEmpty {
            try StoreError.mapping("Pointing the restored library at its copied originals failed") {
                let queue = try DatabaseQueue(path: database.path)
                defer { try? queue.close() }
                try queue.write { db in
                    for rewrite in rewrites {
                        try db.execute(
                            sql: "UPDATE resource SET path = ?, contentHash = ? WHERE path = ?", arguments: [rewrite.to, rewrite.hash, rewrite.from])
                    }
                }
            }
            try SafeFiles.flush(database)
        }
        report.remoteOriginals = manifest.remoteOriginals.count
        report.missingFiles = manifest.missingFiles
        // Last: until the database is in place the folder can't open as a library.
        try SafeFiles.write(Data((manifest.libraryIdentifier + "\n").utf8), to: layout.identifierFile)
        try SafeFiles.rename(database, to: layout.databaseFile)
        try? SafeFiles.flush(layout.databaseFolder)
        finished = true
        return report
    }
}
