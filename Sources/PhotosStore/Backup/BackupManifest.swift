package import Foundation

/// One generation of a backup folder: the database snapshot it holds and every file that
/// snapshot names, by SHA-256.
///
/// A backup folder:
///
/// ```
/// <backup>/
///   photokit-backup            marks the folder (format version); refuses other folders
///   generations/<stamp>.sqlite a consistent snapshot of the database (VACUUM INTO)
///   generations/<stamp>.json   this manifest, written last: a generation without one is unfinished
///   objects/<ab>/<sha256>      every original, render and adjustment file, once per content
///   tmp/                       copies in progress (temp file, then rename)
/// ```
///
/// Files are stored once per content (`objects/`), so a re-run copies only files it has not
/// seen (it recognises unchanged ones by path, size and modification time without reading
/// them), and generations share their files.
package struct BackupManifest: Codable, Sendable {
    /// One file the snapshot names.
    package struct File: Codable, Sendable, Hashable {
        /// Relative to the library root, or absolute for an original referenced in place.
        package var path: String
        package var sha256: String
        package var size: Int64
        /// The library file's modification time when it was copied (seconds since 1970).
        package var modified: Double

        package init(path: String, sha256: String, size: Int64, modified: Double) {
            self.path = path
            self.sha256 = sha256
            self.size = size
            self.modified = modified
        }

        /// Whether this is an original referenced in place (outside the library).
        package var isReferenced: Bool { LibraryLayout.isReferenced(path: path) }
    }

    /// The backup format; a newer one is refused.
    package static let currentFormat = 1

    package var format = BackupManifest.currentFormat
    /// When the snapshot was taken (ISO 8601).
    package var createdAt: String
    /// The generation's name (`<stamp>`), also the name of its files.
    package var generation: String
    package var libraryIdentifier: String
    /// Where the library was (for the record; restore goes wherever it is told).
    package var libraryPath: String
    /// The database snapshot: `generations/<stamp>.sqlite`.
    package var databaseSHA256: String
    package var databaseSize: Int64
    package var assetCount: Int
    package var files: [File]
    /// Originals in a remote store (`http(s)` URLs): not copied; the store keeps them.
    package var remoteOriginals: [String]
    /// Files the snapshot names that were missing from the library itself (not a file deleted
    /// while the backup ran): the library was damaged before the backup.
    package var missingFiles: [String]

    package init(
        createdAt: String, generation: String, libraryIdentifier: String, libraryPath: String, databaseSHA256: String,
        databaseSize: Int64, assetCount: Int, files: [File], remoteOriginals: [String], missingFiles: [String]
    ) {
        self.createdAt = createdAt
        self.generation = generation
        self.libraryIdentifier = libraryIdentifier
        self.libraryPath = libraryPath
        self.databaseSHA256 = databaseSHA256
        self.databaseSize = databaseSize
        self.assetCount = assetCount
        self.files = files
        self.remoteOriginals = remoteOriginals
        self.missingFiles = missingFiles
    }
}

/// The folders of a backup.
package struct BackupLayout: Sendable {
    package let root: URL

    package init(root: URL) {
        self.root = root.standardizedFileURL
    }

    package var marker: URL { root.appendingPathComponent("photokit-backup") }
    package var generations: URL { root.appendingPathComponent("generations", isDirectory: true) }
    package var objects: URL { root.appendingPathComponent("objects", isDirectory: true) }
    package var temporary: URL { root.appendingPathComponent("tmp", isDirectory: true) }
    package var lockFile: URL { root.appendingPathComponent(".lock") }

    package func object(_ sha256: String) -> URL {
        objects.appendingPathComponent(String(sha256.prefix(2)), isDirectory: true).appendingPathComponent(sha256)
    }

    package func manifestFile(_ generation: String) -> URL { generations.appendingPathComponent("\(generation).json") }
    package func databaseFile(_ generation: String) -> URL { generations.appendingPathComponent("\(generation).sqlite") }

    /// The finished generations (those with a manifest), oldest first.
    package func generationNames() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: generations.path)) ?? []
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// Reads a generation's manifest.
    package func manifest(_ generation: String) throws(StoreError) -> BackupManifest {
        let url = manifestFile(generation)
        let manifest: BackupManifest
        do {
            manifest = try JSONDecoder().decode(BackupManifest.self, from: Data(contentsOf: url))
        } catch {
            throw StoreError(.fileOperation, "Can't read the backup manifest \(url.path): \(error.localizedDescription)")
        }
        guard manifest.format <= BackupManifest.currentFormat else {
            throw StoreError(
                .newerSchema,
                "The backup generation \(generation) was written in format \(manifest.format) by a newer version of PhotoKit for Linux; upgrade to read it")
        }
        return manifest
    }

    /// Whether the folder is a backup (has its marker).
    package var isBackup: Bool { FileManager.default.fileExists(atPath: marker.path) }

    /// A sortable, unique-per-millisecond generation name in UTC: `20260102T030405.678Z`.
    package static func generationName(for date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss.SSS'Z'"
        return formatter.string(from: date)
    }
}
