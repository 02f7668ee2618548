import ArgumentParser
import Foundation
import Photos

/// `photos import PATH...`: adds photos and videos from files and folders.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import photos and videos from files and folders (folders are searched recursively).",
        discussion: """
            Files are copied into the library in batches; a file that can't be read (unsupported, \
            truncated, damaged) is listed and skipped, and the rest are imported. Exits with 1 \
            if any file was skipped.
            """)

    @OptionGroup var options: LibraryOptions

    @Argument(help: "Files or folders to import.", completion: .file())
    var paths: [String]

    @Option(help: "Add the imported assets to this album (created if missing).")
    var album: String?

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    /// Photos and videos committed per change block.
    static let batchSize = 32

    func run() throws {
        let library = try options.open()
        let files = try MediaFileFinder.files(in: paths)
        guard !files.isEmpty else { throw CLIError("no photos or videos found in \(paths.joined(separator: ", "))") }
        let progress = Progress(total: files.count, quiet: quiet)
        var report = ImportReport()

        let albumID = try album.map { name in try library.withCurrent { try albumIdentifier(named: name, in: library) } }
        for start in stride(from: 0, to: files.count, by: Self.batchSize) {
            let batch = Array(files[start..<min(start + Self.batchSize, files.count)])
            report.merge(importBatch(batch, into: library, albumID: albumID))
            progress.update(done: start + batch.count, failed: report.failures.count)
        }
        progress.finish()
        print(report.summary(library: library.url))
        if !report.failures.isEmpty { throw ExitCode(1) }
    }

    /// Commits a batch in one change; if that fails, each file alone, to find the bad ones.
    private func importBatch(_ batch: [URL], into library: PHPhotoLibrary, albumID: String?) -> ImportReport {
        var report = ImportReport()
        do {
            try library.performChangesAndWait { addRequests(for: batch, albumID: albumID) }
            for file in batch { report.imported(file) }
            return report
        } catch where batch.count > 1 {
            for file in batch { report.merge(importBatch([file], into: library, albumID: albumID)) }
        } catch {
            report.failed(batch[0], error.localizedDescription)
        }
        return report
    }

    private func addRequests(for files: [URL], albumID: String?) {
        var placeholders: [PHObjectPlaceholder] = []
        for file in files {
            let request = PHAssetCreationRequest.forAsset()
            let options = PHAssetResourceCreationOptions()
            options.originalFilename = file.lastPathComponent
            request.addResource(with: MediaFileFinder.isVideo(file) ? .video : .photo, fileURL: file, options: options)
            if let placeholder = request.placeholderForCreatedAsset { placeholders.append(placeholder) }
        }
        if let albumID, let collection = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [albumID], options: nil).firstObject {
            PHAssetCollectionChangeRequest(for: collection)?.addAssets(placeholders)
        }
    }

    private func albumIdentifier(named name: String, in library: PHPhotoLibrary) throws -> String {
        if let existing = try? ObjectLookup.album(name) { return existing.localIdentifier }
        var identifier = ""
        try commit(library, "creating album '\(name)'") {
            identifier = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: name)
                .placeholderForCreatedAssetCollection.localIdentifier
        }
        return identifier
    }
}

/// What an import did.
struct ImportReport {
    var photos = 0
    var videos = 0
    var failures: [(file: URL, reason: String)] = []

    mutating func imported(_ file: URL) {
        if MediaFileFinder.isVideo(file) { videos += 1 } else { photos += 1 }
    }

    mutating func failed(_ file: URL, _ reason: String) {
        failures.append((file, reason))
    }

    mutating func merge(_ other: ImportReport) {
        photos += other.photos
        videos += other.videos
        failures += other.failures
    }

    func summary(library: URL) -> String {
        var lines = ["Imported \(photos) photo\(photos == 1 ? "" : "s") and \(videos) video\(videos == 1 ? "" : "s") into \(library.path)."]
        if !failures.isEmpty {
            lines.append("Skipped \(failures.count) file\(failures.count == 1 ? "" : "s"):")
            for failure in failures { lines.append("  \(failure.file.path): \(failure.reason)") }
        }
        return lines.joined(separator: "\n")
    }
}

/// A one-line progress counter on standard error, shown only on a terminal.
final class Progress {
    let total: Int
    let enabled: Bool

    init(total: Int, quiet: Bool) {
        self.total = total
        enabled = !quiet && isatty(STDERR_FILENO) == 1
    }

    func update(done: Int, failed: Int) {
        guard enabled else { return }
        let failures = failed > 0 ? ", \(failed) skipped" : ""
        FileHandle.standardError.write(Data("\rImporting \(done)/\(total)\(failures)\u{1B}[K".utf8))
    }

    func finish() {
        if enabled { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
