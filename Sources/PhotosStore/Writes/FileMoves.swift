package import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The renames of one commit: staged files into `originals/`, undone if the commit fails.
///
/// Before any rename, the destinations are written to `intent.json` in the process's staging
/// folder; if the process dies before the transaction commits, the next open of the library
/// removes each intended file that no row refers to.
final class FileMoves: @unchecked Sendable {
    // @unchecked Sendable: used by one commit on one thread; `done` is only touched there.
    private let layout: LibraryLayout
    private let staging: URL
    private var done: [(from: URL, to: URL)] = []

    init(layout: LibraryLayout, staging: URL) {
        self.layout = layout
        self.staging = staging
    }

    private var intentFile: URL { staging.appendingPathComponent("intent.json") }

    func recordIntent(_ relativePaths: [String]) throws {
        guard !relativePaths.isEmpty else { return }
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        let data = try JSONEncoder().encode(relativePaths)
        try data.write(to: intentFile, options: .atomic)
    }

    func clearIntent() {
        try? FileManager.default.removeItem(at: intentFile)
    }

    func move(_ source: URL, to relativePath: String) throws {
        let destination = layout.url(forRelativePath: relativePath)
        try FileManager.default.createDirectory(
            at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard rename(source.path, destination.path) == 0 else {
            throw StoreError(
                .fileOperation,
                "Can't move \(source.lastPathComponent) into the library at \(relativePath): \(String(cString: strerror(errno)))")
        }
        done.append((source, destination))
    }

    /// Puts every moved file back where it was staged.
    func revert() {
        for (source, destination) in done.reversed() {
            _ = rename(destination.path, source.path)
        }
        done.removeAll()
    }
}

extension LibraryDatabase {
    /// This process's staging folder inside the library's `tmp`: `<pid>-<random>`.
    package var stagingFolder: URL {
        layout.temporary.appendingPathComponent(Self.stagingName, isDirectory: true)
    }

    private static let stagingName = "\(getpid())-\(UUID().uuidString.prefix(8))"

    /// A new empty file URL in the staging folder, for copying a file in before a commit.
    package func makeStagingURL(fileExtension: String) throws(StoreError) -> URL {
        do {
            try FileManager.default.createDirectory(at: stagingFolder, withIntermediateDirectories: true)
        } catch {
            throw StoreError(.fileOperation, "Can't create the staging folder \(stagingFolder.path): \(error.localizedDescription)")
        }
        let name = UUID().uuidString + (fileExtension.isEmpty ? "" : ".\(fileExtension)")
        return stagingFolder.appendingPathComponent(name)
    }

    /// Removes staging folders of processes that are gone, and the files they were about to
    /// commit when no row refers to them (a crash between rename and commit).
    func removeStaleStagingFolders() {
        let fileManager = FileManager.default
        guard let entries = try? fileManager.contentsOfDirectory(atPath: layout.temporary.path) else { return }
        for entry in entries {
            guard let pid = Int32(entry.split(separator: "-").first ?? ""), pid != getpid() else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }  // still running
            let folder = layout.temporary.appendingPathComponent(entry)
            if let data = try? Data(contentsOf: folder.appendingPathComponent("intent.json")),
                let paths = try? JSONDecoder().decode([String].self, from: data)
            {
                let known = (try? read { db in
                    Set(try db.texts("SELECT path FROM resource WHERE path IN (\(StoreSQL.elements(paths)))"))
                }) ?? Set(paths)
                for path in paths where !known.contains(path) {
                    try? fileManager.removeItem(at: layout.url(forRelativePath: path))
                }
            }
            try? fileManager.removeItem(at: folder)
        }
    }
}
