import ArgumentParser
import Foundation
import Hummingbird
import Logging
import Photos
import PhotosServer

/// `photos serve`: the web gallery and HTTP API.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the library: a web gallery, a JSON API and live updates.",
        discussion: """
            Clients sign in with a token from 'photos token create' or, once the library has \
            people ('photos user add'), with a name and a password. Without tokens the server \
            answers 401, unless --open is given, which is allowed on a loopback address only and \
            never for a library with people. \
            With --read-only the library's folder is never written (a read-only mount, a backup \
            drive): uploads and changes answer 403, thumbnails not made yet are made in memory.
            """)

    @OptionGroup var options: LibraryOptions
    @OptionGroup var text: TextRecognitionOptions
    @Option(help: "The address to bind.") var host = "127.0.0.1"
    @Option(help: "The port (0 picks a free one).") var port = 8080
    @Flag(help: "Let anyone who can reach the server read and change the library, without a token (loopback only).")
    var open = false
    @Option(help: "The largest upload, in megabytes.") var uploadLimit = 1024
    @Option(
        help: """
            How much lower (Linux nice, 0-19) renders, encodes, edits and uploads' imports run than \
            the threads answering requests; 0 runs them alongside.
            """)
    var backgroundNiceness: Int32 = 10
    @Option(
        help: """
            Megabytes of the database file mapped into memory (SQLite's mmap_size); 0 reads its \
            pages with pread. Mapped pages count in the server's resident set, once per connection.
            """)
    var databaseMap = Self.defaultDatabaseMap
    @Option(
        help: """
            For originals in a bucket: answer /original and /video with a redirect to a presigned \
            URL valid this many seconds (1-604800) instead of streaming them through the server. \
            Browsers must reach the bucket's endpoint.
            """)
    var originalsRedirect: Int?

    /// See ``databaseMap``: none. A server holds its fetch results and pages for a long time,
    /// and each of its connections (pool readers, the writer, snapshots) maps the file anew,
    /// so with a map its resident set grows to several times the database (1,000,000 assets:
    /// +350 MB after one fetch, 421 MB after 600 s of gallery use), all of it page cache the
    /// kernel holds anyway. Read with `pread`, the first fetch of 1,000,000 takes as long
    /// (210 ms against 218–236 ms) and the server's mapped pages stay at 56 MB (issue 19).
    static let defaultDatabaseMap = 0

    func validate() throws {
        guard (0...19).contains(backgroundNiceness) else {
            throw ValidationError("--background-niceness must be 0 to 19, not \(backgroundNiceness)")
        }
        guard (0...(1 << 20)).contains(databaseMap) else {
            throw ValidationError("--database-map must be 0 to 1048576 (megabytes), not \(databaseMap)")
        }
    }

    func run() async throws {
        // Before any work starts: threads lowered once stay low.
        ServerRuntime.runHeavyWorkInBackground(niceness: backgroundNiceness)
        // A log line written after whoever read standard error has gone (`photos serve | head`,
        // a supervisor restarted) must not end the server: the write fails, the server goes on.
        signal(SIGPIPE, SIG_IGN)
        // Opening the library reads it (round trips on PostgreSQL): on a thread of its own, as
        // this task runs on one of the server's event loops (`ServerRuntime`).
        let (library, application) = try await Self.onOwnThread {
            let (library, configuration) = try prepare()
            // Videos' browser renditions are made in the background, woken by every change.
            library.videoRenditions.startBackgroundWork(wakingOnChangesTo: library)
            // Text in photos is read for search likewise, one photo at a time.
            library.textRecognition.startBackgroundWork(wakingOnChangesTo: library)
            // Uploads another instance received and did not finish (it died) are imported here.
            library.importBatches.startBackgroundWork()
            var owning = configuration
            owning.ownsLibrary = true
            return (library, try buildApplication(library: library, configuration: owning))
        }
        defer {
            library.videoRenditions.stopBackgroundWork()
            library.textRecognition.stopBackgroundWork()
            library.importBatches.stopBackgroundWork()
        }
        try await application.runService()
    }

    /// Runs `body` on a thread of its own (blocking reads off the event loops).
    private static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    /// The library to serve, as whom, and the server's configuration; checks what the options
    /// ask of the library.
    private func prepare() throws -> (PHPhotoLibrary, ServerConfiguration) {
        var library = try options.open(databaseMemoryMap: databaseMap << 20) { configuration in
            configuration.delegate = ServeLog()
            text.apply(to: &configuration)
        }
        // A library with people is served as its owner's: until each person's own library is
        // served, the others see nothing of it (and the owner nothing of theirs).
        if options.person == nil, let owner = try library.libraryPeople().first(where: \.isOwner) {
            library = try library.library(forPerson: owner.identifier)
        }
        var configuration = ServerConfiguration(
            host: host, port: port, allowsUnauthenticatedAccess: open, uploadLimit: uploadLimit << 20)
        configuration.originalsRedirectExpiry = originalsRedirect
        do {
            try configuration.validate()
        } catch {
            throw CLIError("\(error)")
        }
        let people = try library.libraryPeople()
        if open, !people.isEmpty {
            throw CLIError("--open: this library has people (\(people.count)); they sign in with their names and passwords")
        }
        if !open, people.isEmpty, try library.accessTokens().isEmpty {
            print("No access tokens yet: create one with 'photos token create --level read-write' to sign in.")
        }
        print("Serving \(try options.name)\(library.isReadOnly ? " read-only" : "") on http://\(host):\(port)/")
        return (library, configuration)
    }
}

/// What `photos serve` logs of its library's background work: one line per rendition job and
/// per import batch (an upload), so the log says which instance did what when several serve
/// one library.
struct ServeLog: PHPhotoLibrary.Delegate {
    let renditions = Logger(label: "photos.renditions")
    let imports = Logger(label: "photos.imports")

    func videoRenditions(didReport event: VideoRenditionEvent) {
        switch event {
        case .started(let uuid, let foreground): renditions.info("rendition started \(uuid)\(foreground ? " (requested)" : "")")
        case .finished(let uuid, let state): renditions.info("rendition finished \(uuid): \(state)")
        case .failed(let uuid, let reason): renditions.info("rendition failed \(uuid): \(reason)")
        }
    }

    func importBatches(didReport event: ImportBatchEvent) {
        switch event {
        case .started(let uuid, let foreground): imports.info("import started \(uuid)\(foreground ? "" : " (left by another)")")
        case .finished(let uuid, let assets): imports.info("import finished \(uuid): \(assets) assets")
        case .failed(let uuid, let reason, let permanently):
            imports.info("import failed \(uuid)\(permanently ? "" : " (will retry)"): \(reason)")
        }
    }
}
