import ArgumentParser
import Foundation
import Photos

/// `photos backup DEST`: a consistent, verified, incremental backup of the library.
struct BackupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Back the library up into a folder (incremental, verified, safe while the library is in use).",
        discussion: """
            Takes a consistent snapshot of the database (SQLite's VACUUM INTO, never a copy of the \
            live file) and copies every original, edit and adjustment file it names into DEST, \
            each checked by SHA-256. Safe while `photos serve` or an import writes. DEST is a new \
            or empty folder, or an earlier backup: each run adds a generation, copies only files \
            it has not seen (unchanged ones are recognised by path, size and time without being \
            read) and keeps the newest --keep generations. An interrupted run leaves the earlier \
            generations as they were. Originals referenced in place are copied in too; originals \
            in a remote store are not. Thumbnails are not backed up (made again on demand). \
            `photos restore DEST --to FOLDER` brings a backup back.
            """)

    @OptionGroup var options: LibraryOptions

    @Argument(help: "The backup folder (new, empty, or an earlier backup).")
    var destination: String

    @Option(help: "How many generations to keep.")
    var keep = 3

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() throws {
        try options.requireSQLite("backup")
        guard keep >= 1 else { throw ValidationError("--keep must be at least 1") }
        let library = try options.open(forReading: true)
        let url = URL(fileURLWithPath: (destination as NSString).expandingTildeInPath, isDirectory: true)
        let start = Date()
        let report: PHLibraryBackupReport
        do {
            report = try library.backup(to: url, keepingGenerations: keep)
        } catch {
            throw CLIError("backing up into \(url.path) failed: \(error.localizedDescription)")
        }
        let elapsed = Date().timeIntervalSince(start)
        for path in report.missingFiles { FileHandle.standardError.write(Data("warning: \(path) is missing from the library; not in the backup\n".utf8)) }
        for path in report.damagedFiles { FileHandle.standardError.write(Data("warning: \(path) has other bytes than imported; backed up as it is\n".utf8)) }
        if json {
            struct Output: Encodable {
                var generation: String, assets: Int, files: Int, copiedFiles: Int, copiedBytes: Int64, referencedFiles: Int
                var remoteOriginals: Int, missingFiles: [String], damagedFiles: [String], snapshots: Int, removedGenerations: [String], seconds: Double
            }
            print(try AssetFormatting.json(Output(
                generation: report.generation, assets: report.assetCount, files: report.fileCount, copiedFiles: report.copiedFileCount,
                copiedBytes: report.copiedBytes, referencedFiles: report.referencedFileCount, remoteOriginals: report.remoteOriginalCount,
                missingFiles: report.missingFiles, damagedFiles: report.damagedFiles, snapshots: report.snapshotCount,
                removedGenerations: report.removedGenerations, seconds: elapsed)))
            return
        }
        print("Backed up \(report.assetCount) assets (\(report.fileCount) files) into \(url.path) as generation \(report.generation) in \(String(format: "%.1f", elapsed)) s.")
        print("Copied \(report.copiedFileCount) new files (\(CacheTrimCommand.format(report.copiedBytes))); \(report.fileCount - report.copiedFileCount) were in the backup already.")
        if report.referencedFileCount > 0 { print("Includes \(report.referencedFileCount) originals referenced from outside the library.") }
        if report.remoteOriginalCount > 0 { print("Not copied: \(report.remoteOriginalCount) originals kept in a remote store.") }
        if report.snapshotCount > 1 { print("The library changed while it ran: took \(report.snapshotCount) snapshots.") }
        if !report.removedGenerations.isEmpty { print("Removed older generations: \(report.removedGenerations.joined(separator: ", ")).") }
    }
}
