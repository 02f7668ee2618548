package import Foundation

/// Where things live inside a library folder.
///
/// ```
/// <library>/
///   database/Photos.sqlite     SQLite, WAL mode (+ -wal, -shm)
///   originals/<A>/<UUID>.<ext> imported files, sharded by the first UUID character (originals
///                              referenced in place are not here: their rows hold absolute paths)
///   derivatives/               thumbnails and previews (image-manager issue)
///   renders/                   edited versions (content-editing issue)
///   tmp/                       staging on the same file system, so renames are atomic
///   imports/<UUID>/            uploads waiting to be imported (import batches), shared by
///                              every instance
/// ```
package struct LibraryLayout: Sendable, Hashable {
    package let root: URL

    package init(root: URL) {
        self.root = root.standardizedFileURL
    }

    package var databaseFolder: URL { root.appendingPathComponent("database", isDirectory: true) }
    package var databaseFile: URL { databaseFolder.appendingPathComponent("Photos.sqlite") }
    package var originals: URL { root.appendingPathComponent("originals", isDirectory: true) }
    package var derivatives: URL { root.appendingPathComponent("derivatives", isDirectory: true) }
    package var renders: URL { root.appendingPathComponent("renders", isDirectory: true) }
    package var temporary: URL { root.appendingPathComponent("tmp", isDirectory: true) }
    /// Uploads waiting to be imported, a folder per batch.
    package var imports: URL { root.appendingPathComponent("imports", isDirectory: true) }
    /// Where one import batch's files wait.
    package func importBatchFolder(uuid: String) -> URL { imports.appendingPathComponent(uuid, isDirectory: true) }
    /// The library's identifier (`libraryInfo.libraryIdentifier`), kept beside the database
    /// so a folder whose database is lost still says it holds a library.
    package var identifierFile: URL { root.appendingPathComponent("library-identifier") }

    /// What the folder holds besides its database, when that says a library lives here: its
    /// identifier file, originals, renders (nil for a new or empty folder).
    package func libraryContents() -> String? {
        var found: [String] = []
        if FileManager.default.fileExists(atPath: identifierFile.path) { found.append("its library identifier") }
        for (folder, name) in [(originals, "originals"), (renders, "edits")] {
            let count = Self.fileCount(in: folder, limit: 1000)
            if count > 0 { found.append("\(count >= 1000 ? "1,000+" : String(count)) \(name)") }
        }
        return found.isEmpty ? nil : found.joined(separator: ", ")
    }

    /// Regular files under `folder`, counted up to `limit`.
    private static func fileCount(in folder: URL, limit: Int) -> Int {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey]) else { return 0 }
        var count = 0
        for case let url as URL in walker where (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
            count += 1
            if count >= limit { break }
        }
        return count
    }

    /// Every folder the library needs.
    package var folders: [URL] { [databaseFolder, originals, derivatives, renders, temporary] }

    /// Creates the folders that are missing.
    package func createFolders() throws {
        for folder in [root] + folders {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
    }

    /// The path, relative to the library root, where an original with this UUID is kept.
    package func originalRelativePath(uuid: String, fileExtension: String) -> String {
        let shard = uuid.prefix(1)
        let ext = fileExtension.isEmpty ? "" : ".\(fileExtension.lowercased())"
        return "originals/\(shard)/\(uuid)\(ext)"
    }

    /// The folder of an asset's derivatives (`derivatives/<first UUID character>/`); each file
    /// in it is named `<UUID>_<kind>.<ext>`.
    package func derivativesFolder(assetUUID: String) -> URL {
        derivatives.appendingPathComponent(String(assetUUID.prefix(1)), isDirectory: true)
    }

    /// Removes every derivative of an asset (thumbnails, previews, poster frames: made again
    /// on demand).
    package func removeDerivatives(assetUUID: String) {
        removeFiles(of: assetUUID, in: derivativesFolder(assetUUID: assetUUID))
    }

    /// Removes an asset's local copies of remote originals.
    package func removeRemoteCopies(assetUUID: String) {
        removeFiles(of: assetUUID, in: root.appendingPathComponent("cache/remote/\(assetUUID.prefix(1))", isDirectory: true))
    }

    /// The files named `<UUID>_…` in a shard folder.
    private func removeFiles(of assetUUID: String, in folder: URL) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(assetUUID + "_") {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        }
    }

    /// The absolute URL of a resource path: relative to the library root, absolute for an
    /// original referenced where it is (see ``isReferenced(path:)``), or an `http(s)` URL for
    /// one in a remote store (see ``isRemote(path:)``).
    package func url(forRelativePath path: String) -> URL {
        if Self.isReferenced(path: path) { return URL(fileURLWithPath: path, isDirectory: false) }
        if Self.isRemote(path: path), let url = URL(string: path) { return url }
        return root.appendingPathComponent(path, isDirectory: false)
    }

    /// Whether a resource path is a URL in a remote store (`http://`, `https://`, an S3
    /// bucket's `s3://`): read through a local copy under `cache/remote/`, fetched only when a
    /// request allows network access.
    package static func isRemote(path: String) -> Bool {
        path.hasPrefix("http://") || path.hasPrefix("https://") || path.hasPrefix("s3://")
    }

    /// Local copies of remote originals: `cache/remote/<A>/<UUID>_<type>.<ext>`.
    package func remoteCopy(assetUUID: String, resourceType: Int, fileExtension: String) -> URL {
        root.appendingPathComponent("cache/remote/\(assetUUID.prefix(1))/\(assetUUID)_\(resourceType).\(fileExtension)")
    }

    /// The local copy of the remote file at `url`: its extension kept (`bin` without one).
    package func remoteCopy(of url: URL, assetUUID: String, resourceType: Int) -> URL {
        remoteCopy(assetUUID: assetUUID, resourceType: resourceType, fileExtension: url.pathExtension.isEmpty ? "bin" : url.pathExtension.lowercased())
    }

    /// Whether a resource path names a file outside the library (absolute), which the library
    /// reads but never moves, changes or deletes.
    package static func isReferenced(path: String) -> Bool {
        path.hasPrefix("/")
    }
}
