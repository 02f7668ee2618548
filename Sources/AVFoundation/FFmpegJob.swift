import Foundation
import PhotosLocking

#if canImport(Glibc)
    import Glibc
#endif

/// One `ffmpeg` run that reports progress and can be stopped: the process is killed, and the
/// caller removes what it wrote.
package final class FFmpegJob: Sendable {
    /// Why a run did not finish.
    package enum Stop: Error {
        case cancelled
        case failed(AVError)
    }

    private struct State {
        var process: Process?
        var cancelled = false
    }

    private let arguments: [String]
    /// Seconds of output expected, for progress (0: unknown).
    private let expectedDuration: Double
    /// Runs `ffmpeg` under `nice` at this niceness (background work yields the cores to what
    /// a person waits for); 0 runs it as it is.
    private let niceness: Int
    private let state = Mutex(State())

    package init(arguments: [String], expectedDuration: Double, niceness: Int = 0) {
        self.arguments = arguments
        self.expectedDuration = expectedDuration
        self.niceness = niceness
    }

    /// Runs `ffmpeg` to its end on the calling thread; `progress` gets 0...1 as output is
    /// written (read from `-progress pipe:1`).
    package func run(what: String, progress: (Double) -> Void) throws(Stop) {
        let ffmpeg: URL
        do throws(AVError) {
            ffmpeg = try FFmpegTools.require(FFmpegTools.ffmpeg, "ffmpeg")
        } catch {
            throw .failed(error)
        }
        let ffmpegArguments = ["-nostdin", "-hide_banner", "-v", "error", "-progress", "pipe:1", "-nostats"] + arguments
        let child =
            if niceness > 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/nice") {
                // `nice` replaces itself with ffmpeg: the process killed on cancel is ffmpeg.
                FFmpegProcess(URL(fileURLWithPath: "/usr/bin/nice"), arguments: ["-n", String(niceness), ffmpeg.path] + ffmpegArguments)
            } else {
                FFmpegProcess(ffmpeg, arguments: ffmpegArguments)
            }
        let process = child.process
        let started = state.withLock { state -> Result<Void, any Error>? in
            guard !state.cancelled else { return nil }
            state.process = process
            return Result { try child.run() }
        }
        guard let started else { throw .cancelled }
        if case .failure(let error) = started {
            throw .failed(AVError(.exportFailed, "Can't run ffmpeg for \(what): \(error.localizedDescription)"))
        }
        var pending = Data()
        let reader = child.standardOutput
        while case let chunk = reader.availableData, !chunk.isEmpty {
            pending.append(chunk)
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending.removeSubrange(pending.startIndex...newline)
                if line.hasPrefix("out_time_us="), expectedDuration > 0, let micros = Double(line.dropFirst(12)) {
                    progress(min(1, max(0, micros / 1_000_000 / expectedDuration)))
                }
            }
        }
        child.waitUntilExit()
        let cancelled = state.withLock { state in
            state.process = nil
            return state.cancelled
        }
        if cancelled { throw .cancelled }
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            let reason = child.lastErrorLine ?? "ffmpeg exited with status \(process.terminationStatus)"
            throw .failed(AVError(.exportFailed, "\(what) failed: \(reason)"))
        }
        progress(1)
    }

    /// Stops the run: a running `ffmpeg` is killed at once, one not started never starts.
    package func cancel() {
        state.withLock { state in
            state.cancelled = true
            if let process = state.process, process.isRunning { kill(process.processIdentifier, SIGKILL) }
        }
    }

    package var isCancelled: Bool { state.withLock { $0.cancelled } }
}
