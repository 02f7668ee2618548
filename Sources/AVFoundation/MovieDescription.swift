import Foundation
import PhotosLocking

/// What `ffprobe` says of a movie file: its container, duration, tags and streams.
package struct MovieDescription: Sendable {
    package struct Stream: Sendable {
        package var index: Int
        package var mediaType: AVMediaType
        /// FFmpeg's codec name: `h264`, `hevc`, `prores`, `aac`...
        package var codecName: String?
        /// The sample entry's four-character code: `avc1`, `hvc1`, `hev1`, `mp4a`...
        package var codecTag: String?
        package var width = 0
        package var height = 0
        /// Frames per second (the average rate when known, else the base rate).
        package var frameRate: Double = 0
        package var duration: CMTime = .invalid
        package var start: CMTime = .zero
        package var bitRate: Double = 0
        package var frameCount: Int?
        package var sampleRate: Double = 0
        package var channels = 0
        /// FFmpeg's pixel format (`yuv420p`, `yuv420p10le`...).
        package var pixelFormat: String?
        /// The display matrix `[a, b, c, d]` (16.16 values as doubles), identity when absent.
        package var matrix: (a: Double, b: Double, c: Double, d: Double) = (1, 0, 0, 1)
        package var tags: [String: String] = [:]
        package var isAttachedPicture = false
    }

    package var url: URL
    package var formatName: String
    package var duration: CMTime
    package var fileSize: Int64
    package var bitRate: Double
    package var tags: [String: String]
    package var streams: [Stream]

    /// The first video stream that is not a cover picture.
    package var video: Stream? { streams.first { $0.mediaType == .video && !$0.isAttachedPicture } }
    package var audio: Stream? { streams.first { $0.mediaType == .audio } }

    /// The video's size after its display rotation.
    package var displaySize: (width: Int, height: Int) {
        guard let video else { return (0, 0) }
        return abs(video.matrix.a) < 0.5 ? (video.height, video.width) : (video.width, video.height)
    }

    /// Reads `url` with `ffprobe`, or answers from the process's cache when the file's size
    /// and modification time are those it had then.
    package static func of(_ url: URL) throws(AVError) -> MovieDescription {
        let attributes = try? FileManager.default.attributesOfItem(atPath: url.path)
        guard let attributes else {
            throw AVError(.fileFormatNotRecognized, "There is no movie file at \(url.path)")
        }
        let key = CacheKey(
            path: url.path, size: (attributes[.size] as? NSNumber)?.int64Value ?? -1,
            modified: (attributes[.modificationDate] as? Date) ?? .distantPast)
        if let known = cache.withLock({ $0[key] }) { return known }
        let ffprobe = try FFmpegTools.require(FFmpegTools.ffprobe, "ffprobe")
        let output = try FFmpegTools.run(
            ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", url.path],
            failure: .fileFormatNotRecognized, what: "\(url.lastPathComponent) is not a movie FFmpeg can read")
        let description = try parse(output, url: url)
        cache.withLock { cache in
            if cache.count >= 512 { cache.removeAll(keepingCapacity: true) }
            cache[key] = description
        }
        return description
    }

    /// Reads the movie at an `http(s)` URL (a presigned URL of an object in a bucket) with
    /// `ffprobe`, which fetches only what it reads (the header and index, in ranged requests),
    /// not the movie. `name` stands for the URL in messages, which never show it: a presigned
    /// URL is a credential while it lasts.
    package static func of(remote url: URL, name: String) throws(AVError) -> MovieDescription {
        let ffprobe = try FFmpegTools.require(FFmpegTools.ffprobe, "ffprobe")
        do {
            let output = try FFmpegTools.run(
                ffprobe, ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", url.absoluteString],
                failure: .fileFormatNotRecognized, what: "\(name) is not a movie FFmpeg can read")
            return try parse(output, url: url)
        } catch {
            let leaks = error.message.contains(url.host ?? "\u{0}") || error.message.contains("X-Amz-")
            throw AVError(error.code, leaks ? "\(name): ffprobe could not read it over HTTP" : error.message)
        }
    }

    private struct CacheKey: Hashable {
        var path: String
        var size: Int64
        var modified: Date
    }

    private static let cache = Mutex<[CacheKey: MovieDescription]>([:])

    /// Parses ffprobe's `-print_format json -show_format -show_streams` output.
    package static func parse(_ data: Data, url: URL) throws(AVError) -> MovieDescription {
        guard let root = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
            let format = root["format"] as? [String: Any]
        else {
            throw AVError(.fileFailedToParse, "ffprobe's description of \(url.lastPathComponent) can't be read")
        }
        let streams = (root["streams"] as? [[String: Any]] ?? []).compactMap(Stream.init(json:))
        guard !streams.isEmpty else {
            throw AVError(.noSourceTrack, "\(url.lastPathComponent) has no audio or video track")
        }
        var duration = seconds(format["duration"]).map { CMTime(seconds: $0, preferredTimescale: 1_000_000) }
        if duration == nil {
            duration = streams.map(\.duration).filter(\.isNumeric).max()
        }
        return MovieDescription(
            url: url, formatName: format["format_name"] as? String ?? "", duration: duration ?? .invalid,
            fileSize: Int64(format["size"] as? String ?? "") ?? 0, bitRate: seconds(format["bit_rate"]) ?? 0,
            tags: strings(format["tags"]), streams: streams)
    }

    static func seconds(_ value: Any?) -> Double? {
        if let text = value as? String { return Double(text) }
        return (value as? NSNumber)?.doubleValue
    }

    static func strings(_ value: Any?) -> [String: String] {
        guard let tags = value as? [String: Any] else { return [:] }
        return tags.compactMapValues { $0 as? String }
    }

    /// "30000/1001" → 29.97; "0/0" → nil.
    static func rate(_ value: Any?) -> Double? {
        guard let text = value as? String else { return nil }
        let parts = text.split(separator: "/").compactMap { Double($0) }
        guard parts.count == 2, parts[1] != 0, parts[0] > 0 else { return nil }
        return parts[0] / parts[1]
    }
}

extension MovieDescription.Stream {
    init?(json: [String: Any]) {
        let type: AVMediaType
        switch json["codec_type"] as? String {
        case "video": type = .video
        case "audio": type = .audio
        case "subtitle": type = .subtitle
        case "data": type = .metadata
        default: return nil
        }
        self.init(index: (json["index"] as? NSNumber)?.intValue ?? 0, mediaType: type)
        codecName = json["codec_name"] as? String
        codecTag = (json["codec_tag_string"] as? String).flatMap { $0.hasPrefix("[") ? nil : $0 }
        width = (json["width"] as? NSNumber)?.intValue ?? 0
        height = (json["height"] as? NSNumber)?.intValue ?? 0
        frameRate = MovieDescription.rate(json["avg_frame_rate"]) ?? MovieDescription.rate(json["r_frame_rate"]) ?? 0
        tags = MovieDescription.strings(json["tags"])
        if let seconds = MovieDescription.seconds(json["duration"]) {
            duration = CMTime(seconds: seconds, preferredTimescale: 1_000_000)
        }
        // Exact when the stream counts in a whole timescale ("1/15360" with 30720 ticks).
        if let base = json["time_base"] as? String, base.hasPrefix("1/"), let scale = Int32(base.dropFirst(2)),
            let ticks = (json["duration_ts"] as? NSNumber)?.int64Value
        {
            duration = CMTime(value: ticks, timescale: scale)
        }
        if let start = MovieDescription.seconds(json["start_time"]) { self.start = CMTime(seconds: start, preferredTimescale: 1_000_000) }
        bitRate = MovieDescription.seconds(json["bit_rate"]) ?? 0
        frameCount = (json["nb_frames"] as? String).flatMap { Int($0) }
        sampleRate = MovieDescription.seconds(json["sample_rate"]) ?? 0
        channels = (json["channels"] as? NSNumber)?.intValue ?? 0
        pixelFormat = json["pix_fmt"] as? String
        isAttachedPicture = ((json["disposition"] as? [String: Any])?["attached_pic"] as? NSNumber)?.intValue == 1
        let sideData = json["side_data_list"] as? [[String: Any]] ?? []
        if let display = sideData.first(where: { $0["side_data_type"] as? String == "Display Matrix" }) {
            if let text = display["displaymatrix"] as? String, let parsed = Self.matrix(text) {
                matrix = parsed
            } else if let rotation = MovieDescription.seconds(display["rotation"]) {
                matrix = Self.matrix(counterclockwiseDegrees: rotation)
            }
        } else if let rotate = tags["rotate"].flatMap(Double.init) {
            // FFmpeg before 5: the legacy tag, clockwise degrees.
            matrix = Self.matrix(counterclockwiseDegrees: -rotate)
        }
    }

    private init(index: Int, mediaType: AVMediaType) {
        self.index = index
        self.mediaType = mediaType
    }

    /// ffprobe's dump of the 3×3 display matrix: three lines "0000000n: x y z", 16.16 values.
    static func matrix(_ text: String) -> (a: Double, b: Double, c: Double, d: Double)? {
        let values = text.split(whereSeparator: \.isNewline).flatMap { line in
            line.split(separator: ":", maxSplits: 1).last.map { $0.split(separator: " ").compactMap { Double($0) } } ?? []
        }
        guard values.count == 9 else { return nil }
        return (values[0] / 65536, values[1] / 65536, values[3] / 65536, values[4] / 65536)
    }

    /// FFmpeg's rotation convention (counter-clockwise degrees) as a QuickTime matrix.
    static func matrix(counterclockwiseDegrees degrees: Double) -> (a: Double, b: Double, c: Double, d: Double) {
        let radians = -degrees * .pi / 180
        let (sine, cosine) = (sin(radians).rounded(), cos(radians).rounded())
        return (cosine, sine, -sine, cosine)
    }
}
