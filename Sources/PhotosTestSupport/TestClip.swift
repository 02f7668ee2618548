public import Foundation
import PhotosLocking

/// A real, playable movie made by `ffmpeg` for a test: a moving test pattern (and a tone),
/// in the codec, container, size, rate and rotation asked for, with Apple's QuickTime keys
/// when given. Clips are made once per process and spec, then copied to where a test wants
/// them.
public struct TestClip: Hashable, Sendable {
    public enum Codec: String, Sendable { case h264, hevc }
    public enum Container: String, Sendable { case mp4, mov }

    public var codec = Codec.h264
    public var container = Container.mp4
    /// Encoded (unrotated) frame size.
    public var width = 320
    public var height = 240
    public var duration: Double = 2
    public var frameRate = 30
    /// Display rotation, clockwise degrees (0, 90, 180, 270): written into the video track's
    /// matrix as Apple's cameras write it (90 is a portrait iPhone video).
    public var rotation = 0
    public var audio = true
    /// `mdta` keys (`com.apple.quicktime.content.identifier`, `...creationdate`,
    /// `...location.ISO6709`, `...make`, `...model`); MOV only.
    public var appleKeys: [String: String] = [:]
    /// Movie header first, as a web-optimised file has it.
    public var fastStart = false

    public init() {}

    /// A clip as an iPhone records: HEVC in a MOV, 1920×1080 turned 90° (portrait)... at a
    /// small size unless given.
    public static func iPhone(width: Int = 640, height: Int = 360, rotation: Int = 90, duration: Double = 2) -> TestClip {
        var clip = TestClip()
        clip.codec = .hevc
        clip.container = .mov
        clip.width = width
        clip.height = height
        clip.rotation = rotation
        clip.duration = duration
        return clip
    }

    /// Whether `ffmpeg` can be run here (tests that need it are skipped without it).
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg") }

    /// Writes the clip to `url` (a copy of the process's cached one).
    @discardableResult
    public func write(to url: URL) throws -> URL {
        let made = try cachedFile()
        try? FileManager.default.removeItem(at: url)
        try FileManager.default.copyItem(at: made, to: url)
        return url
    }

    private static let made = Mutex<[TestClip: URL]>([:])
    private static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("photokit-clips-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    private func cachedFile() throws -> URL {
        if let url = Self.made.withLock({ $0[self] }) { return url }
        let url = Self.folder.appendingPathComponent("\(UUID().uuidString).\(container.rawValue)")
        try render(to: url)
        Self.made.withLock { $0[self] = url }
        return url
    }

    private func render(to url: URL) throws {
        var arguments = [
            "-v", "error", "-nostdin", "-y",
            "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=\(frameRate):duration=\(duration)",
        ]
        if audio { arguments += ["-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration=\(duration)"] }
        switch codec {
        case .h264: arguments += ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"]
        case .hevc: arguments += ["-c:v", "libx265", "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-tag:v", "hvc1", "-x265-params", "log-level=error"]
        }
        if audio { arguments += ["-c:a", "aac", "-b:a", "64k"] }
        if !appleKeys.isEmpty {
            arguments += ["-movflags", "use_metadata_tags"]
            for (key, value) in appleKeys.sorted(by: { $0.key < $1.key }) { arguments += ["-metadata", "\(key)=\(value)"] }
        }
        if fastStart { arguments += ["-movflags", "+faststart"] }
        arguments += ["-f", container.rawValue, url.path]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "ffmpeg could not make \(self): \(message)"])
        }
        if rotation != 0 { try Self.setRotation(rotation, width: width, height: height, of: url) }
    }

    /// Rewrites the first track header's matrix (the video track: ffmpeg writes it first) as
    /// Apple's cameras do: a quarter turn clockwise is `[0 1; -1 0]` moved right by the height.
    public static func setRotation(_ degrees: Int, width: Int, height: Int, of url: URL) throws {
        var data = try Data(contentsOf: url)
        guard let range = data.range(of: Data("tkhd".utf8)) else { throw CocoaError(.fileReadCorruptFile) }
        let version = data[range.upperBound]
        let matrixOffset = range.upperBound + (version == 1 ? 52 : 40)
        let (a, b, c, d, tx, ty): (Int32, Int32, Int32, Int32, Int32, Int32) =
            switch degrees {
            case 90: (0, 1, -1, 0, Int32(height), 0)
            case 180: (-1, 0, 0, -1, Int32(width), Int32(height))
            case 270: (0, -1, 1, 0, 0, Int32(width))
            default: (1, 0, 0, 1, 0, 0)
            }
        let values: [Int32] = [a << 16, b << 16, 0, c << 16, d << 16, 0, tx << 16, ty << 16, 1 << 30]
        var bytes: [UInt8] = []
        for value in values {
            let bits = UInt32(bitPattern: value)
            bytes += [UInt8(bits >> 24), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits & 0xFF)]
        }
        data.replaceSubrange(matrixOffset..<matrixOffset + 36, with: bytes)
        try data.write(to: url)
    }

    /// A damaged movie: the first `fraction` of a real clip's bytes (its index, at the end
    /// of the file, is lost).
    public func writeTruncated(to url: URL, keeping fraction: Double) throws {
        let data = try Data(contentsOf: try cachedFile())
        try data.prefix(Int(Double(data.count) * fraction)).write(to: url)
    }
}
