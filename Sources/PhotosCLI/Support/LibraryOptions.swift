import ArgumentParser
import Foundation
import Photos

/// `--library PATH`, shared by every subcommand.
struct LibraryOptions: ParsableArguments {
    @Option(name: [.short, .long], help: "The library folder (default: $PHOTOS_LIBRARY, else the per-user library).")
    var library: String?

    @Flag(help: "Open the library read-only: nothing in its folder is written (a read-only mount, a backup drive, a full disk); changes fail.")
    var readOnly = false

    /// The library folder named (not opened).
    var url: URL {
        library.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath, isDirectory: true) }
            ?? PHPhotoLibrary.defaultLibraryURL
    }

    /// Opens the library, turning failures into a message and exit code 1.
    ///
    /// A command that only reads passes `forReading`: when the library can't be opened for
    /// writing (a read-only file system, a folder this user can't write, a full disk), it is
    /// opened read-only instead, since reading must not need to write.
    /// `databaseMemoryMap`: see ``PHPhotoLibrary/Configuration/databaseMemoryMap`` (the
    /// default when nil).
    func open(forReading: Bool = false, databaseMemoryMap: Int? = nil) throws -> PHPhotoLibrary {
        let url = self.url
        do {
            var configuration = PHPhotoLibrary.Configuration()
            configuration.readOnly = readOnly
            if let databaseMemoryMap { configuration.databaseMemoryMap = databaseMemoryMap }
            return try PHPhotoLibrary(url: url, configuration: configuration)
        } catch let error as PHPhotosError where forReading && !readOnly && error.code != .internalError {
            guard !FileManager.default.isWritableFile(atPath: url.appendingPathComponent("database").path) || Self.isFull(url),
                let library = try? PHPhotoLibrary(url: url, readOnly: true)
            else {
                throw CLIError("can't open the library at \(url.path): \(error.localizedDescription)")
            }
            return library
        } catch {
            throw CLIError("can't open the library at \(url.path): \(error.localizedDescription)")
        }
    }

    /// Whether the file system holding `url` has no space left.
    private static func isFull(_ url: URL) -> Bool {
        let free = (try? FileManager.default.attributesOfFileSystem(forPath: url.path)[.systemFreeSize] as? NSNumber)?.int64Value
        return free.map { $0 < 1 << 20 } ?? false
    }
}

/// A failure reported as one line on standard error with exit code 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Runs a change block, turning a `PHPhotosError` into a CLI error.
func commit(_ library: PHPhotoLibrary, _ what: String, _ block: () -> Void) throws {
    do {
        try library.performChangesAndWait(block)
    } catch {
        throw CLIError("\(what) failed: \(error.localizedDescription)")
    }
}
