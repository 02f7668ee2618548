public import Foundation
import AVFoundation

extension PHBasicAdjustments {
    /// Renders the recipe applied to the movie at `source` (upright first, trimmed to
    /// ``timeRange``) as an H.264/AAC QuickTime movie at `destination` (such as
    /// `PHContentEditingOutput.renderedContentURL` for a video), with `ffmpeg`. The movie is
    /// written beside `destination` and renamed into place when complete.
    ///
    /// Linux addition.
    /// - Throws: a ``PHPhotosError`` naming what failed (an invalid crop or time range, a
    ///   movie FFmpeg can't read, ffmpeg missing).
    public func render(movieAt source: URL, to destination: URL) throws {
        try render(movieAt: source, to: destination, audioVolume: 1)
    }

    func render(movieAt source: URL, to destination: URL, audioVolume: Float) throws {
        let movie: MovieDescription
        do throws(AVError) {
            movie = try MovieDescription.of(source)
        } catch {
            throw PHPhotosError(.invalidResource, "Can't render the edit of \(source.lastPathComponent): \(error.message)")
        }
        guard movie.video != nil else {
            throw PHPhotosError(.invalidResource, "Can't render the edit of \(source.lastPathComponent): it has no video track")
        }
        var arguments: [String] = []
        var length = movie.duration.isNumeric ? movie.duration.seconds : 0
        if let range = timeRange {
            let start = range.start.isNumeric ? max(0, range.start.seconds) : 0
            guard start < length, range.duration.isPositiveInfinity || (range.duration.isNumeric && range.duration.seconds > 0) else {
                throw PHPhotosError(
                    .invalidResource,
                    "The time range \(range.start.seconds)s + \(range.duration.seconds)s lies outside \(source.lastPathComponent) (\(length)s)")
            }
            if start > 0 { arguments += ["-ss", String(format: "%.6f", start)] }
            arguments += ["-i", source.path]
            length -= start
            if range.duration.isNumeric {
                arguments += ["-t", String(format: "%.6f", range.duration.seconds)]
                length = min(length, range.duration.seconds)
            }
        } else {
            arguments += ["-i", source.path]
        }
        arguments += ["-vf", try videoFilters(upright: movie.displaySize, name: source.lastPathComponent).joined(separator: ",")]
        arguments += ["-c:v", "libx264", "-preset", "medium", "-crf", "18", "-pix_fmt", "yuv420p", "-dn", "-sn"]
        if movie.audio != nil {
            if audioVolume != 1 { arguments += ["-af", "volume=\(max(0, audioVolume))"] }
            arguments += ["-c:a", "aac", "-b:a", "192k"]
        }
        let folder = destination.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(".\(destination.lastPathComponent).\(UUID().uuidString).partial")
        arguments += ["-movflags", "+faststart", "-f", "mov", "-y", temporary.path]
        // try?: gone after the rename below (the usual case); after a failure, the error thrown
        // is the report.
        defer { try? FileManager.default.removeItem(at: temporary) }
        do throws(FFmpegJob.Stop) {
            try FFmpegJob(arguments: arguments, expectedDuration: length).run(what: "Rendering the edit of \(source.lastPathComponent)") { _ in }
        } catch {
            let reason: String =
                switch error {
                case .cancelled: "cancelled"
                case .failed(let failure): failure.message
                }
            throw PHPhotosError(.invalidResource, reason)
        }
        guard rename(temporary.path, destination.path) == 0 else {
            throw PHPhotosError(.notEnoughSpace, "Can't write the edit to \(destination.path): \(String(cString: strerror(errno)))")
        }
    }

    /// FFmpeg's filter chain for the recipe, after its automatic rotation to upright.
    func videoFilters(upright: (width: Int, height: Int), name: String) throws -> [String] {
        var filters: [String] = []
        var (width, height) = upright
        switch ((quarterTurns % 4) + 4) % 4 {
        case 1:
            filters.append("transpose=clock")
            (width, height) = (height, width)
        case 2: filters += ["hflip", "vflip"]
        case 3:
            filters.append("transpose=cclock")
            (width, height) = (height, width)
        default: break
        }
        if let crop {
            let unit = crop.standardized.intersection(CGRect(x: 0, y: 0, width: 1, height: 1))
            guard !unit.isNull, unit.width > 0, unit.height > 0 else {
                throw PHPhotosError(.invalidResource, "Can't render the edit of \(name): the crop \(crop) lies outside the picture")
            }
            func even(_ value: Double) -> Int { max(2, Int(value / 2) * 2) }
            let x = Int((unit.minX * Double(width)).rounded()), y = Int((unit.minY * Double(height)).rounded())
            let w = min(even(unit.width * Double(width)), width - x - (width - x) % 2)
            let h = min(even(unit.height * Double(height)), height - y - (height - y) % 2)
            filters.append("crop=\(w):\(h):\(x):\(y)")
        }
        if exposure != 0 {
            let factor = pow(2, exposure)
            filters.append("colorchannelmixer=rr=\(factor):gg=\(factor):bb=\(factor)")
        }
        if saturation != 1 { filters.append("eq=saturation=\(min(3, max(0, saturation)))") }
        switch filter {
        case .none: break
        case .mono: filters.append("hue=s=0")
        case .sepia: filters.append("colorchannelmixer=.393:.769:.189:0:.349:.686:.168:0:.272:.534:.131")
        }
        filters.append("scale=trunc(iw/2)*2:trunc(ih/2)*2")
        return filters
    }
}
