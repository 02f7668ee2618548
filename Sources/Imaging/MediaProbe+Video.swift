import Foundation

extension MediaProbe.Context {
    /// MP4/MOV/M4V/3GP: `ftyp`, then `moov` (movie header, video track, metadata), reading
    /// only box headers and the small boxes needed.
    func probeVideo(format: MediaFormat) throws(ImagingError) -> MediaMetadata {
        let parser = ISOBMFFParser(source: source)
        let (boxes, overrun) = parser.topLevel()
        let kind = format == .mov ? "QuickTime movie" : "\(format.rawValue.uppercased()) video"
        guard let moov = boxes.first(where: { $0.type == "moov" }) else {
            if overrun { throw corrupt("is a truncated \(kind): a box runs past the end of the file and there is no 'moov' box") }
            throw corrupt("is a damaged \(kind): it has no 'moov' box (movie header)")
        }
        if overrun {
            let last = boxes.last.map { "'\($0.type)' box" } ?? "a box"
            throw corrupt("is a truncated \(kind): \(last) runs past the end of the file")
        }
        if let problem = MovieStructure.structureProblem(parser: parser, moov: moov) {
            let truncated = problem.contains("past the end")
            throw corrupt("is a \(truncated ? "truncated" : "damaged") \(kind): \(problem)")
        }
        let movie = QuickTimeMetadata(parser: parser, moov: moov, defaultTimeZone: defaultTimeZone)
        guard movie.hasVideoTrack else {
            throw ImagingError(.unsupportedFormat, "\(name) has no video track (audio-only \(format.rawValue) is not supported)", url: url)
        }
        var metadata = MediaMetadata(
            format: format, pixelWidth: movie.width, pixelHeight: movie.height, orientation: movie.orientation,
            captureDate: movie.creationDate, captureTimeZoneOffset: movie.creationTimeZoneOffset,
            location: movie.location, make: movie.make, model: movie.model, software: movie.software,
            duration: movie.duration, frameRate: movie.frameRate, frameCount: movie.frameCount ?? 1, hasAlpha: false)
        metadata.contentIdentifier = movie.contentIdentifier
        metadata.captureMode = movie.captureMode
        return metadata
    }
}
