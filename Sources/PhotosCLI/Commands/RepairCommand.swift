import ArgumentParser
import Foundation
import Photos

/// `photos repair`: rebuild a lost database from the library's files.
struct RepairCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repair",
        abstract: "Rebuild a lost database from the library's files.",
        discussion: """
            When database/Photos.sqlite is lost or empty: a new database replaces it, every \
            original in originals/ becomes an asset again (its identifier kept: the file is named \
            by it; its metadata read as an import reads it) and each asset's newest edit in renders/ \
            is re-attached from its adjustment data. Albums, favorites, hidden states and later \
            changes of dates and places can't come back from files: when the library has database \
            snapshots, use `photos restore --snapshot latest` instead (repair refuses unless \
            --ignore-snapshots). What is left of the lost database is moved to database/lost-<time>/.
            With the database in place, brings back only files no row names, and lists rows whose \
            files are missing.
            """)

    @OptionGroup var options: LibraryOptions

    @Flag(help: "Rebuild from the files even though the library has database snapshots (albums are lost).")
    var ignoreSnapshots = false

    func run() throws {
        try options.requireSQLite("repair")
        let report: PHLibraryRepairReport
        do {
            report = try PHPhotoLibrary.repairLibrary(at: options.url, ignoringSnapshots: ignoreSnapshots)
        } catch {
            throw CLIError("repairing \(options.url.path) failed: \(error.localizedDescription)")
        }
        if report.rebuiltDatabase {
            print("Rebuilt the database of \(options.url.path) from its files.")
        } else {
            print("The database of \(options.url.path) is in place; brought back the files no row named.")
        }
        Self.printDetails(report)
    }

    /// What repair and a snapshot restore did, as lines.
    static func printDetails(_ report: PHLibraryRepairReport) {
        for path in report.movedAside { print("moved the lost database's \(path.split(separator: "/").last ?? "") to \(path)") }
        print("\(report.rebuiltAssets.count) assets made again from their originals, \(report.reattachedEdits.count) edits re-attached.")
        if !report.removedAssets.isEmpty { print("\(report.removedAssets.count) assets of the snapshot were deleted since (their originals are gone): removed.") }
        if !report.revertedEdits.isEmpty { print("\(report.revertedEdits.count) edits of the snapshot were replaced since (their files are gone).") }
        for path in report.assetsWithLostFiles { print("missing: \(path) (`photos check` lists the assets)") }
        for file in report.unusedFiles { print("not used: \(file.path): \(file.reason)") }
        if !report.notRecovered.isEmpty {
            print("Could not come back from the files:")
            for item in report.notRecovered { print("  - \(item)") }
        } else if report.snapshot != nil {
            print("\(report.albumCount) albums and folders are back from the snapshot.")
        }
    }
}
