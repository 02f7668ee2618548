import Foundation
import Imaging
import PhotosTestSupport
import Testing

@Suite("Encoding and metadata attachment")
struct EncodingTests {
    @Test("each encoder's output decodes with the matching loader")
    func encoders() throws {
        let image = try VipsImage.noisyGradient(width: 120, height: 80)
        var cases: [(Data, String, MediaFormat)] = [
            (try image.jpegData(quality: 90), "jpegload", .jpeg),
            (try image.pngData(), "pngload", .png),
            (try image.webpData(quality: 75), "webpload", .webp),
            (try image.gifData(), "gifload", .gif),
        ]
        if VipsImage.canSaveHEIF {
            cases.append((try image.heifData(quality: 50), "heifload", .heic))
            cases.append((try image.avifData(quality: 50), "heifload", .avif))
        }
        for (data, loader, format) in cases {
            let decoded = try VipsImage(data: data)
            #expect(decoded.loader == loader)
            #expect(decoded.width == 120 && decoded.height == 80)
            #expect(MediaFormat.detect(header: [UInt8](data.prefix(64))) == format)
            #expect(try MediaProbe.probe(data: data).format == format)
        }
    }

    @Test("JPEG quality changes the size")
    func quality() throws {
        let image = try VipsImage.noisyGradient(width: 200, height: 200)
        #expect(try image.jpegData(quality: 30).count < image.jpegData(quality: 95).count)
    }

    @Test("withExif attaches the block; keepMetadata false strips it")
    func exifAttachment() throws {
        let exif = ExifBuilder(make: "Fujifilm", orientation: 3)
        let tagged = try VipsImage.gradient(width: 40, height: 30).withExif(exif.exifData())
        #expect(tagged.orientation == 3)
        let blob = try #require(tagged.exifData)
        #expect(blob.starts(with: Data("Exif\0\0".utf8)))

        let kept = try MediaProbe.probe(data: tagged.jpegData())
        #expect(kept.make == "Fujifilm" && kept.orientation == 3)
        let stripped = try MediaProbe.probe(data: tagged.jpegData(keepMetadata: false))
        #expect(stripped.make == nil && stripped.orientation == 1)

        // A bare TIFF structure gets the Exif header added; replacing EXIF drops the old fields.
        let retagged = try VipsImage(data: tagged.jpegData()).withExif(ExifBuilder(model: "X100V").tiffData())
        let probed = try MediaProbe.probe(data: retagged.jpegData())
        #expect(probed.make == nil && probed.model == "X100V" && probed.orientation == 1)
        #expect(try MediaProbe.probe(data: tagged.withoutExif().jpegData()).make == nil)
    }

    @Test("loaded files expose their EXIF blob as libvips stores it")
    func exifFromFile() throws {
        let data = try TestImages.jpeg(exif: ExifBuilder(make: "Leica"))
        let image = try VipsImage(data: data)
        let blob = try #require(image.exifData)
        #expect(blob.starts(with: Data("Exif\0\0".utf8)))
        #expect(image.pageCount == 1)
        #expect(image.loader == "jpegload")
        #expect(image.iccProfile == nil)
    }

    @Test("generated test images are real RGB photos of the asked size")
    func synthetic() throws {
        let gradient = try VipsImage.gradient(width: 31, height: 17)
        #expect(gradient.width == 31 && gradient.height == 17 && gradient.bands == 3 && !gradient.hasAlpha)
        let noisy = try VipsImage.noisyGradient(width: 300, height: 200)
        // Noise defeats compression: the noisy JPEG is much bigger than the smooth one.
        #expect(try noisy.jpegData().count > 3 * VipsImage.gradient(width: 300, height: 200).jpegData().count)
        #expect(throws: ImagingError.self) { try VipsImage.gradient(width: 0, height: 10) }
    }
}
