import Foundation
import Imaging
import PhotosTestSupport
import Testing

@Suite("photos thumbnail", .blocking)
struct ThumbnailCommandTests {
    @Test func writesTheImageAtTheSizeModeAndCropAsked() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let photo = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("p.jpg"), width: 800, height: 600)
        #expect(try cli.run(["import", photo.path]).status == 0)
        let listed = try cli.list()
        let id = try #require(listed.first?["localIdentifier"] as? String)
        let out = temporary.scratch.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)

        func made(_ arguments: [String], _ name: String) throws -> VipsImage {
            let file = out.appendingPathComponent(name)
            let result = try cli.run(["thumbnail", id, "-o", file.path] + arguments)
            #expect(result.status == 0, "\(result.stderr)")
            return try VipsImage(contentsOf: file)
        }
        let fit = try made(["--size", "200x200"], "fit.jpg")
        #expect(fit.width == 200 && fit.height == 150)
        let fill = try made(["--size", "200x200", "--mode", "fill", "--resize", "exact"], "fill.png")
        #expect(fill.width == 200 && fill.height == 200)
        #expect(fill.loader?.hasPrefix("png") == true)
        let crop = try made(["--size", "100x100", "--crop", "0.5,0.5,0.5,0.5"], "crop.webp")
        #expect(crop.width == 100 && crop.height == 75)
        #expect(crop.loader?.hasPrefix("webp") == true)
        // The crop's top left is the photo's centre: red and green half way.
        let pixel = try crop.pixel(x: 1, y: 1)
        #expect(abs(pixel[0] - 128) < 20 && abs(pixel[1] - 128) < 20, "\(pixel)")
        let full = try made(["--size", "max"], "full.jpg")
        #expect(full.width == 800 && full.height == 600)

        let bad = try cli.run(["thumbnail", id, "-o", out.appendingPathComponent("x.gif").path])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("name a .jpg, .png or .webp file"))
        let badSize = try cli.run(["thumbnail", id, "--size", "big", "-o", out.appendingPathComponent("x.jpg").path])
        #expect(badSize.status != 0)
        #expect(badSize.stderr.contains("--size big"))
    }
}
