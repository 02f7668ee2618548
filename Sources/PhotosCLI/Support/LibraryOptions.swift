import ArgumentParser
import Foundation
import Photos
import PhotosPostgres
import PhotosS3

/// `--library PATH` and `--database postgres://...`, shared by every subcommand.
struct LibraryOptions: ParsableArguments {
    @Option(name: [.short, .long], help: "The library folder (default: $PHOTOS_LIBRARY, else the per-user library). With --database, the folder of its files.")
    var library: String?

    @Option(help: ArgumentHelp(
        "A PostgreSQL database holding the library's rows (default: $PHOTOS_DATABASE); --library is then the folder of its files, shared by every instance.",
        valueName: "postgres://USER@HOST[:PORT]/DATABASE"))
    var database: String?

    @Option(help: ArgumentHelp(
        "Where a new library keeps its originals (default: $PHOTOS_ORIGINALS): an S3 bucket and prefix, reached with the AWS_* variables and ~/.aws as AWS's tools are. Recorded in the library; later commands find it.",
        valueName: "s3://BUCKET/PREFIX"))
    var originals: String?

    @Option(help: ArgumentHelp(
        "The most bytes of local copies of originals kept in a bucket on this machine (default: $PHOTOS_ORIGINALS_CACHE, else 16G); past it the least recently used go.",
        valueName: "SIZE"))
    var originalsCache: String?

    @Flag(help: "Open the library read-only: nothing in its folder is written (a read-only mount, a backup drive, a full disk); changes fail.")
    var readOnly = false

    @Option(
        name: .customLong("as"),
        help: ArgumentHelp(
            "In a library with people: act as this person (name or pe_...): see only their photos and albums; what is added is theirs.",
            valueName: "PERSON"))
    var person: String?

    /// The library folder named (not opened).
    var url: URL {
        library.map { URL(fileURLWithPath: ($0 as NSString).expandingTildeInPath, isDirectory: true) }
            ?? PHPhotoLibrary.defaultLibraryURL
    }

    /// The PostgreSQL database named by `--database` or `$PHOTOS_DATABASE`, if any.
    var databaseURL: URL? {
        get throws {
            guard let text = database ?? ProcessInfo.processInfo.environment["PHOTOS_DATABASE"].flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
            guard let url = Self.postgresURL(text) else {
                throw ValidationError("--database takes a postgres://USER@HOST[:PORT]/DATABASE URL, not \(ProcessListSecrets.masked(text))")
            }
            return url
        }
    }

    /// `text` as a `postgres://` (or `postgresql://`) URL; nil when it is another thing (a path).
    static func postgresURL(_ text: String) -> URL? {
        guard let url = URL(string: text), url.scheme == "postgres" || url.scheme == "postgresql" else { return nil }
        return url
    }

    /// The bucket named by `--originals` or `$PHOTOS_ORIGINALS`, if any.
    var originalsURL: URL? {
        get throws {
            guard let text = originals ?? ProcessInfo.processInfo.environment["PHOTOS_ORIGINALS"].flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
            guard let url = URL(string: text), url.scheme == "s3", url.host?.isEmpty == false else {
                throw ValidationError("--originals takes an s3://BUCKET/PREFIX location, not \(text)")
            }
            return url
        }
    }

    /// The byte budget named by `--originals-cache` or `$PHOTOS_ORIGINALS_CACHE`, if any.
    var originalsCacheLimit: Int64? {
        get throws {
            guard let text = originalsCache ?? ProcessInfo.processInfo.environment["PHOTOS_ORIGINALS_CACHE"].flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
            guard let bytes = CacheTrimCommand.parse(text) else { throw ValidationError("--originals-cache takes a size like 500M or 20G, not \(text)") }
            return bytes
        }
    }

    /// What the library is, for messages: its folder, or its database and files folder.
    var name: String {
        get throws {
            guard let database = try databaseURL else { return url.path }
            return "\(database.redactingPassword) (files in \(url.path))"
        }
    }

    /// Fails for commands that work on the SQLite file itself.
    func requireSQLite(_ command: String) throws {
        if try databaseURL != nil {
            throw CLIError("photos \(command) works on a library's SQLite file; for a library on PostgreSQL use pg_dump / pg_restore and `photos migrate`")
        }
    }

    /// Opens the library, turning failures into a message and exit code 1.
    ///
    /// A command that only reads passes `forReading`: when the library can't be opened for
    /// writing (a read-only file system, a folder this user can't write, a full disk), it is
    /// opened read-only instead, since reading must not need to write.
    /// `databaseMemoryMap`: see ``PHPhotoLibrary/Configuration/databaseMemoryMap`` (the
    /// default when nil).
    /// `configure` adjusts the library's configuration (the server's logging hooks).
    func open(
        forReading: Bool = false, databaseMemoryMap: Int? = nil, configure: (inout PHPhotoLibrary.Configuration) -> Void = { _ in }
    ) throws -> PHPhotoLibrary {
        let whole = try openWhole(forReading: forReading, databaseMemoryMap: databaseMemoryMap, configure: configure)
        guard let person else { return whole }
        do {
            return try whole.library(forPerson: person)
        } catch {
            throw CLIError("--as \(person): \(error.localizedDescription)")
        }
    }

    /// The library, as no person in particular.
    private func openWhole(
        forReading: Bool, databaseMemoryMap: Int?, configure: (inout PHPhotoLibrary.Configuration) -> Void
    ) throws -> PHPhotoLibrary {
        let url = self.url
        // Libraries that recorded a bucket open from every command.
        PHPhotoLibrary.enableS3Originals()
        let originals = try originalsURL
        let cacheLimit = try originalsCacheLimit
        if let database = try databaseURL {
            guard !readOnly else { throw CLIError("--read-only is for a library folder; a library on PostgreSQL is read-only through its database role") }
            do {
                var configuration = PHPhotoLibrary.Configuration()
                configuration.originals = originals
                if let cacheLimit { configuration.originalsCacheLimit = cacheLimit }
                configure(&configuration)
                return try PHPhotoLibrary(database: database, files: url, configuration: configuration)
            } catch {
                throw CLIError("can't open the library at \(database.redactingPassword) with files in \(url.path): \(error.localizedDescription)")
            }
        }
        do {
            var configuration = PHPhotoLibrary.Configuration()
            configuration.readOnly = readOnly
            configuration.originals = originals
            if let cacheLimit { configuration.originalsCacheLimit = cacheLimit }
            if let databaseMemoryMap { configuration.databaseMemoryMap = databaseMemoryMap }
            configure(&configuration)
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
