import CoreGraphics
import CoreMedia
import CoreImage
import Foundation
import Imaging

/// How an ``AVAssetImageGenerator`` gets frames out of one movie: which frame a time shows, the
/// size it comes out at, and which frames one `ffmpeg` process decodes in a row.
///
/// A frame costs the decoding from the key frame before it. Frames asked for together are
/// grouped into runs: the next frame joins a run when its key frame is not past the run's last
/// frame (decoding on from there costs no more than seeking to it would), and a run is one
/// process that seeks to its first frame and keeps the ones asked for (`select`). A strip of
/// 10 frames of a 20 s movie with a key frame every 8.3 s decodes 483 frames in 3 processes
/// instead of 1,000 in 10.
struct FramePlan {
    let url: URL
    let rate: Double
    /// The video's first time, seconds.
    let start: Double
    let lastFrame: Int
    let transform: Bool
    /// The frame's size, upright when `transform`.
    let width: Int
    let height: Int
    /// The size `ffmpeg` gives frames at.
    let outWidth: Int
    let outHeight: Int
    /// The Core Image composition frames are drawn through, and the size they are given back at
    /// (`ffmpeg` then gives them at full size).
    let composition: AVVideoComposition?
    /// What draws ``composition``'s images.
    private let context = CIContext()
    let finalWidth: Int
    let finalHeight: Int
    /// The most frames one process keeps (its `select` expression stays short, and a long run
    /// leaves the second process something to do).
    static let maximumRun = 64

    init(asset: AVAsset, settings: AVAssetImageGenerator.Settings) throws(AVError) {
        let maximumSize = settings.maximumSize
        // A composition renders frames upright, at its size (the movie's, upright).
        composition = settings.videoComposition
        let transform = settings.transform || composition != nil
        // A file asset's movie, or a composition's rendered one.
        let movie = try asset.movieDescription()
        url = movie.url
        guard let video = movie.video, video.width > 0, video.height > 0 else {
            throw AVError(.noImageAtTime, "\(url.lastPathComponent) has no video track")
        }
        rate = video.frameRate > 0 ? video.frameRate : 30
        start = video.start.isNumeric ? video.start.seconds : 0
        let length = (video.duration.isNumeric ? video.duration : movie.duration).seconds
        guard length.isFinite, length > 0 else {
            throw AVError(.noImageAtTime, "\(url.lastPathComponent) is not a movie (it has no duration)")
        }
        lastFrame = max(0, Int((length * rate).rounded(.up)) - 1)
        self.transform = transform
        (width, height) = transform ? movie.displaySize : (video.width, video.height)
        var scale = 1.0
        if maximumSize.width > 0 { scale = min(scale, Double(maximumSize.width) / Double(width)) }
        if maximumSize.height > 0 { scale = min(scale, Double(maximumSize.height) / Double(height)) }
        finalWidth = max(1, Int((Double(width) * scale).rounded()))
        finalHeight = max(1, Int((Double(height) * scale).rounded()))
        (outWidth, outHeight) = composition == nil ? (finalWidth, finalHeight) : (width, height)
    }

    /// The frame shown at `requested` (the last one past the end).
    func frame(at requested: CMTime) throws(AVError) -> Int {
        guard requested.isNumeric, requested.seconds >= 0 else {
            throw AVError(.noImageAtTime, "There is no frame at \(requested)")
        }
        return min(lastFrame, max(0, Int(((requested.seconds - start) * rate + 1e-6).rounded(.down))))
    }

    /// A frame's own time.
    func time(of frame: Int) -> CMTime {
        CMTime(seconds: start + Double(frame) / rate, preferredTimescale: 600)
    }

    /// `frames` (any order, repeats allowed) as runs for one process each: ascending, distinct,
    /// ordered by their first frame. Without key frames (not an MP4/MOV), each frame is a run.
    static func runs(of frames: [Int], keyframes: MovieKeyframes?) -> [[Int]] {
        let sorted = Array(Set(frames)).sorted()
        guard let keyframes else { return sorted.map { [$0] } }
        var runs: [[Int]] = []
        for frame in sorted {
            if let last = runs.last?.last, runs[runs.count - 1].count < maximumRun, keyframes.keyframe(atOrBefore: frame) <= last {
                runs[runs.count - 1].append(frame)
            } else {
                runs.append([frame])
            }
        }
        return runs
    }

    /// Decodes `run` (ascending frames) in one `ffmpeg` process, giving each frame's image to
    /// `each` as its pixels arrive, until `each` answers false (the process is stopped); frames
    /// the movie doesn't hold (past its real end) are not given.
    func decode(_ run: [Int], each: (Int, CGImage) throws(AVError) -> Bool) throws(AVError) {
        guard let first = run.first else { return }
        let ffmpeg = try FFmpegTools.require(FFmpegTools.ffmpeg, "ffmpeg")
        // Accurate seeking: the first frame at or after a tenth of a frame before the first one's time.
        var arguments = ["-v", "error", "-nostdin", "-ss", String(format: "%.6f", max(0, Double(first) / rate - 0.1 / rate))]
        if !transform { arguments.append("-noautorotate") }
        arguments += ["-i", url.path, "-an", "-sn"]
        var filters: [String] = []
        if run.count > 1 {
            // After the seek, `n` counts from the first frame: keep the run's frames only.
            filters.append("select='" + run.map { "eq(n\\,\($0 - first))" }.joined(separator: "+") + "'")
        }
        if outWidth != width || outHeight != height { filters.append("scale=\(outWidth):\(outHeight):flags=bilinear") }
        if !filters.isEmpty { arguments += ["-vf", filters.joined(separator: ",")] }
        arguments += ["-fps_mode", "passthrough", "-frames:v", "\(run.count)", "-f", "rawvideo", "-pix_fmt", "rgb24", "-"]

        let what = "read \(run.count == 1 ? "a frame" : "\(run.count) frames") of \(url.lastPathComponent)"
        let child = FFmpegProcess(ffmpeg, arguments: arguments)
        do {
            try child.run()
        } catch {
            throw AVError(.decodeFailed, "Can't run ffmpeg to \(what): \(error.localizedDescription)")
        }
        let size = outWidth * outHeight * 3
        var failure: AVError?
        var given = 0
        var stopped = false
        while given < run.count, !stopped {
            // Frame by frame: a run of full-size frames is never held whole.
            guard let pixels = FrameFilter.readFrame(child.standardOutput, bytes: size) else { break }
            do {
                let image = try CGImage(VipsImage(pixels: pixels, width: outWidth, height: outHeight, bands: 3))
                stopped = try !each(run[given], try composed(image, frame: run[given]))
            } catch let error as AVError {
                failure = error
                break
            } catch {
                failure = AVError(.decodeFailed, "Can't keep a frame of \(url.lastPathComponent): \(error)")
                break
            }
            given += 1
        }
        if failure != nil || stopped { kill(child.process.processIdentifier, SIGKILL) }
        // What is left unread is drained so the child can exit.
        _ = try? child.standardOutput.readToEnd()
        child.waitUntilExit()
        if let failure { throw failure }
        if stopped { return }
        // A run that ended early with status 0 is a movie shorter than its header says: the
        // caller is told of the frames given, and of the others by their absence.
        let status = child.process.terminationStatus
        guard status == 0 || given == run.count else {
            throw AVError(.decodeFailed, "\(what): \(child.lastErrorLine ?? "ffmpeg exited with status \(status)")")
        }
    }

    /// The frame drawn through ``composition``'s handler and scaled to the final size; the
    /// frame itself without a composition.
    private func composed(_ frame: CGImage, frame index: Int) throws(AVError) -> CGImage {
        guard let composition else { return frame }
        let request = AVAsynchronousCIImageFilteringRequest(
            renderSize: composition.renderSize, compositionTime: time(of: index), sourceImage: CIImage(cgImage: frame))
        composition.filteringHandler(request)
        let rect = CGRect(x: 0, y: 0, width: finalWidth, height: finalHeight)
        do {
            let scale = CGAffineTransform(scaleX: Double(finalWidth) / Double(width), y: Double(finalHeight) / Double(height))
            let drawn = try request.image().cropped(to: CGRect(x: 0, y: 0, width: width, height: height)).transformed(by: scale)
            return try CGImage(try context.encodedPixels(drawn, rect: rect, colorSpace: CGColorSpaceCreateDeviceRGB(), alpha: false).materialized())
        } catch let error as AVError {
            throw error
        } catch {
            throw AVError(.decodeFailed, "The video composition's frame at \(String(format: "%.3f", Double(index) / rate)) s of \(url.lastPathComponent): \(error)")
        }
    }

    /// One frame, or the error saying why the movie gave none.
    func image(of frame: Int) throws(AVError) -> CGImage {
        var image: CGImage?
        try decode([frame]) { _, decoded in
            image = decoded
            return true
        }
        guard let image else {
            throw AVError(.noImageAtTime, "ffmpeg gave no frame of \(url.lastPathComponent) at \(String(format: "%.3f", Double(frame) / rate)) s")
        }
        return image
    }
}
