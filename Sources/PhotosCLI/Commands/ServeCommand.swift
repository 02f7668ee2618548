import ArgumentParser
import Foundation
import Hummingbird
import Photos
import PhotosServer

/// `photos serve`: the web gallery and HTTP API.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve the library: a web gallery, a JSON API and live updates.",
        discussion: """
            Clients sign in with a token from 'photos token create'. Without tokens the server \
            answers 401, unless --open is given, which is allowed on a loopback address only. \
            With --read-only the library's folder is never written (a read-only mount, a backup \
            drive): uploads and changes answer 403, thumbnails not made yet are made in memory.
            """)

    @OptionGroup var options: LibraryOptions
    @Option(help: "The address to bind.") var host = "127.0.0.1"
    @Option(help: "The port (0 picks a free one).") var port = 8080
    @Flag(help: "Let anyone who can reach the server read and change the library, without a token (loopback only).")
    var open = false
    @Option(help: "The largest upload, in megabytes.") var uploadLimit = 1024

    func run() async throws {
        let library = try options.open()
        let configuration = ServerConfiguration(
            host: host, port: port, allowsUnauthenticatedAccess: open, uploadLimit: uploadLimit << 20)
        do {
            try configuration.validate()
        } catch {
            throw CLIError("\(error)")
        }
        if !open, try library.accessTokens().isEmpty {
            print("No access tokens yet: create one with 'photos token create --level read-write' to sign in.")
        }
        print("Serving \(library.url.path)\(library.isReadOnly ? " read-only" : "") on http://\(host):\(port)/")
        // Videos' browser renditions are made in the background, woken by every change.
        library.videoRenditions.startBackgroundWork(wakingOnChangesTo: library)
        defer { library.videoRenditions.stopBackgroundWork() }
        try await buildApplication(library: library, configuration: configuration).runService()
    }
}
