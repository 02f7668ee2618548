import ArgumentParser
import Foundation
import Photos

/// `photos check`: is the library whole?
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check the library's database and files.",
        discussion: """
            Runs SQLite's integrity and foreign-key checks and compares every asset's files with \
            the database: present, of the recorded size and, with --contents, of the recorded \
            SHA-256 (reads every original), and looks for files that belong to nothing in every \
            folder the library owns, and lists the assets whose thumbnail or poster frame failed \
            to render (recorded when an image request, `photos cache warm` or an import with \
            --thumbnails could not decode them: a gallery marks them "can't display"). \
            Lists what is wrong and exits with 1; changes nothing unless \
            --repair is given: then stray edits, derivatives, local copies and staging are removed, \
            and stray originals are moved to recovered/<date>/ and listed (never deleted). In a \
            library whose originals are in a bucket, the bucket is listed too: an asset whose \
            object is gone is named, and objects no asset refers to (an upload whose change \
            failed or was killed) are removed by --repair once older than --orphan-grace.
            """)

    @OptionGroup var options: LibraryOptions

    @Flag(help: "Also compare every file's bytes with the hash recorded at import.")
    var contents = false

    @Flag(help: "Print JSON instead of text.")
    var json = false

    @Flag(help: "Remove files that belong to nothing (stray originals are moved to recovered/, not deleted), then check.")
    var repair = false

    @Option(help: ArgumentHelp(
        "With --repair: keep objects that belong to nothing for this long after they were stored (a change still uploading commits only after its last object).",
        valueName: "SECONDS"))
    var orphanGrace: Double = 86_400

    func run() throws {
        let library = try options.open(forReading: !repair)
        if repair {
            let done: PHPhotoLibrary.OrphanRepairReport
            do {
                done = try library.repairOrphanFiles()
            } catch {
                throw CLIError("repairing the library failed: \(error.localizedDescription)")
            }
            for path in done.removed { FileHandle.standardError.write(Data("removed \(path)\n".utf8)) }
            for moved in done.recovered { FileHandle.standardError.write(Data("moved \(moved.from) to \(moved.to)\n".utf8)) }
            let objects: (removed: [URL], kept: [URL])
            do {
                objects = try library.repairOrphanObjects(grace: orphanGrace)
            } catch {
                throw CLIError("removing objects that belong to nothing failed: \(error.localizedDescription)")
            }
            for url in objects.removed { FileHandle.standardError.write(Data("removed \(url.absoluteString)\n".utf8)) }
            for url in objects.kept {
                FileHandle.standardError.write(Data("kept \(url.absoluteString) (younger than --orphan-grace; it may belong to a change still uploading)\n".utf8))
            }
            if !json {
                if !objects.removed.isEmpty || !objects.kept.isEmpty {
                    print("Repaired: removed \(objects.removed.count) object\(objects.removed.count == 1 ? "" : "s") that belonged to nothing, kept \(objects.kept.count) younger than \(Int(orphanGrace)) s.")
                }
                print("Repaired: removed \(done.removed.count) stray file\(done.removed.count == 1 ? "" : "s"), moved \(done.recovered.count) stray original\(done.recovered.count == 1 ? "" : "s") to recovered/.")
            }
        }
        let report: PHLibraryCheckReport
        do {
            report = try library.checkConsistency(verifyingContents: contents)
        } catch {
            throw CLIError("checking the library failed: \(error.localizedDescription)")
        }
        if json {
            struct Output: Encodable {
                var consistent: Bool
                var assets: Int
                var files: Int
                var bytesVerified: Int64
                var problems: [[String: String]]
            }
            print(try AssetFormatting.json(Output(
                consistent: report.isConsistent, assets: report.assetCount, files: report.fileCount,
                bytesVerified: report.bytesVerified,
                problems: report.problems.map { ["kind": $0.kind.rawValue, "detail": $0.detail] })))
        } else {
            let what = "\(report.assetCount) assets, \(report.fileCount) files\(contents ? " (contents compared)" : "")"
            if report.isConsistent {
                print("The library is consistent: \(what), database integrity ok.")
            } else {
                print("\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s") in \(what):")
                for problem in report.problems { print("  \(problem)") }
            }
        }
        if !report.isConsistent { throw ExitCode(1) }
    }
}
