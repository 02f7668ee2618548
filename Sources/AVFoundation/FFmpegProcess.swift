import Foundation
import PhotosLocking

/// An `ffmpeg` or `ffprobe` child with its pipes, set up the one way every run needs: standard
/// output to read, standard error kept for a failure's message, no standard input.
///
/// ``run()`` starts the child and reads its standard error to the end on a thread of its own,
/// so a chatty tool never blocks on a full pipe while the caller reads standard output;
/// ``waitUntilExit()`` waits for both. ``FFmpegTools/run(_:_:failure:what:)`` and ``FFmpegJob``
/// launch their children through it.
final class FFmpegProcess {
    /// The child; read its termination status after ``waitUntilExit()``.
    let process = Process()
    private let output = Pipe()
    private let errors = Pipe()
    private let errorText = ErrorText()
    private let drained = DispatchGroup()
    private let input: Pipe?

    /// A child that will run `executable` with `arguments` (not started yet); with
    /// `readsInput`, its standard input is a pipe the caller writes (``standardInput``).
    init(_ executable: URL, arguments: [String], readsInput: Bool = false) {
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = errors
        input = readsInput ? Pipe() : nil
        process.standardInput = input ?? FileHandle.nullDevice
        if readsInput { Self.ignoreBrokenPipes }
    }

    /// Where to write the child's input (nil unless made with `readsInput`); close it when done.
    var standardInput: FileHandle? { input?.fileHandleForWriting }

    /// A child that stops reading makes writes fail with EPIPE instead of a SIGPIPE that
    /// would end this process (set once, process-wide, the first time a child reads input).
    private static let ignoreBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Starts the child, then the reading of its standard error.
    func run() throws {
        try process.run()
        drained.enter()
        DispatchQueue.global().async { [errors, errorText, drained] in
            errorText.append(errors.fileHandleForReading.readDataToEndOfFile())
            drained.leave()
        }
    }

    /// The child's standard output, to read until its end.
    var standardOutput: FileHandle { output.fileHandleForReading }

    /// Waits until the child's standard error is read to its end and the child has exited.
    func waitUntilExit() {
        drained.wait()
        process.waitUntilExit()
    }

    /// The last non-empty line the child wrote to standard error, trimmed (after
    /// ``waitUntilExit()``).
    var lastErrorLine: String? { errorText.lastLine }

    /// The tail of a tool's standard error, kept as it arrives.
    private final class ErrorText: Sendable {
        private let text = Mutex("")

        func append(_ data: Data) {
            guard !data.isEmpty else { return }
            text.withLock { text in
                text += String(decoding: data, as: UTF8.self)
                if text.utf8.count > 8192 { text = String(text.suffix(4096)) }
            }
        }

        var lastLine: String? {
            text.withLock { $0.split(whereSeparator: \.isNewline).last.map { $0.trimmingCharacters(in: .whitespaces) } }
        }
    }
}
