package import Foundation
import PhotosLocking

/// Where Debian's `ffmpeg` and `ffprobe` are (`apt install ffmpeg`), found once.
///
/// The stand-in runs them as processes rather than linking libavformat/libavcodec: a consumer
/// builds with no FFmpeg headers, a damaged file that crashes a decoder takes down a child
/// process rather than the server, and cancelling is killing that process. What it costs is
/// measured in `make bench-video` (docs/performance.md).
package enum FFmpegTools {
    package static let ffmpeg = locate("ffmpeg")
    package static let ffprobe = locate("ffprobe")

    private static func locate(_ name: String) -> URL? {
        var folders = ["/usr/bin", "/usr/local/bin"]
        if let path = ProcessInfo.processInfo.environment["PATH"] {
            folders += path.split(separator: ":").map(String.init)
        }
        return folders.lazy.map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// The tool, or an error naming the package to install.
    package static func require(_ tool: URL?, _ name: String) throws(AVError) -> URL {
        guard let tool else {
            throw AVError(.operationNotSupportedForAsset, "\(name) is not installed: videos need FFmpeg (apt install ffmpeg)")
        }
        return tool
    }

    /// Runs a tool to its end, returning its standard output; a non-zero exit throws with the
    /// last line of its standard error.
    package static func run(_ tool: URL, _ arguments: [String], failure: AVError.Code, what: String) throws(AVError) -> Data {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw AVError(failure, "Can't run \(tool.lastPathComponent) for \(what): \(error.localizedDescription)")
        }
        // Read both pipes to their ends before waiting, so a chatty tool never blocks on a full pipe.
        let errorText = ErrorText()
        let drained = DispatchGroup()
        drained.enter()
        DispatchQueue.global().async {
            errorText.append(errors.fileHandleForReading.readDataToEndOfFile())
            drained.leave()
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw AVError(failure, "\(what): \(errorText.lastLine ?? "\(tool.lastPathComponent) exited with status \(process.terminationStatus)")")
        }
        return data
    }
}

/// The tail of a tool's standard error, kept as it arrives.
package final class ErrorText: Sendable {
    private let text = Mutex("")

    package init() {}

    package func append(_ data: Data) {
        guard !data.isEmpty else { return }
        text.withLock { text in
            text += String(decoding: data, as: UTF8.self)
            if text.utf8.count > 8192 { text = String(text.suffix(4096)) }
        }
    }

    /// The last non-empty line, trimmed.
    package var lastLine: String? {
        text.withLock { $0.split(whereSeparator: \.isNewline).last.map { $0.trimmingCharacters(in: .whitespaces) } }
    }
}
