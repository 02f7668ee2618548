import Foundation
import Photos
import Imaging
import PhotosTestSupport
import Testing

/// `photos search` (issue 37): what a search finds, as lines or JSON, best match first; a
/// query past the limit is refused naming it.
@Suite("photos search", .blocking)
struct SearchCommandTests {
    @Test func findsByWordsAboutAPhotoAndRefusesTheAbsurd() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let receipt = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("scan.jpg"), width: 64, height: 48)
        _ = try ExternalTool.exiftool(["-q", "-overwrite_original", "-XMP-dc:Title=Garage receipt", "-XMP-dc:Subject=invoice", receipt.path])
        let other = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("IMG_2041.jpg"), width: 64, height: 48)
        let imported = try cli.run(["import", receipt.path, other.path])
        #expect(imported.status == 0, "\(imported.stderr)")

        let found = try cli.run(["search", "garage receipt", "--json"])
        #expect(found.status == 0, "\(found.stderr)")
        let assets = try JSONSerialization.jsonObject(with: Data(found.stdout.utf8)) as? [[String: Any]] ?? []
        let id = try #require(assets.count == 1 ? assets[0]["localIdentifier"] as? String : nil, "\(found.stdout)")
        let byKeyword = try cli.run(["search", "INVOICE"]).stdout.split(separator: "\n")
        #expect(byKeyword.count == 1 && byKeyword[0].contains(id), "\(byKeyword)")
        let byName = try cli.run(["search", "img_2041"]).stdout.split(separator: "\n")
        #expect(byName.count == 1 && !byName[0].contains(id) && byName[0].contains("/L0/001"), "\(byName)")
        #expect(try cli.run(["search", "jpg", "--limit", "1"]).stdout.split(separator: "\n").count == 1)
        #expect(try cli.run(["search", "nothing-like-this"]).stdout.isEmpty)

        let long = try cli.run(["search", String(repeating: "a", count: 1001)])
        #expect(long.status != 0 && long.stderr.contains("1000 bytes"), "\(long.stderr)")
        let badLimit = try cli.run(["search", "x", "--limit", "0"])
        #expect(badLimit.status != 0 && badLimit.stderr.contains("--limit"), "\(badLimit.stderr)")
    }
}

extension SearchCommandTests {
    @Test(.enabled(if: TextRecognizer.executable != nil, "needs tesseract (apt install tesseract-ocr)"))
    func cacheWarmReadsTheTextInPhotos() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let sign = temporary.scratch.appendingPathComponent("sign.jpg")
        try VipsImage.text("Zanzibar harbour", dpi: 300).jpegData(quality: 92).write(to: sign)
        #expect(try cli.run(["import", sign.path]).status == 0)
        #expect(try cli.run(["search", "zanzibar"]).stdout.isEmpty, "not read yet")
        let warm = try cli.run(["cache", "warm", "--text", "--text-languages", "eng+deu"])
        #expect(warm.status == 0 && warm.stdout.contains("Text: 1 photo read"), "\(warm.stdout) \(warm.stderr)")
        #expect(try cli.run(["search", "zanzibar"]).stdout.split(separator: "\n").count == 1)
        #expect(try cli.run(["cache", "status"]).stdout.contains("Text        1 photos: 1 read"))
        let unknown = try cli.run(["cache", "warm", "--text", "--text-languages", "eng+xyz"])
        #expect(unknown.status != 0 && unknown.stderr.contains("xyz not installed"), "\(unknown.stderr)")
    }
}
