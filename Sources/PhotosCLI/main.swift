import ArgumentParser
import PhotosServer

/// What `@main` on an AsyncParsableCommand does; `main.swift` instead, so that `photos serve`
/// can set up the process before the first task starts.
func runPhotos() async {
    do {
        var command = try PhotosCommand.parseAsRoot()
        if var asynchronous = command as? any AsyncParsableCommand {
            try await asynchronous.run()
        } else {
            try command.run()
        }
    } catch {
        PhotosCommand.exit(withError: error)
    }
}

// A database URL's password is not left for `ps` to show.
ProcessListSecrets.hide()

// `photos serve` runs its tasks on the server's event loops: installed before any task starts.
if CommandLine.arguments.dropFirst().first == "serve" {
    ServerRuntime.adoptEventLoopsAsGlobalExecutor()
}
await runPhotos()
