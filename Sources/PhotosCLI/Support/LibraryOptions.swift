import ArgumentParser
import Foundation
import Photos

/// `--library PATH`, shared by every subcommand.
struct LibraryOptions: ParsableArguments {
    @Option(name: [.short, .long], help: "The library folder (default: $PHOTOS_LIBRARY, else the per-user library).")
    var library: String?

    /// The library folder named (not opened).
    var url: URL {
        library.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath, isDirectory: true) }
            ?? PHPhotoLibrary.defaultLibraryURL
    }

    /// Opens the library, turning failures into a message and exit code 1.
    func open() throws -> PHPhotoLibrary {
        let url = self.url
        do {
            return try PHPhotoLibrary(url: url)
        } catch {
            throw CLIError("can't open the library at \(url.path): \(error.localizedDescription)")
        }
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
