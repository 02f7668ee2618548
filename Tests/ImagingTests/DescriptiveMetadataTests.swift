import Foundation
@testable import Imaging
import PhotosTestSupport
import Testing

/// Titles, captions and keywords written by exiftool (as digiKam, Lightroom and phones write
/// them) read back as exiftool reads them (issue 37).
@Suite("Descriptive metadata")
struct DescriptiveMetadataTests {
    /// exiftool's reading of the tags, as JSON.
    static func oracle(_ url: URL, _ tags: [String]) throws -> [String: Any] {
        let json = try ExternalTool.exiftool(["-j", "-struct", "-charset", "iptc=UTF8"] + tags.map { "-" + $0 } + [url.path])
        let list = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        return try #require(list?.first)
    }

    static func strings(_ value: Any?) -> [String] {
        switch value {
        case let list as [Any]: list.map { "\($0)" }
        case let one?: ["\(one)"]
        case nil: []
        }
    }

    @Test func xmpAndIPTCWrittenTogetherReadAsExiftoolReadsThem() throws {
        let folder = try TestImages.temporaryDirectory("descriptive")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try TestImages.writeJPEG(to: folder.appendingPathComponent("tagged.jpg"), width: 64, height: 48)
        _ = try ExternalTool.exiftool([
            "-q", "-overwrite_original", "-codedcharacterset=utf8",
            "-XMP-dc:Title=Receipt from the garage", "-XMP-dc:Description=Paid & done <in full>, Straße 5",
            "-XMP-dc:Subject=receipt", "-XMP-dc:Subject=Café", "-XMP-dc:Subject=car",
            "-XMP-lr:HierarchicalSubject=Places|Portugal|Lisbon", "-XMP-lr:HierarchicalSubject=Things|car",
            "-IPTC:Keywords=invoice", "-IPTC:Keywords=CAR", "-IPTC:Keywords=Zürich",
            "-IPTC:Caption-Abstract=the IPTC caption", "-IPTC:ObjectName=the IPTC title", url.path,
        ])
        let read = try MediaProbe.probe(fileAt: url).descriptive
        let oracle = try Self.oracle(url, ["XMP-dc:Title", "XMP-dc:Description", "XMP-dc:Subject", "XMP-lr:HierarchicalSubject", "IPTC:Keywords"])
        #expect(read.title == oracle["Title"] as? String)
        #expect(read.caption == oracle["Description"] as? String)
        #expect(read.title == "Receipt from the garage" && read.caption == "Paid & done <in full>, Straße 5")
        // dc:subject, then IPTC's, then the hierarchy's levels; each once, whatever its case.
        var expected: [String] = []
        for keyword in Self.strings(oracle["Subject"]) + Self.strings(oracle["Keywords"])
            + Self.strings(oracle["HierarchicalSubject"]).flatMap({ $0.split(separator: "|").map(String.init) })
        where !expected.contains(where: { $0.lowercased() == keyword.lowercased() }) {
            expected.append(keyword)
        }
        #expect(read.keywords == expected)
        #expect(read.keywords == ["receipt", "Café", "car", "invoice", "Zürich", "Places", "Portugal", "Lisbon", "Things"])
    }

    @Test func iptcAloneGivesTitleCaptionAndKeywordsInUTF8OrLatin1() throws {
        let folder = try TestImages.temporaryDirectory("descriptive-iptc")
        defer { try? FileManager.default.removeItem(at: folder) }
        for charset in ["utf8", "latin"] {
            let url = try TestImages.writeJPEG(to: folder.appendingPathComponent("iptc-\(charset).jpg"), width: 64, height: 48)
            var arguments = ["-q", "-overwrite_original", "-charset", "iptc=\(charset == "utf8" ? "UTF8" : "Latin")"]
            if charset == "utf8" { arguments.append("-codedcharacterset=utf8") }
            _ = try ExternalTool.exiftool(
                arguments + [
                    "-IPTC:ObjectName=Été à Lisboa", "-IPTC:Caption-Abstract=Whiteboard, façade",
                    "-IPTC:Keywords=whiteboard", "-IPTC:Keywords=réunion", url.path,
                ])
            let read = try MediaProbe.probe(fileAt: url).descriptive
            #expect(read.title == "Été à Lisboa", "\(charset)")
            #expect(read.caption == "Whiteboard, façade", "\(charset)")
            #expect(read.keywords == ["whiteboard", "réunion"], "\(charset)")
        }
    }

    @Test func xmpInAPNGAndAnAltWithSeveralLanguages() throws {
        let folder = try TestImages.temporaryDirectory("descriptive-png")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("screenshot.png")
        try TestImages.png(width: 40, height: 30).write(to: url)
        _ = try ExternalTool.exiftool([
            "-q", "-overwrite_original", "-XMP-dc:Title-fr=Le tableau", "-XMP-dc:Title=The whiteboard",
            "-XMP-dc:Subject=meeting", url.path,
        ])
        let read = try MediaProbe.probe(fileAt: url).descriptive
        #expect(read.title == "The whiteboard", "the x-default entry wins")
        #expect(read.keywords == ["meeting"] && read.caption == nil)
    }

    /// Damaged blocks (a real one cut and bit-flipped, random bytes) read without a crash.
    @Test func damagedIPTCAndXMPReadWithoutACrash() throws {
        let folder = try TestImages.temporaryDirectory("descriptive-damaged")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try TestImages.writeJPEG(to: folder.appendingPathComponent("tagged.jpg"), width: 64, height: 48)
        _ = try ExternalTool.exiftool(["-q", "-overwrite_original", "-IPTC:Keywords=a", "-IPTC:Keywords=b", "-XMP-dc:Subject=c", url.path])
        let image = try VipsImage(contentsOf: url)
        let iptc = try #require(image.iptcData)
        let xmp = try #require(image.xmpData)
        #expect(DescriptiveMetadata(xmp: xmp, iptc: iptc).keywords == ["c", "a", "b"])
        var random = SeededGenerator(seed: 37)
        for round in 0..<3_000 {
            var block = [UInt8](round % 2 == 0 ? iptc : xmp)
            block = Array(block.prefix(Int.random(in: 0...block.count, using: &random)))
            for _ in 0..<Int.random(in: 0...4, using: &random) where !block.isEmpty {
                block[Int.random(in: 0..<block.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
            }
            if round % 5 == 0 { block = (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) } }
            _ = DescriptiveMetadata(xmp: round % 2 == 1 ? Data(block) : nil, iptc: round % 2 == 0 ? Data(block) : nil)
        }
    }

    @Test func aPhotoWithoutAnyIsEmpty() throws {
        #expect(try MediaProbe.probe(data: TestImages.jpeg()).descriptive.isEmpty)
    }
}
