import Foundation
import Imaging
import PhotosTestSupport
import Testing

/// Damaged, truncated, missing and foreign files: the right error, naming the file.
@Suite("Bad input")
struct BadInputTests {
    func expectError(_ code: ImagingError.Code, naming url: URL, _ body: () throws -> Void,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            try body()
            Issue.record("expected \(code) for \(url.lastPathComponent)", sourceLocation: sourceLocation)
        } catch let error as ImagingError {
            #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
            #expect(error.message.contains(url.path), "\(error.message)", sourceLocation: sourceLocation)
            #expect(error.description.contains(url.path), sourceLocation: sourceLocation)
            #expect(error.url == url, sourceLocation: sourceLocation)
        } catch {
            Issue.record("expected an ImagingError, got \(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("a 0-byte file is corrupt")
    func empty() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write(Data(), to: "empty.jpg")
        expectError(.corrupt, naming: url) { _ = try MediaProbe.probe(fileAt: url) }
        expectError(.corrupt, naming: url) { _ = try VipsImage(contentsOf: url) }
        expectError(.corrupt, naming: url) { _ = try VipsImage.thumbnail(fileAt: url, width: 64, height: 64) }
    }

    @Test("random bytes are not a photo or video")
    func randomBytes() throws {
        let folder = try TemporaryFolder()
        var rng = SystemRandomNumberGenerator()
        let bytes = Data((0 ..< 4096).map { _ in UInt8.random(in: 0 ... 255, using: &rng) } .dropFirst(0).map { $0 == 0xFF ? 0 : $0 })
        let url = try folder.write(bytes, to: "noise.bin")
        expectError(.unsupportedFormat, naming: url) { _ = try MediaProbe.probe(fileAt: url) }
        let error = #expect(throws: ImagingError.self) { try MediaProbe.probe(fileAt: url) }
        #expect(error?.message.contains("is not a photo or video this library can read") == true)
        #expect(error?.message.contains("starts with bytes") == true)
        expectError(.unsupportedFormat, naming: url) { _ = try VipsImage(contentsOf: url) }
        expectError(.unsupportedFormat, naming: url) { _ = try VipsImage.thumbnail(fileAt: url, width: 64, height: 64) }
    }

    @Test("a text file renamed .jpg")
    func textFile() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write(Data("Dear diary, today I took no photos.\n".utf8), to: "IMG_1234.jpg")
        expectError(.unsupportedFormat, naming: url) { _ = try MediaProbe.probe(fileAt: url) }
        expectError(.unsupportedFormat, naming: url) { _ = try MediaFormat.detectFile(url) }
    }

    @Test("a JPEG cut in half: libvips reads its header, the probe refuses it, thumbnails fail")
    func truncatedJPEG() throws {
        let folder = try TemporaryFolder()
        let whole = try TestImages.jpeg(width: 640, height: 480, exif: ExifBuilder(make: "Canon"), noisy: true)
        let url = try folder.write(TestImages.truncated(whole, keeping: 0.5), to: "half.jpg")
        // libvips itself opens the header happily: the truncation is only in the pixels.
        let header = try VipsImage(contentsOf: url)
        #expect(header.width == 640)
        expectError(.corrupt, naming: url) { try header.validatePixels() }
        expectError(.corrupt, naming: url) { _ = try MediaProbe.probe(fileAt: url) }
        expectError(.corrupt, naming: url) { _ = try VipsImage.thumbnail(fileAt: url, width: 128, height: 128) }
        #expect(throws: ImagingError.self) { try MediaProbe.probe(data: TestImages.truncated(whole, keeping: 0.5)) }
        // The whole file is fine.
        #expect(try MediaProbe.probe(data: whole).make == "Canon")
        try VipsImage(data: whole).validatePixels()
    }

    @Test("a JPEG cut inside its header segments")
    func truncatedJPEGHeader() throws {
        let folder = try TemporaryFolder()
        let whole = try TestImages.jpeg(exif: ExifBuilder(make: "Canon", userComment: String(repeating: "x", count: 500)))
        let url = try folder.write(whole.prefix(300), to: "header.jpg")
        expectError(.corrupt, naming: url) { _ = try MediaProbe.probe(fileAt: url) }
    }

    @Test("a JPEG with data after its end marker (motion photo, vendor trailer) is fine")
    func trailingData() throws {
        let whole = try TestImages.jpeg(width: 320, height: 240, noisy: true)
        let appended = whole + TestMovie().data() + Data(repeating: 0x42, count: 200_000)
        let m = try MediaProbe.probe(data: appended)
        #expect(m.format == .jpeg && m.pixelWidth == 320)
    }

    @Test("a truncated PNG, WebP and GIF", arguments: ["png", "webp", "gif"])
    func truncatedOthers(_ kind: String) throws {
        let folder = try TemporaryFolder()
        let image = try VipsImage.noisyGradient(width: 200, height: 150)
        let whole: Data = switch kind {
        case "png": try image.pngData()
        case "webp": try image.webpData()
        default: try image.gifData()
        }
        #expect(try MediaProbe.probe(data: whole).pixelWidth == 200)
        let url = try folder.write(TestImages.truncated(whole, keeping: 0.6), to: "cut.\(kind)")
        expectError(.corrupt, naming: url) { _ = try MediaProbe.probe(fileAt: url) }
    }

    @Test("a truncated HEIC", .enabled(if: VipsImage.canSaveHEIF))
    func truncatedHEIC() throws {
        let folder = try TemporaryFolder()
        let whole = try VipsImage.noisyGradient(width: 256, height: 256).heifData()
        #expect(try MediaProbe.probe(data: whole).format == .heic)
        let url = try folder.write(TestImages.truncated(whole, keeping: 0.5), to: "cut.heic")
        expectError(.corrupt, naming: url) { _ = try MediaProbe.probe(fileAt: url) }
    }

    @Test("a missing file and a directory are unreadable")
    func missing() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("does-not-exist.jpg")
        expectError(.unreadable, naming: url) { _ = try MediaProbe.probe(fileAt: url) }
        expectError(.unreadable, naming: url) { _ = try VipsImage(contentsOf: url) }
        expectError(.unreadable, naming: url) { _ = try VipsImage.thumbnail(fileAt: url, width: 64, height: 64) }
        expectError(.unreadable, naming: folder.url) { _ = try MediaProbe.probe(fileAt: folder.url) }
    }

    @Test("an MP4 without moov, and one cut short")
    func brokenMovies() throws {
        let folder = try TemporaryFolder()
        var movie = TestMovie()
        movie.omitMoov = true
        let noMoov = try folder.write(movie.data(), to: "nomoov.mp4")
        expectError(.corrupt, naming: noMoov) { _ = try MediaProbe.probe(fileAt: noMoov) }
        let error = #expect(throws: ImagingError.self) { try MediaProbe.probe(fileAt: noMoov) }
        #expect(error?.message.contains("moov") == true, "\(String(describing: error))")
        movie = TestMovie()
        movie.mediaDataSize = 100_000
        let cut = try folder.write(TestImages.truncated(movie.data(), keeping: 0.5), to: "cut.mov")
        expectError(.corrupt, naming: cut) { _ = try MediaProbe.probe(fileAt: cut) }
    }

    @Test("videos are not images for libvips")
    func videoThumbnail() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write(TestMovie().data(), to: "clip.mp4")
        expectError(.unsupportedFormat, naming: url) { _ = try VipsImage(contentsOf: url) }
        expectError(.unsupportedFormat, naming: url) { _ = try VipsImage.thumbnail(fileAt: url, width: 64, height: 64) }
    }

    @Test("errors from bytes in memory name <data>")
    func dataErrors() {
        #expect(throws: ImagingError.self) { try MediaProbe.probe(data: Data()) }
        let error = #expect(throws: ImagingError.self) { try MediaProbe.probe(data: Data("not an image".utf8)) }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.contains("<data>") == true)
        #expect(error != nil && error?.url == nil)
    }
}

extension MediaFormat {
    /// Test helper: the format of a file, as MediaProbe sniffs it.
    static func detectFile(_ url: URL) throws -> MediaFormat {
        try MediaProbe.format(ofFileAt: url)
    }
}
