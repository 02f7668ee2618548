import CoreGraphics
package import CoreImage
package import CoreMedia
import Foundation
import Imaging

/// Re-encodes a movie with every frame passed through a Core Image step: one `ffmpeg` decodes
/// upright RGB frames into this process, each becomes a `CIImage`, the step's image is rendered
/// back to RGB and written into a second `ffmpeg` that encodes H.264 (the sound copied through
/// AAC at the volume asked). One frame is in memory at a time; the file appears whole (a
/// temporary name, then a rename) or not at all. What Live Photo frame processors and Core
/// Image video compositions run on.
package enum FrameFilter {
    package struct Frame {
        /// The frame, upright, at (0, 0).
        package let image: CIImage
        package let time: CMTime
        package let index: Int
    }

    /// Writes `input` re-encoded to `output` (which must not exist), each frame the step's
    /// image (nil: the frame unchanged), cropped to the frame's rectangle.
    package static func run(
        movie input: URL, to output: URL, audioVolume: Float = 1, isCancelled: () -> Bool = { false },
        _ step: (Frame) throws -> CIImage?
    ) throws(AVError) {
        let movie = try MovieDescription.of(input)
        guard movie.video != nil else { throw AVError(.noSourceTrack, "\(input.lastPathComponent) has no video track") }
        let (width, height) = movie.displaySize
        let rate = (movie.video?.frameRate ?? 0) > 0 ? movie.video!.frameRate : 30
        let ffmpeg = try FFmpegTools.require(FFmpegTools.ffmpeg, "ffmpeg")
        let temporary = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).\(UUID().uuidString).partial.mov")
        let decoder = FFmpegProcess(
            ffmpeg, arguments: ["-v", "error", "-nostdin", "-i", input.path, "-map", "0:v:0", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"])
        var encoding = ["-v", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", "\(width)x\(height)", "-r", String(rate), "-i", "-"]
        encoding += ["-i", input.path, "-map", "0:v:0", "-c:v", "libx264", "-preset", "veryfast", "-crf", "18", "-pix_fmt", "yuv420p"]
        if movie.audio != nil { encoding += ["-map", "1:a:0", "-c:a", "aac", "-af", "volume=\(audioVolume)", "-shortest"] }
        encoding += ["-movflags", "+faststart", "-f", "mov", temporary.path]
        let encoder = FFmpegProcess(ffmpeg, arguments: encoding, readsInput: true)
        var finished = false
        defer {
            if !finished {
                // Both stopped and gone before the partial file goes, so nothing writes it again.
                // try?: closing a pipe already closed changes nothing.
                try? encoder.standardInput?.close()
                // SIGKILL: a decoder blocked writing a full pipe would sit out a SIGTERM.
                for child in [decoder.process, encoder.process] where child.isRunning { kill(child.processIdentifier, SIGKILL) }
                decoder.waitUntilExit()
                encoder.waitUntilExit()
                // try?: the partial file is what is left to clean; the error thrown says why.
                try? FileManager.default.removeItem(at: temporary)
            }
        }
        do {
            try decoder.run()
            try encoder.run()
        } catch {
            throw AVError(.exportFailed, "Can't start ffmpeg for \(input.lastPathComponent): \(error)")
        }
        let context = CIContext()
        let frameBytes = width * height * 3
        let rect = CGRect(x: 0, y: 0, width: width, height: height)
        var index = 0
        while let pixels = readFrame(decoder.standardOutput, bytes: frameBytes) {
            guard !isCancelled() else { throw AVError(.exportFailed, "The movie's frames were cancelled") }
            do {
                let source = CIImage(cgImage: try CGImage(VipsImage(pixels: pixels, width: width, height: height, bands: 3)))
                let frame = Frame(image: source, time: CMTime(seconds: Double(index) / rate, preferredTimescale: 600), index: index)
                let result = try step(frame) ?? source
                let rendered = try context.encodedPixels(result, rect: rect, colorSpace: CGColorSpaceCreateDeviceRGB(), alpha: false)
                try encoder.standardInput?.write(contentsOf: try rendered.memoryBytes())
            } catch {
                throw AVError(.exportFailed, "Frame \(index) of \(input.lastPathComponent): \(error)")
            }
            index += 1
        }
        // try?: closing tells the encoder the frames ended; a failure shows in its status.
        try? encoder.standardInput?.close()
        decoder.waitUntilExit()
        encoder.waitUntilExit()
        guard decoder.process.terminationStatus == 0, encoder.process.terminationStatus == 0, index > 0 else {
            throw AVError(.exportFailed, "ffmpeg failed re-encoding \(input.lastPathComponent): \(encoder.lastErrorLine ?? decoder.lastErrorLine ?? "no frames")")
        }
        guard rename(temporary.path, output.path) == 0 else {
            throw AVError(.diskFull, "Can't keep the movie at \(output.path): \(String(cString: strerror(errno)))")
        }
        finished = true
    }

    /// Exactly `bytes` from `handle`, or nil at its end.
    static func readFrame(_ handle: FileHandle, bytes: Int) -> Data? {
        var frame = Data()
        frame.reserveCapacity(bytes)
        while frame.count < bytes {
            // try?: a read error ends the frames like the end of the stream; the decoder's
            // status then says what happened.
            guard let chunk = try? handle.read(upToCount: bytes - frame.count), !chunk.isEmpty else { break }
            frame.append(chunk)
        }
        return frame.count == bytes ? frame : nil
    }
}
