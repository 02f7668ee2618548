import Foundation
import PhotosTestSupport
import Testing

@testable import Imaging

/// What a file says about how it was taken: Apple's maker note, CustomRendered, XMP.
@Suite("Capture evidence")
struct CaptureEvidenceTests {
    @Test("an iPhone maker note: HDR, burst, Live Photo key, Portrait, front camera — read as exiftool reads it")
    func appleMakerNote() throws {
        let folder = try TestImages.temporaryDirectory("evidence")
        defer { try? FileManager.default.removeItem(at: folder) }
        var exif = ExifBuilder(make: "Apple", model: "iPhone 15", dateTimeOriginal: "2024:05:06 07:08:09")
        exif.appleMakerNote = ExifBuilder.AppleMakerNote(
            hdrImageType: 3, burstUUID: "0d6c3e9b-8f0e-4c55-9d3f-3a1c0c2f1e77",
            contentIdentifier: "A1B2C3D4-0000-4000-8000-123456789ABC", imageCaptureType: 2, frontFacingCamera: true)
        let url = folder.appendingPathComponent("IMG_0001.JPG")
        try TestImages.jpegWithRawExif(exif).write(to: url)

        let metadata = try MediaProbe.probe(fileAt: url)
        #expect(metadata.isHDR)
        #expect(metadata.isPortrait)
        #expect(metadata.isFrontCamera)
        #expect(metadata.burstIdentifier == "0D6C3E9B-8F0E-4C55-9D3F-3A1C0C2F1E77")
        #expect(metadata.contentIdentifier == "A1B2C3D4-0000-4000-8000-123456789ABC")

        // The oracle reads the same note the same way (so the note is laid out as Apple's are).
        // (Debian 12's exiftool 12.57 has no name for tags 0x0011 and 0x0014 yet.)
        let printed = try ExternalTool.exiftool(["-s3", "-n", "-HDRImageType", "-BurstUUID", "-FrontFacingCamera", url.path])
        #expect(printed.split(separator: "\n") == ["3", "0d6c3e9b-8f0e-4c55-9d3f-3a1c0c2f1e77", "1"])
    }

    @Test("no maker note, no evidence")
    func plainCamera() throws {
        let metadata = try MediaProbe.probe(data: try TestImages.jpeg(exif: ExifBuilder(make: "Canon", model: "EOS R6")))
        #expect(!metadata.isHDR && !metadata.isPortrait && !metadata.isPanorama && !metadata.isFrontCamera)
        #expect(metadata.burstIdentifier == nil && metadata.contentIdentifier == nil)
    }

    @Test("CustomRendered: 6 a panorama, 3 HDR, 8 Portrait", arguments: [(6, "panorama"), (3, "hdr"), (8, "portrait")])
    func customRendered(value: Int, kind: String) throws {
        var exif = ExifBuilder(make: "Apple", model: "iPhone 8")
        exif.customRendered = value
        let metadata = try MediaProbe.probe(data: try TestImages.jpeg(exif: exif))
        #expect(metadata.isPanorama == (kind == "panorama"))
        #expect(metadata.isHDR == (kind == "hdr"))
        #expect(metadata.isPortrait == (kind == "portrait"))
    }

    @Test("XMP written by exiftool: a photo-sphere panorama and an editor's CreateDate")
    func xmpWrittenByExiftool() throws {
        let folder = try TestImages.temporaryDirectory("evidence-xmp")
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try TestImages.writeJPEG(to: folder.appendingPathComponent("sphere.jpg"), width: 96, height: 48)
        _ = try ExternalTool.exiftool([
            "-q", "-overwrite_original", "-XMP-GPano:ProjectionType=equirectangular",
            "-XMP-xmp:CreateDate=2019:07:14 18:30:00+02:00", url.path,
        ])
        let metadata = try MediaProbe.probe(fileAt: url)
        #expect(metadata.isPanorama)
        #expect(metadata.captureDate == Date(timeIntervalSince1970: 1_563_121_800))
        #expect(metadata.captureTimeZoneOffset == 7200)
    }

    @Test("a Live Photo movie's content identifier")
    func movieContentIdentifier() throws {
        var movie = TestMovie()
        movie.brand = .mov
        movie.appleKeys = ["com.apple.quicktime.content.identifier": "a1b2c3d4-0000-4000-8000-123456789abc"]
        let metadata = try MediaProbe.probe(data: movie.data())
        #expect(metadata.contentIdentifier == "A1B2C3D4-0000-4000-8000-123456789ABC")
    }
}
