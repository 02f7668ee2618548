import CoreMedia
import Foundation

/// Renders a composition's first video and first audio track into one movie file: each
/// segment trimmed from its source (or black and silence for an empty one), scaled to the
/// first video source's upright size and rate, and concatenated, by one `ffmpeg`.
struct CompositionRenderer {
    let tracks: [AVMutableCompositionTrack]
    let folder: URL

    func render() throws(AVError) -> MovieDescription {
        let video = tracks.first { $0.mediaType == .video }?.segments ?? []
        let audio = tracks.first { $0.mediaType == .audio }?.segments ?? []
        guard !video.isEmpty || !audio.isEmpty else { throw AVError(.noSourceTrack, "The composition has no media") }
        var inputs: [URL] = []
        var described: [URL: MovieDescription] = [:]
        func input(_ url: URL) throws(AVError) -> (Int, MovieDescription) {
            if let known = inputs.firstIndex(of: url) { return (known, described[url]!) }
            let movie = try MovieDescription.of(url)
            inputs.append(url)
            described[url] = movie
            return (inputs.count - 1, movie)
        }
        var graph: [String] = []
        var outputs: [String] = []
        if !video.isEmpty {
            guard let first = video.first(where: { !$0.isEmpty })?.sourceURL else {
                throw AVError(.noSourceTrack, "The composition's video track has only empty segments")
            }
            let firstMovie = try input(first).1
            let (width, height) = firstMovie.displaySize
            let rate = (firstMovie.video?.frameRate ?? 0) > 0 ? firstMovie.video!.frameRate : 30
            for (index, segment) in video.enumerated() {
                let length = Self.number(segment.targetRange.duration.seconds)
                if let url = segment.sourceURL {
                    let (number, _) = try input(url)
                    // A scaled segment's source is played faster or slower: its times stretched.
                    graph.append(
                        "[\(number):v:0]trim=start=\(Self.number(segment.sourceRange.start.seconds)):duration=\(Self.number(segment.sourceRange.duration.seconds)),"
                            + "setpts=(PTS-STARTPTS)*\(Self.number(segment.scale)),"
                            + "scale=\(width):\(height):force_original_aspect_ratio=decrease,pad=\(width):\(height):(ow-iw)/2:(oh-ih)/2,"
                            + "setsar=1,fps=\(Self.number(rate)),trim=duration=\(length),format=yuv420p[v\(index)]")
                } else {
                    graph.append("color=c=black:s=\(width)x\(height):r=\(Self.number(rate)):d=\(length),format=yuv420p[v\(index)]")
                }
            }
            graph.append((0..<video.count).map { "[v\($0)]" }.joined() + "concat=n=\(video.count):v=1:a=0[vout]")
            outputs += ["-map", "[vout]", "-c:v", "libx264", "-preset", "veryfast", "-crf", "18"]
        }
        if !audio.isEmpty {
            for (index, segment) in audio.enumerated() {
                let length = Self.number(segment.targetRange.duration.seconds)
                if let url = segment.sourceURL, case let (number, movie) = try input(url), movie.audio != nil {
                    // Scaled: the tempo changed, pitch kept, then cut or padded to the exact length.
                    let tempo = Self.tempoFilters(1 / segment.scale)
                    graph.append(
                        "[\(number):a:0]atrim=start=\(Self.number(segment.sourceRange.start.seconds)):duration=\(Self.number(segment.sourceRange.duration.seconds)),"
                            + "asetpts=PTS-STARTPTS,\(tempo)aresample=48000,apad,atrim=duration=\(length),"
                            + "aformat=sample_fmts=fltp:channel_layouts=stereo[a\(index)]")
                } else {
                    graph.append("anullsrc=r=48000:cl=stereo,atrim=duration=\(length),aformat=sample_fmts=fltp:channel_layouts=stereo[a\(index)]")
                }
            }
            graph.append((0..<audio.count).map { "[a\($0)]" }.joined() + "concat=n=\(audio.count):v=0:a=1[aout]")
            outputs += ["-map", "[aout]", "-c:a", "aac"]
        }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = UUID().uuidString
        let temporary = folder.appendingPathComponent(".\(name).partial.mov")
        let final = folder.appendingPathComponent("\(name).mov")
        let ffmpeg = try FFmpegTools.require(FFmpegTools.ffmpeg, "ffmpeg")
        let arguments = ["-v", "error", "-nostdin", "-y"] + inputs.flatMap { ["-i", $0.path] }
            + ["-filter_complex", graph.joined(separator: ";")] + outputs + ["-movflags", "+faststart", "-f", "mov", temporary.path]
        do throws(AVError) {
            _ = try FFmpegTools.run(ffmpeg, arguments, failure: .exportFailed, what: "render the composition")
        } catch {
            unlink(temporary.path)
            throw error
        }
        guard rename(temporary.path, final.path) == 0 else {
            unlink(temporary.path)
            throw AVError(.diskFull, "Can't keep the rendered composition at \(final.path)")
        }
        return try MovieDescription.of(final)
    }

    /// `atempo` filters (each takes 0.5 to 100) multiplying to `tempo`, with a trailing comma;
    /// none for 1.
    static func tempoFilters(_ tempo: Double) -> String {
        guard abs(tempo - 1) > 1e-6, tempo.isFinite, tempo > 0 else { return "" }
        var left = tempo
        var filters: [String] = []
        while left < 0.5 { filters.append("atempo=0.5"); left /= 0.5 }
        while left > 100 { filters.append("atempo=100"); left /= 100 }
        filters.append("atempo=\(number(left))")
        return filters.joined(separator: ",") + ","
    }

    /// A number as ffmpeg reads it (no exponent).
    private static func number(_ value: Double) -> String { String(format: "%.6f", value) }
}
