import Foundation
import PhotosTestSupport
import Testing

@Suite("photos cache --videos and photos export", .blocking, .enabled(if: TestClip.isAvailable, "needs ffmpeg (apt install ffmpeg)"))
struct VideoCommandTests {
    static func size(of url: URL) throws -> (codec: String, width: Int, height: Int) {
        let data = try ExternalTool.output("/usr/bin/ffprobe", ["-v", "error", "-print_format", "json", "-show_streams", url.path])
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let video = try #require((root["streams"] as? [[String: Any]])?.first { $0["codec_type"] as? String == "video" })
        return (video["codec_name"] as? String ?? "", video["width"] as? Int ?? 0, video["height"] as? Int ?? 0)
    }

    @Test func renditionsAreWarmedCountedAndVideosExported() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let folder = temporary.scratch.appendingPathComponent("in", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try TestClip.iPhone(width: 1920, height: 1080, rotation: 90, duration: 1).write(to: folder.appendingPathComponent("IMG_0100.MOV"))
        try TestClip().write(to: folder.appendingPathComponent("plays.mp4"))
        #expect(try cli.run(["import", folder.path]).status == 0)
        #expect(try cli.run(["cache", "status"]).stdout.contains("Videos      2: 0 renditions made, 0 play as they are, 2 pending, 0 failed"))
        let warm = try cli.run(["cache", "warm", "--videos"])
        #expect(warm.status == 0, "\(warm.stderr)")
        #expect(warm.stdout.contains("Videos: 1 rendition made, 1 play as they are, 0 failed"), "\(warm.stdout)")
        #expect(try cli.run(["cache", "status"]).stdout.contains("Videos      2: 1 renditions made, 1 play as they are, 0 pending, 0 failed"))

        let hevc = try #require(try cli.list().first { ($0["pixelHeight"] as? Int) == 1920 }?["localIdentifier"] as? String)
        let out = temporary.scratch.appendingPathComponent("out", isDirectory: true)
        let export = try cli.run(["export", hevc, "--to", out.path, "--preset", "720p"])
        #expect(export.status == 0, "\(export.stderr)")
        let exported = out.appendingPathComponent("IMG_0100.mp4")
        #expect(try Self.size(of: exported) == ("h264", 720, 1280))
        let again = try cli.run(["export", hevc, "--to", out.path, "--preset", "720p"])
        #expect(again.status == 1)
        #expect(again.stderr.contains("exists"), "\(again.stderr)")
        let passthrough = try cli.run(["export", hevc, "--to", out.appendingPathComponent("p").path, "--preset", "passthrough"])
        #expect(passthrough.status == 0, "\(passthrough.stderr)")
        #expect(try Self.size(of: out.appendingPathComponent("p/IMG_0100.mp4")).codec == "hevc")
        #expect(try cli.run(["export", hevc, "--to", out.path, "--preset", "4k"]).status != 0)
    }
}
