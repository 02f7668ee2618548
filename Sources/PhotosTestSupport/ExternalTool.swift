public import Foundation

/// Runs a command-line tool the tests use as an oracle (exiftool, sha256sum) and returns what
/// it printed on standard output.
public enum ExternalTool {
    public static func output(_ path: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }

    /// Runs a tool for its effect (mount, chmod, cp, openssl); throws when it exits with a
    /// failure, with what it printed on standard error.
    public static func run(_ path: String, _ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(
                .fileWriteNoPermission, userInfo: [NSLocalizedDescriptionKey: "\(path) \(arguments.joined(separator: " ")) failed: \(text)"])
        }
    }

    /// `exiftool ARGUMENTS`, as text.
    public static func exiftool(_ arguments: [String]) throws -> String {
        String(decoding: try output("/usr/bin/exiftool", arguments), as: UTF8.self)
    }
}
