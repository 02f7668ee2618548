import ArgumentParser
import Foundation
import Photos
import PhotosPostgres
import PhotosStore

/// `photos migrate --from SOURCE --to DESTINATION`: a library copied between SQLite and
/// PostgreSQL (or to another folder or database of the same engine).
struct MigrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Copy a library between SQLite and PostgreSQL, with its history, and check the copy.",
        discussion: """
            SOURCE and DESTINATION are each a library folder (SQLite) or a postgres:// URL, whose \
            files folder --from-files / --to-files names. The destination must be new: an empty \
            folder, or a database with no library or an empty one, and an empty files folder. \
            Every row is copied with its id in one transaction, with the history position, so \
            change tokens taken on the source work on the copy; files are hard-linked when both \
            folders are on one file system, else copied. Then each table is read back and hashed \
            against the source, and each original is checked by size and SHA-256. The source is \
            left as it was; stop writers to it first (changes made during the copy are not in it).
            """)

    @Option(help: "The library to copy: a folder, or a postgres:// URL.") var from: String
    @Option(help: "The files folder of a --from postgres:// library.") var fromFiles: String?
    @Option(help: "Where to copy it: a new or empty folder, or a postgres:// URL.") var to: String
    @Option(help: "The files folder of a --to postgres:// library (new or empty).") var toFiles: String?
    @Flag(help: "Print JSON instead of text.") var json = false

    func validate() throws {
        if Self.isDatabase(from), fromFiles == nil { throw ValidationError("--from \(from) is a database: name its files folder with --from-files") }
        if Self.isDatabase(to), toFiles == nil { throw ValidationError("--to \(to) is a database: name its files folder with --to-files") }
        if !Self.isDatabase(from), fromFiles != nil { throw ValidationError("--from-files is for a postgres:// --from") }
        if !Self.isDatabase(to), toFiles != nil { throw ValidationError("--to-files is for a postgres:// --to") }
    }

    func run() throws {
        // Opening a folder with no library would make an empty one there.
        if !Self.isDatabase(from), !FileManager.default.fileExists(atPath: Self.folder(from).appendingPathComponent("database/Photos.sqlite").path) {
            throw CLIError("\(Self.folder(from).path) holds no library (no database/Photos.sqlite)")
        }
        let source = try Self.open(from, files: fromFiles, role: "source")
        if !Self.isDatabase(to) {
            let folder = Self.folder(to)
            if let contents = try? FileManager.default.contentsOfDirectory(atPath: folder.path), !contents.isEmpty {
                throw CLIError("\(folder.path) is not empty; migrate into a new or empty folder")
            }
        } else if let toFiles, let contents = try? FileManager.default.contentsOfDirectory(atPath: Self.folder(toFiles).path), !contents.isEmpty {
            throw CLIError("\(Self.folder(toFiles).path) is not empty; name a new or empty files folder")
        }
        let destination = try Self.open(to, files: toFiles, role: "destination")
        let start = Date()
        let report: LibraryCopyReport
        do {
            report = try source.copyLibrary(to: destination)
        } catch {
            throw CLIError("migrating into \(Self.name(to, files: toFiles)) failed: \(error.localizedDescription)")
        }
        let seconds = Date().timeIntervalSince(start)
        let rows = report.rows.reduce(0) { $0 + $1.count }
        if json {
            struct Output: Encodable {
                var rows: [String: Int], linkedFiles: Int, copiedFiles: Int, bytes: Int64, hashedFiles: Int, position: Int64, seconds: Double
            }
            let output = Output(
                rows: Dictionary(uniqueKeysWithValues: report.rows.map { ($0.table, $0.count) }), linkedFiles: report.linkedFiles,
                copiedFiles: report.copiedFiles, bytes: report.bytes, hashedFiles: report.hashedFiles, position: report.position, seconds: seconds)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(output), as: UTF8.self))
            return
        }
        let assets = report.rows.first { $0.table == "asset" }?.count ?? 0
        print("Copied \(assets) assets (\(rows) rows, history at \(report.position)) into \(Self.name(to, files: toFiles)) in \(String(format: "%.1f", seconds)) s.")
        print("Files: \(report.linkedFiles) linked, \(report.copiedFiles) copied (\(CacheTrimCommand.format(report.bytes))); \(report.hashedFiles) originals checked by SHA-256.")
        for (table, count) in report.rows { print("  \(table): \(count) rows, hashes match") }
    }

    static func isDatabase(_ text: String) -> Bool {
        LibraryOptions.postgresURL(text) != nil
    }

    static func folder(_ path: String) -> URL {
        URL(fileURLWithPath: (path as NSString).expandingTildeInPath, isDirectory: true)
    }

    static func name(_ location: String, files: String?) -> String {
        guard let url = LibraryOptions.postgresURL(location) else { return folder(location).path }
        return "\(url.redactingPassword) (files in \(folder(files ?? "").path))"
    }

    static func open(_ location: String, files: String?, role: String) throws -> PHPhotoLibrary {
        do {
            if isDatabase(location) {
                guard let url = LibraryOptions.postgresURL(location), let files else { throw CLIError("\(location) is not a postgres:// URL") }
                return try PHPhotoLibrary(database: url, files: folder(files))
            }
            return try PHPhotoLibrary(url: folder(location))
        } catch let error as CLIError {
            throw error
        } catch {
            throw CLIError("can't open the \(role) \(name(location, files: files)): \(error.localizedDescription)")
        }
    }
}
