import ArgumentParser
import Foundation
import Photos
import PhotosLocking

/// `photos import PATH...`: adds photos and videos from files and folders.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import photos and videos from files and folders (folders are searched recursively).",
        discussion: """
            Files are read on every core and committed in batches. Same-named files in a folder \
            become one asset: a photo and a short movie a Live Photo, a JPEG or HEIC and a RAW a \
            photo with its RAW. A file whose bytes the library already holds is not imported \
            again (--allow-duplicates to override). Files that can't be imported (unsupported, \
            truncated, damaged, unreadable) are listed with the reason and the rest go on; the \
            exit status is then 1. Ctrl-C stops after committing what was read; importing the \
            same files again resumes, skipping those already in the library. With --in-place the \
            files stay where they are and the library refers to them (only their headers and \
            128 KiB each are read); deleting such an asset never deletes the file.
            """)

    @OptionGroup var options: LibraryOptions

    @Argument(help: "Files or folders to import.", completion: .file())
    var paths: [String]

    @Option(help: "Add the imported assets to this album (created if missing).")
    var album: String?

    @Flag(help: "Import files even when the library already holds the same bytes.")
    var allowDuplicates = false

    @Flag(help: "Leave the files where they are and refer to them instead of copying them into the library.")
    var inPlace = false

    @Flag(help: "Also make each photo's grid thumbnail (256 × 256), as a gallery shows them; a photo whose pixels don't decode is refused.")
    var thumbnails = false

    @Option(help: "Files read at once (default: the number of cores; 4 per core with --in-place, whose small reads wait on the disk).")
    var jobs: Int?

    @Flag(help: "Print a JSON summary on standard output instead of text.")
    var json = false

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    /// Bytes of the database an import maps into memory.
    static let databaseMemoryMap = 16 << 20

    /// Duplicates listed in the text summary; the JSON lists all.
    static let listedDuplicates = 10

    func run() throws {
        let urls = try paths.map { path in
            let url = RawArguments.url(forPath: path)
            guard FileManager.default.fileExists(atPath: url.path) else { throw CLIError("\(path): no such file or folder") }
            return url
        }
        // Point lookups and appends: a small map keeps a million-file import's resident set to
        // its heap (mapped, the database's pages it touched counted there: ~1 GB at 1M photos).
        let library = try options.open(databaseMemoryMap: Self.databaseMemoryMap)
        var importOptions = PHAssetImporter.Options()
        importOptions.allowsDuplicates = allowDuplicates
        importOptions.makesThumbnails = thumbnails
        importOptions.referencesFiles = inPlace
        if let jobs {
            guard (1...256).contains(jobs) else { throw CLIError("--jobs must be between 1 and 256, not \(jobs)") }
            importOptions.maximumConcurrentFiles = jobs
        } else if inPlace {
            // 60,000 small files, 2 cores: 8 at once against 2, 51.7 s against 58.2 cold, 45.3
            // against 47.7 s warm (docs/performance.md, import at scale).
            importOptions.maximumConcurrentFiles = 4 * ProcessInfo.processInfo.activeProcessorCount
        }
        importOptions.albumLocalIdentifier = try album.map { name in
            try library.withCurrent { try albumIdentifier(named: name, in: library) }
        }
        let importer = PHAssetImporter(library: library, options: importOptions)
        let display = ImportProgressDisplay(mode: quiet || json ? .silent : .automatic)
        let interruption = Interruption { importer.cancel() }
        let report = importer.importFiles(at: urls) { display.update($0) }
        display.finish()
        withExtendedLifetime(interruption) {}

        if report.items.isEmpty && report.notReached.isEmpty {
            throw CLIError("no photos or videos found in \(paths.joined(separator: ", "))")
        }
        if json {
            print(try AssetFormatting.json(ImportSummary.JSON(report)))
        } else if !quiet {
            print(ImportSummary.text(report, library: library.url, listedDuplicates: Self.listedDuplicates))
        } else if !report.failures.isEmpty {
            FileHandle.standardError.write(Data(ImportSummary.failures(report).utf8))
        }
        if report.wasCancelled { throw ExitCode(130) }
        if !report.failures.isEmpty { throw ExitCode(1) }
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

/// The first Ctrl-C (or SIGTERM) asks the import to stop after committing what it read; a
/// second one ends the process at once.
final class Interruption {
    private let sources: [any DispatchSourceSignal]

    init(_ handler: @escaping @Sendable () -> Void) {
        let queue = DispatchQueue(label: "photos.import.signals")
        let count = SignalCount()
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                if count.value.add(1, ordering: .relaxed).newValue > 1 { exit(130) }
                FileHandle.standardError.write(Data("\nStopping after the files being read… (again to quit now)\n".utf8))
                handler()
            }
            source.resume()
            return source
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }

    private final class SignalCount: Sendable {
        let value = Atomic(0)
    }
}
