import Foundation
import Imaging
import PhotosTestSupport
import Testing

@Suite("photos edit and revert", .blocking)
struct EditCommandTests {
    @Test func editsResumeAndRevert() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let photo = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("p.jpg"), width: 400, height: 300)
        #expect(try cli.run(["import", photo.path]).status == 0)
        let listed = try cli.list()
        let id = try #require(listed.first?["localIdentifier"] as? String)
        func size() throws -> [Int] {
            let info = try cli.run(["info", id, "--json"])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any])
            return [json["pixelWidth"] as? Int ?? 0, json["pixelHeight"] as? Int ?? 0]
        }

        let first = try cli.run(["edit", id, "--rotate", "90", "--exposure", "0.5"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("rotated 90°, exposure +0.50 EV → 300 x 400"))
        #expect(try size() == [300, 400])
        // Resumed from the original and the recipe: a second quarter turn makes 180°.
        let second = try cli.run(["edit", id, "--rotate", "90"])
        #expect(second.stdout.contains("rotated 180°, exposure +0.50 EV → 400 x 300"), "\(second.stdout)")

        let out = temporary.scratch.appendingPathComponent("versions")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        for version in ["current", "original"] {
            #expect(try cli.run(["thumbnail", id, "--size", "max", "--version", version, "-o", out.appendingPathComponent("\(version).png").path]).status == 0)
        }
        // Turned 180°: the current top-left is the original's bottom-right (red and green high).
        let current = try VipsImage(contentsOf: out.appendingPathComponent("current.png")).pixel(x: 2, y: 2)
        let original = try VipsImage(contentsOf: out.appendingPathComponent("original.png")).pixel(x: 2, y: 2)
        #expect(current[0] > 200 && original[0] < 40, "\(current) vs \(original)")

        let reverted = try cli.run(["revert", id])
        #expect(reverted.stdout.contains("Reverted 1 asset"))
        #expect(try size() == [400, 300])
        #expect(try cli.run(["revert", id]).stdout.contains("Reverted 0 assets (1 had no edit)"))

        let nothing = try cli.run(["edit", id])
        #expect(nothing.status != 0 && nothing.stderr.contains("say what to change"))
        let odd = try cli.run(["edit", id, "--rotate", "45"])
        #expect(odd.status != 0 && odd.stderr.contains("multiple of 90"))
    }
}
