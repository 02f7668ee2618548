import Foundation

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
        let child = FFmpegProcess(tool, arguments: arguments)
        do {
            try child.run()
        } catch {
            throw AVError(failure, "Can't run \(tool.lastPathComponent) for \(what): \(error.localizedDescription)")
        }
        let data = child.standardOutput.readDataToEndOfFile()
        child.waitUntilExit()
        let status = child.process.terminationStatus
        guard status == 0 else {
            throw AVError(failure, "\(what): \(child.lastErrorLine ?? "\(tool.lastPathComponent) exited with status \(status)")")
        }
        return data
    }
}
