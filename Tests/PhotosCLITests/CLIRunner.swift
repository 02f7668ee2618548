import Foundation
import PhotosTestSupport

/// Runs the built `photos` executable, as a user would.
struct CLIRunner {
    /// Held so the library folder lives as long as the runner (its deinit removes it).
    let temporary: TemporaryLibrary
    var library: URL { temporary.url }

    init(_ temporary: TemporaryLibrary) {
        self.temporary = temporary
    }

    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static var executable: URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("photos")
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return Fixtures.packageRoot.appendingPathComponent(".build/debug/photos")
    }

    @discardableResult
    func run(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws -> Output {
        try Self.run(arguments, library: library, environment: environment, input: input)
    }

    /// Runs a command on another library folder (a restored one).
    @discardableResult
    func run(_ arguments: [String], library: URL, environment: [String: String] = [:]) throws -> Output {
        try Self.run(arguments, library: library, environment: environment)
    }

    /// Runs a command on any library folder, without a runner (a library no test process opened);
    /// with `library` nil, no `--library` (a command that names its libraries itself).
    @discardableResult
    /// `input`, when given, is the command's standard input (else it inherits none: /dev/null).
    static func run(_ arguments: [String], library: URL?, environment: [String: String] = [:], input: String? = nil) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments + (library.map { ["--library", $0.path] } ?? [])
        var env = ProcessInfo.processInfo.environment
        env["PHOTOS_LIBRARY"] = nil
        env["TZ"] = "UTC"
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let inputPipe = input.map { _ in Pipe() }
        if let inputPipe { process.standardInput = inputPipe } else { process.standardInput = FileHandle.nullDevice }
        try process.run()
        if let inputPipe, let input {
            inputPipe.fileHandleForWriting.write(Data(input.utf8))
            try inputPipe.fileHandleForWriting.close()
        }
        // Read both pipes before waiting, so a full pipe can't block the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// `ls --json` decoded.
    func list(_ extra: [String] = []) throws -> [[String: Any]] {
        let output = try run(["ls", "--json"] + extra)
        guard output.status == 0 else { throw CLIFailure(output: output) }
        return try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]] ?? []
    }

    struct CLIFailure: Error, CustomStringConvertible {
        let output: Output
        var description: String { "photos exited \(output.status): \(output.stderr)" }
    }
}
