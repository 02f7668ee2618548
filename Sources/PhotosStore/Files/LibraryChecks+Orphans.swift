package import Foundation

/// A file in a folder the library owns that no row accounts for.
package struct OrphanFile: Sendable, Hashable {
    /// Relative to the library root.
    package var path: String
    /// An original (`originals/`): repair moves it to a recovery folder instead of deleting it.
    package var isOriginal: Bool
}

/// What ``LibraryDatabase/repairOrphans(now:)`` did.
package struct OrphanRepair: Sendable {
    /// Removed: renders, derivatives, local copies and staging nothing refers to.
    package var removed: [String] = []
    /// Originals nothing refers to, moved (relative paths: from, to).
    package var recovered: [(from: String, to: String)] = []
}

extension LibraryChecks {
    /// Files under `originals/`, `renders/`, `derivatives/`, `cache/`, `tmp/` and `imports/`
    /// that belong to nothing: originals and renders no resource row names, derivatives and
    /// local copies of assets that no longer exist, staging folders of processes that are
    /// gone, uploads of no pending import batch. Reads only.
    package func orphanFiles() throws(StoreError) -> [OrphanFile] {
        let (paths, uuids, batches) = try database.read { db in
            (
                try Set(db.texts("SELECT path FROM resource")), try Set(db.texts("SELECT uuid FROM asset")),
                try ImportBatchQueue.pendingUUIDs(db)
            )
        }
        return orphans(named: paths, assets: uuids, batches: batches)
    }

    /// Removes what ``orphanFiles()`` finds, except originals, which go to
    /// `recovered/<date>/<their path>` and are listed. Runs inside a write transaction, so no
    /// change block of any process commits meanwhile (their files move into place only inside
    /// their own transactions).
    package func repairOrphans(now: Date) throws(StoreError) -> OrphanRepair {
        try database.write { db in
            let paths = try Set(db.texts("SELECT path FROM resource"))
            let uuids = try Set(db.texts("SELECT uuid FROM asset"))
            let batches = try ImportBatchQueue.pendingUUIDs(db)
            var repair = OrphanRepair()
            let stamp = ISO8601DateFormatter().string(from: now).replacingOccurrences(of: ":", with: "-")
            for orphan in orphans(named: paths, assets: uuids, batches: batches) {
                let url = database.layout.url(forRelativePath: orphan.path)
                if orphan.isOriginal {
                    let destination = "recovered/\(stamp)/\(orphan.path)"
                    let target = database.layout.url(forRelativePath: destination)
                    try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                    guard rename(url.path, target.path) == 0 else {
                        throw StoreError(.fileOperation, "Can't move \(orphan.path) to \(destination): \(String(cString: strerror(errno)))")
                    }
                    repair.recovered.append((orphan.path, destination))
                } else {
                    try FileManager.default.removeItem(at: url)
                    repair.removed.append(orphan.path)
                }
            }
            return repair
        }
    }

    private func orphans(named paths: Set<String>, assets uuids: Set<String>, batches: Set<String>) -> [OrphanFile] {
        var found: [OrphanFile] = []
        let prefix = database.layout.root.path + "/"
        func relative(_ url: URL) -> String {
            let path = url.standardizedFileURL.path
            return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
        }
        func files(under folder: URL) -> [URL] {
            guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return [] }
            return walker.compactMap { $0 as? URL }.filter {
                (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true && !$0.lastPathComponent.hasPrefix(".")
            }
        }
        // Originals and edits: named by a resource row, or nothing's.
        for (folder, isOriginal) in [(database.layout.originals, true), (database.layout.renders, false)] {
            for url in files(under: folder) where !paths.contains(relative(url)) {
                found.append(OrphanFile(path: relative(url), isOriginal: isOriginal))
            }
        }
        // Derivatives and local copies: `<UUID>_…`, kept for an asset that exists.
        for folder in [database.layout.derivatives, database.layout.root.appendingPathComponent("cache", isDirectory: true)] {
            for url in files(under: folder) {
                let uuid = String(url.lastPathComponent.prefix(36))
                if !uuids.contains(uuid) { found.append(OrphanFile(path: relative(url), isOriginal: false)) }
            }
        }
        // Staging of processes that are gone (`tmp/<pid>-<n>/`).
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: database.layout.temporary.path)) ?? [] {
            guard let pid = Int32(entry.split(separator: "-").first ?? ""), pid != getpid() else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }
            found += files(under: database.layout.temporary.appendingPathComponent(entry)).map { OrphanFile(path: relative($0), isOriginal: false) }
        }
        // Uploads of no pending import batch, left over an hour (younger ones may still be
        // arriving, before their batch is recorded).
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: database.layout.imports.path)) ?? [] where !batches.contains(entry) {
            let folder = database.layout.imports.appendingPathComponent(entry, isDirectory: true)
            let modified = (try? FileManager.default.attributesOfItem(atPath: folder.path)[.modificationDate] as? Date) ?? .distantPast
            guard modified.timeIntervalSinceNow < -3600 else { continue }
            found += files(under: folder).map { OrphanFile(path: relative($0), isOriginal: false) }
        }
        return found.sorted { $0.path < $1.path }
    }
}
