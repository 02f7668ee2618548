import Foundation
import PhotosTestSupport

/// `photos serve` in a child process, on the port it reports.
final class ServerProcess {
    let process = Process()
    let port: Int

    /// With `log`, the server's standard error goes to that file (read for the port, and
    /// whatever the test looks for after); else through a pipe read until the port.
    init(arguments: [String], log: URL? = nil) throws {
        process.executableURL = CLIRunner.executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        // The "listening on" line is the server's log, on standard error.
        var text = ""
        var found: Int?
        func portListed() -> Int? {
            guard let range = text.range(of: #"listening on [0-9.]+:([0-9]+)"#, options: .regularExpression) else { return nil }
            return Int(text[range].split(separator: ":").last ?? "")
        }
        if let log {
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()
            let deadline = Date().addingTimeInterval(30)
            while found == nil, process.isRunning, Date() < deadline {
                text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                found = portListed()
                if found == nil { usleep(20_000) }
            }
        } else {
            let out = Pipe()
            process.standardError = out
            try process.run()
            while found == nil {
                let chunk = out.fileHandleForReading.availableData
                guard !chunk.isEmpty else { break }
                text += String(decoding: chunk, as: UTF8.self)
                found = portListed()
            }
            // The rest of its log is read and dropped, so its pipe never fills or closes under it.
            let reader = out.fileHandleForReading
            Thread.detachNewThread { while !reader.availableData.isEmpty {} }
        }
        guard let found else {
            process.terminate()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "photos serve did not start: \(text)"])
        }
        port = found
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}

/// A throwaway PostgreSQL server, a library of the first `photos` fixture photos on it, and
/// `photos serve` over it (`log`: its standard error, as ``ServerProcess`` takes it); all of it
/// stopped and removed when released.
final class ServedPostgresLibrary {
    let server: ThrowawayPostgres
    let database: URL
    let folder: URL
    let serve: ServerProcess
    /// `http://127.0.0.1:PORT`.
    let base: String
    /// The assets' identifiers, as `GET /api/assets` lists them.
    let ids: [String]

    init(photos count: Int, durable: Bool = false, log: String? = nil) throws {
        // `durable`: commits flushed before they are acknowledged, as a real server's are.
        server = try ThrowawayPostgres(durable: durable)
        database = try server.createDatabase()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("served-\(UUID().uuidString)")
        self.folder = folder
        let files = folder.appendingPathComponent("Library.photoslibrary")
        let photos = try Fixtures.kphotoalbum().prefix(count).map(\.path)
        guard try CLIRunner.run(["import", "--database", database.absoluteString] + photos, library: files).status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "photos import failed"])
        }
        // The photos' words read before the server starts: read by its background work while a
        // test runs, they are a change to the photos, after which the server asks the database
        // for their image versions again (a cached thumbnail is then a 503 while the database
        // is away: DatabaseOutageTests failed 2 runs of 4 so).
        guard try CLIRunner.run(["cache", "warm", "--text", "--database", database.absoluteString], library: files).status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "photos cache warm --text failed"])
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        serve = try ServerProcess(
            arguments: ["serve", "--database", database.absoluteString, "--library", files.path, "--port", "0", "--open"],
            log: log.map { folder.appendingPathComponent($0) })
        base = "http://127.0.0.1:\(serve.port)"
        let page = try JSONSerialization.jsonObject(with: Data(DatabaseOutageTests.call("\(base)/api/assets").body.utf8)) as? [String: Any]
        ids = (page?["assets"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
    }

    deinit {
        serve.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
