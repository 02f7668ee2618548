import Foundation
import Imaging
import PhotosTestSupport
import Testing

/// Embedded thumbnails (issue 19, aim 3): read without decoding the main image, upright, with
/// a mismatched aspect ratio cropped (black letterbox bars) or rejected.
@Suite("Embedded thumbnails")
struct EmbeddedThumbnailTests {
    /// An 8-bit sRGB image: white in the left half, black in the right, `grey` rows of 200 at
    /// the top and bottom when `bars` > 0 are black rows instead (a letterbox).
    static func pattern(width: Int, height: Int, bars: Int = 0, barLevel: UInt8 = 0) throws -> VipsImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0 ..< height {
            for x in 0 ..< width {
                let value: UInt8 = y < bars || y >= height - bars ? barLevel : (x < width / 2 ? 255 : 0)
                for band in 0 ..< 3 { pixels[(y * width + x) * 3 + band] = value }
            }
        }
        return try VipsImage(pixels: Data(pixels), width: width, height: height, bands: 3)
    }

    /// A `width` × `height` JPEG with `thumbnail` written into EXIF IFD1 by exiftool.
    static func jpeg(
        in folder: TemporaryFolder, name: String, width: Int, height: Int, thumbnail: VipsImage, orientation: Int = 1
    ) throws -> URL {
        let url = try folder.write(TestImages.jpeg(width: width, height: height), to: name)
        let thumb = try folder.write(thumbnail.jpegData(quality: 90, keepMetadata: false), to: "thumb-\(name)")
        _ = try ExternalTool.exiftool(["-q", "-overwrite_original", "-ThumbnailImage<=\(thumb.path)", "-Orientation#=\(orientation)", url.path])
        #expect(try ExternalTool.exiftool(["-s3", "-ThumbnailLength", url.path]).trimmingCharacters(in: .whitespacesAndNewlines).isEmpty == false)
        return url
    }

    @Test("a JPEG's EXIF IFD1 thumbnail is read without decoding the photo, in well under a few milliseconds")
    func exifThumbnail() throws {
        let folder = try TemporaryFolder()
        let url = try Self.jpeg(in: folder, name: "a.jpg", width: 640, height: 480, thumbnail: Self.pattern(width: 160, height: 120))
        let found = try #require(EmbeddedThumbnail.read(fileAt: url))
        #expect(found.kind == .exif && !found.croppedLetterbox)
        #expect(found.image.width == 160 && found.image.height == 120)
        // White on the left, black on the right: the thumbnail, not the photo's gradient.
        let (left, right) = (try found.image.pixel(x: 20, y: 60)[0], try found.image.pixel(x: 140, y: 60)[0])
        #expect(left > 200 && right < 50)
        let start = ContinuousClock.now
        for _ in 0 ..< 20 { _ = EmbeddedThumbnail.read(fileAt: url) }
        let each = (ContinuousClock.now - start) / 20
        #expect(each < .milliseconds(20), "an embedded thumbnail took \(each)")
    }

    @Test("the main image's orientation turns the EXIF thumbnail upright", arguments: [(6, true), (8, false)])
    func orientation(orientation: Int, whiteOnTop: Bool) throws {
        let folder = try TemporaryFolder()
        let url = try Self.jpeg(
            in: folder, name: "o\(orientation).jpg", width: 640, height: 480, thumbnail: Self.pattern(width: 160, height: 120),
            orientation: orientation)
        let found = try #require(EmbeddedThumbnail.read(fileAt: url))
        #expect(found.image.width == 120 && found.image.height == 160)
        // Orientation 6 turns clockwise: the white left half goes to the top; 8 to the bottom.
        let top = try found.image.pixel(x: 60, y: 20)[0], bottom = try found.image.pixel(x: 60, y: 140)[0]
        #expect(whiteOnTop ? (top > 200 && bottom < 50) : (top < 50 && bottom > 200))
        // Checked against the upright size the caller knows (an asset's pixelWidth × pixelHeight).
        #expect(EmbeddedThumbnail.read(fileAt: url, uprightSize: (480, 640)) != nil)
        #expect(EmbeddedThumbnail.read(fileAt: url, uprightSize: (640, 480)) == nil)
    }

    @Test("the undecoded bytes: the thumbnail as stored, an orientation segment in front when the photo is turned")
    func bytes() throws {
        let folder = try TemporaryFolder()
        let plain = try Self.jpeg(in: folder, name: "p.jpg", width: 640, height: 480, thumbnail: Self.pattern(width: 160, height: 120))
        let stored = try ExternalTool.output("/usr/bin/exiftool", ["-b", "-ThumbnailImage", plain.path])
        #expect(!stored.isEmpty)
        let asIs = try #require(EmbeddedThumbnail.jpegData(fileAt: plain))
        #expect(asIs.data == stored && asIs.width == 160 && asIs.height == 120)
        let turned = try Self.jpeg(
            in: folder, name: "t.jpg", width: 640, height: 480, thumbnail: Self.pattern(width: 160, height: 120), orientation: 6)
        let upright = try #require(EmbeddedThumbnail.jpegData(fileAt: turned))
        #expect(upright.width == 120 && upright.height == 160)
        // Decoded the way a browser does (EXIF orientation applied): upright, white on top.
        let decoded = try VipsImage(data: upright.data).autorotated()
        #expect(decoded.width == 120 && decoded.height == 160)
        let (top, bottom) = (try decoded.pixel(x: 60, y: 20)[0], try decoded.pixel(x: 60, y: 140)[0])
        #expect(top > 200 && bottom < 50)
        // A letterboxed thumbnail has to be decoded to be cropped: no bytes.
        let boxed = try Self.jpeg(
            in: folder, name: "b.jpg", width: 600, height: 400, thumbnail: Self.pattern(width: 160, height: 120, bars: 6))
        #expect(EmbeddedThumbnail.jpegData(fileAt: boxed) == nil && EmbeddedThumbnail.read(fileAt: boxed) != nil)
        #expect(EmbeddedThumbnail.jpegData(fileAt: turned, uprightSize: (640, 480)) == nil)
    }

    @Test("a 4:3 thumbnail of a 3:2 photo: black letterbox bars are cropped off, anything else is rejected")
    func aspectMismatch() throws {
        let folder = try TemporaryFolder()
        // 160 × 120 with 6-row black bars holds a 160 × 108 picture (3:2 is 160 × 107).
        let boxed = try Self.jpeg(
            in: folder, name: "boxed.jpg", width: 600, height: 400, thumbnail: Self.pattern(width: 160, height: 120, bars: 6))
        let found = try #require(EmbeddedThumbnail.read(fileAt: boxed))
        #expect(found.croppedLetterbox && found.image.width == 160 && abs(found.image.height - 107) <= 1)
        let stale = try Self.jpeg(
            in: folder, name: "stale.jpg", width: 600, height: 400, thumbnail: Self.pattern(width: 160, height: 120, bars: 6, barLevel: 200))
        #expect(EmbeddedThumbnail.read(fileAt: stale) == nil, "a thumbnail of another crop is no thumbnail of this photo")
        let square = try Self.jpeg(in: folder, name: "square.jpg", width: 600, height: 400, thumbnail: Self.pattern(width: 120, height: 120))
        #expect(EmbeddedThumbnail.read(fileAt: square) == nil)
    }

    @Test("an IFD1 whose Compression is 0 still holds a JPEG thumbnail; Compression 1 (strips) does not", arguments: [(0, true), (1, false)])
    func compressionTag(compression: Int, found: Bool) throws {
        let folder = try TemporaryFolder()
        let url = try Self.jpeg(in: folder, name: "c\(compression).jpg", width: 640, height: 480, thumbnail: Self.pattern(width: 160, height: 120))
        _ = try ExternalTool.exiftool(["-q", "-overwrite_original", "-IFD1:Compression#=\(compression)", url.path])
        #expect(try ExternalTool.exiftool(["-s3", "-IFD1:Compression#", url.path]).trimmingCharacters(in: .whitespacesAndNewlines) == "\(compression)")
        let thumbnail = EmbeddedThumbnail.read(fileAt: url)
        #expect((thumbnail != nil) == found)
        #expect((EmbeddedThumbnail.jpegData(fileAt: url) != nil) == found)
        if found { #expect(thumbnail?.image.width == 160 && thumbnail?.image.height == 120) }
    }

    @Test("a JPEG without IFD1, a PNG and a video have no embedded thumbnail")
    func none() throws {
        let folder = try TemporaryFolder()
        #expect(try EmbeddedThumbnail.read(fileAt: folder.write(TestImages.jpeg(width: 320, height: 240), to: "plain.jpg")) == nil)
        #expect(try EmbeddedThumbnail.read(fileAt: folder.write(TestImages.png(width: 320, height: 240), to: "plain.png")) == nil)
        #expect(EmbeddedThumbnail.read(fileAt: folder.file("missing.jpg")) == nil)
    }

    @Test("a HEIC's thmb item, made by heif-enc, decodes through libheif")
    func heicThumbnail() throws {
        let encoder = "/usr/bin/heif-enc"
        guard FileManager.default.isExecutableFile(atPath: encoder) else {
            Issue.record("heif-enc is missing: apt-get install libheif-examples (scripts/install-deps)")
            return
        }
        let folder = try TemporaryFolder()
        let source = try folder.write(Self.pattern(width: 640, height: 480).pngData(), to: "main.png")
        let heic = folder.file("thumb.heic")
        try ExternalTool.run(encoder, ["-q", "60", "-t", "160", "-o", heic.path, source.path])
        let found = try #require(EmbeddedThumbnail.read(fileAt: heic))
        #expect(found.kind == .heif && found.image.width == 160 && found.image.height == 120)
        let (left, right) = (try found.image.pixel(x: 20, y: 60)[0], try found.image.pixel(x: 140, y: 60)[0])
        #expect(left > 200 && right < 60)
        let inMemory = try #require(EmbeddedThumbnail.read(data: Data(contentsOf: heic)))
        #expect(inMemory.image.width == 160)
        // Without -t there is none.
        let bare = folder.file("bare.heic")
        try ExternalTool.run(encoder, ["-q", "60", "-o", bare.path, source.path])
        #expect(EmbeddedThumbnail.read(fileAt: bare) == nil)
    }

    @Test("a RAW's embedded preview, turned by the RAW's orientation")
    func rawPreview() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write(RawFiles.nef(orientation: 8), to: "DSC_0001.NEF")
        let found = try #require(EmbeddedThumbnail.read(fileAt: url))
        #expect(found.kind == .raw && found.image.width == 400 && found.image.height == 600)
        #expect(EmbeddedThumbnail.read(fileAt: url, uprightSize: (4024, 6048)) != nil)
        #expect(EmbeddedThumbnail.read(fileAt: url, uprightSize: (6048, 4024)) == nil)
    }

    @Test("garbage, truncated and bit-flipped files give no thumbnail and no crash")
    func garbage() throws {
        let folder = try TemporaryFolder()
        let good = try Data(contentsOf: Self.jpeg(in: folder, name: "g.jpg", width: 640, height: 480, thumbnail: Self.pattern(width: 160, height: 120)))
        var generator = SeededGenerator(seed: 19)
        var inputs: [Data] = [Data(), Data([0xFF, 0xD8]), Data([0xFF, 0xD8, 0xFF, 0xE1, 0xFF, 0xFF] + Array("Exif\0\0MM\0*".utf8))]
        for fraction in stride(from: 0.0, to: 1.0, by: 0.05) { inputs.append(TestImages.truncated(good, keeping: fraction)) }
        for _ in 0 ..< 200 {
            var bytes = [UInt8](good)
            // Flip bytes in the headers and the EXIF segment, where the offsets are.
            for _ in 0 ..< 4 { bytes[Int.random(in: 2 ..< min(bytes.count, 20_000), using: &generator)] = UInt8.random(in: 0 ... 255, using: &generator) }
            inputs.append(Data(bytes))
        }
        var found = 0
        for input in inputs where EmbeddedThumbnail.read(data: input) != nil { found += 1 }
        // Some damaged copies still hold a sound thumbnail; the point is that none crashed.
        #expect(found < inputs.count)
        for input in try MalformedInputs.all() {
            _ = EmbeddedThumbnail.read(data: input.data)
        }
    }
}
