import Foundation

/// `photos serve` in a child process, on the port it reports.
final class ServerProcess {
    let process = Process()
    let port: Int

    init(arguments: [String]) throws {
        process.executableURL = CLIRunner.executable
        process.arguments = arguments
        let out = Pipe()
        // The "listening on" line is the server's log, on standard error.
        process.standardOutput = FileHandle.nullDevice
        process.standardError = out
        try process.run()
        // Wait for the line that says where it listens.
        var text = ""
        var found: Int?
        while found == nil {
            let chunk = out.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            text += String(decoding: chunk, as: UTF8.self)
            if let range = text.range(of: #"listening on [0-9.]+:([0-9]+)"#, options: .regularExpression) {
                found = Int(text[range].split(separator: ":").last ?? "")
            }
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
