import ArgumentParser
import Foundation
import Photos

/// `photos restore BACKUP --to FOLDER`, or `photos restore --snapshot latest` for a lost database.
struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Bring a backup back as a new library, or put back a database snapshot the library took.",
        discussion: """
            photos restore BACKUP --to FOLDER: restores a backup made by `photos backup` (its newest \
            generation, or --generation) into FOLDER, which must be new or empty; every file is \
            checked against its SHA-256 and `photos check --contents` passes on the result.

            photos restore --snapshot latest [--library L]: when the library's database is lost or \
            empty, puts back the newest database snapshot the library keeps of itself \
            (database/snapshots/), then brings it up to date with the files: originals added since \
            become assets again, edits made since are re-attached, assets deleted since are removed. \
            `photos restore --list-snapshots` lists them.
            """)

    @OptionGroup var options: LibraryOptions

    @Argument(help: "The backup folder to restore from.")
    var backup: String?

    @Option(help: "The new library folder (must be missing or empty).")
    var to: String?

    @Option(help: "The backup generation to restore (default: the newest).")
    var generation: String?

    @Flag(help: "Copy originals that were referenced in place into the new library even when they are still where they were.")
    var copyReferenced = false

    @Option(help: "Put back this database snapshot of the library (`latest`, or a name from --list-snapshots).")
    var snapshot: String?

    @Flag(help: "List the library's database snapshots.")
    var listSnapshots = false

    func validate() throws {
        if listSnapshots { return }
        if snapshot != nil {
            guard backup == nil, to == nil else { throw ValidationError("--snapshot restores the library's own database; it takes no backup folder or --to") }
        } else {
            guard backup != nil else { throw ValidationError("Name a backup folder (photos restore BACKUP --to FOLDER), or use --snapshot latest") }
            guard to != nil else { throw ValidationError("Say where the restored library goes with --to FOLDER (a new or empty folder)") }
        }
    }

    func run() throws {
        try options.requireSQLite("restore")
        if listSnapshots {
            let snapshots = PHPhotoLibrary.snapshots(inLibraryAt: options.url)
            if snapshots.isEmpty { print("The library at \(options.url.path) has no database snapshots.") }
            for item in snapshots {
                print("\(item.name)  \(ISO8601DateFormatter().string(from: item.date))  \(CacheTrimCommand.format(item.byteCount))")
            }
            return
        }
        if let snapshot {
            let report: PHLibraryRepairReport
            do {
                report = try PHPhotoLibrary.restoreSnapshot(snapshot == "latest" ? nil : snapshot, inLibraryAt: options.url)
            } catch {
                throw CLIError("restoring a snapshot of \(options.url.path) failed: \(error.localizedDescription)")
            }
            print("Put back the database snapshot \(report.snapshot ?? "?") in \(options.url.path).")
            RepairCommand.printDetails(report)
            return
        }
        let source = URL(fileURLWithPath: ((backup ?? "") as NSString).expandingTildeInPath, isDirectory: true)
        let target = URL(fileURLWithPath: ((to ?? "") as NSString).expandingTildeInPath, isDirectory: true)
        let report: PHLibraryRestoreReport
        do {
            report = try PHPhotoLibrary.restoreBackup(from: source, generation: generation, to: target, copyingReferencedFiles: copyReferenced)
        } catch {
            throw CLIError("restoring \(source.path) failed: \(error.localizedDescription)")
        }
        print("Restored generation \(report.generation) (\(report.assetCount) assets, \(report.fileCount) files, \(CacheTrimCommand.format(report.bytes))) into \(target.path).")
        if !report.referencedFilesKept.isEmpty { print("\(report.referencedFilesKept.count) originals referenced in place are still where they were: referenced again.") }
        for copied in report.referencedFilesCopied { print("copied referenced original \(copied.from) into the library as \(copied.to)") }
        if report.remoteOriginalCount > 0 { print("\(report.remoteOriginalCount) originals in a remote store are referenced as before.") }
        for path in report.missingFiles { FileHandle.standardError.write(Data("warning: \(path) was already missing when the backup was made\n".utf8)) }
    }
}
