import ArgumentParser
import Foundation
import Photos

/// `photos storage move --to s3://BUCKET/PREFIX | FOLDER`: where the library keeps its originals.
struct StorageCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storage", abstract: "Move the library's originals into an S3 bucket or back into its folder.",
        subcommands: [StorageMoveCommand.self])
}

struct StorageMoveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "move",
        abstract: "Move the library's originals, edits and adjustment data into a bucket, or back into its folder.",
        discussion: """
            Toward a bucket (--to s3://BUCKET/PREFIX): the bucket is recorded in the library first, \
            so new originals go there at once; each file is stored with its SHA-256 checked by the \
            store before its row names the object, and the file stays as its local copy (within \
            --originals-cache). Back (--to the library's folder): each object is fetched, checked \
            against the SHA-256 recorded at import, renamed into the folder, and removed from the \
            bucket. The library stays usable meanwhile; a move stopped at any point (a kill, the \
            network) resumes when run again.
            """)

    @OptionGroup var options: LibraryOptions

    @Option(help: ArgumentHelp("Where the originals go: an S3 bucket and prefix, or the library's folder.", valueName: "s3://BUCKET/PREFIX | FOLDER"))
    var to: String

    func run() throws {
        let library = try options.open()
        let destination: URL?
        if to.hasPrefix("s3://") {
            guard let url = URL(string: to), url.host?.isEmpty == false else { throw ValidationError("--to \(to): give s3://BUCKET/PREFIX") }
            destination = url
        } else {
            let folder = URL(fileURLWithPath: (to as NSString).expandingTildeInPath).standardizedFileURL.resolvingSymlinksInPath()
            guard folder.path == options.url.standardizedFileURL.resolvingSymlinksInPath().path else {
                throw CLIError("--to \(to): originals move back into the library's own folder, \(options.url.path)")
            }
            destination = nil
        }
        let interactive = isatty(STDERR_FILENO) == 1
        let report: PHPhotoLibrary.StorageMoveReport
        do {
            report = try library.moveOriginals(to: destination) { report in
                guard interactive else { return }
                FileHandle.standardError.write(Data("\r  \(report.moved) files, \(CacheTrimCommand.format(report.bytes))".utf8))
            }
        } catch {
            if interactive { FileHandle.standardError.write(Data("\n".utf8)) }
            throw CLIError("moving the originals failed (run the same command again to resume): \(error.localizedDescription)")
        }
        if interactive { FileHandle.standardError.write(Data("\r".utf8)) }
        for skipped in report.skipped { FileHandle.standardError.write(Data("skipped \(skipped)\n".utf8)) }
        print("Moved \(report.moved) file\(report.moved == 1 ? "" : "s") (\(CacheTrimCommand.format(report.bytes))) to \(destination?.absoluteString ?? "the library's folder").")
        if !report.skipped.isEmpty { throw ExitCode(1) }
    }
}
