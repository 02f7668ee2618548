import Foundation
import Imaging
import PhotosTestSupport
import Testing

/// Shrink-on-load thumbnails, autorotation, crops and resizes on generated photos.
@Suite("Thumbnails and geometry")
struct ThumbnailTests {
    @Test("fit inside the box, or fill it when cropping")
    func fitAndCrop() throws {
        let folder = try TemporaryFolder()
        let url = try TestImages.writeJPEG(to: folder.file("wide.jpg"), width: 800, height: 600, noisy: true)
        let fit = try VipsImage.thumbnail(fileAt: url, width: 256, height: 256)
        #expect(fit.width == 256 && fit.height == 192)
        let fill = try VipsImage.thumbnail(fileAt: url, width: 256, height: 256, crop: true)
        #expect(fill.width == 256 && fill.height == 256)
        let fromData = try VipsImage.thumbnail(data: try Data(contentsOf: url), width: 100, height: 300)
        #expect(fromData.width == 100 && fromData.height == 75)
        #expect(fit.sourceURL == url)
    }

    @Test("no upscaling when asked")
    func noUpscale() throws {
        let data = try TestImages.jpeg(width: 120, height: 90)
        let up = try VipsImage.thumbnail(data: data, width: 480, height: 480)
        #expect(up.width == 480 && up.height == 360)
        let kept = try VipsImage.thumbnail(data: data, width: 480, height: 480, upscale: false)
        #expect(kept.width == 120 && kept.height == 90)
    }

    @Test("EXIF orientation 6 makes a landscape-stored photo a portrait thumbnail", arguments: [6, 8, 5, 7])
    func autorotate(_ orientation: Int) throws {
        let data = try TestImages.jpeg(width: 400, height: 300, exif: ExifBuilder(orientation: orientation))
        let thumb = try VipsImage.thumbnail(data: data, width: 200, height: 200)
        #expect(thumb.width == 150 && thumb.height == 200)
        #expect(thumb.orientation == 1)
        let image = try VipsImage(data: data)
        #expect(image.orientation == orientation)
        #expect(image.width == 400)
        let upright = try image.autorotated()
        #expect(upright.width == 300 && upright.height == 400)
        let resized = try image.resized(toFit: 100, height: 100)
        #expect(resized.width == 75 && resized.height == 100)
    }

    @Test("autorotation turns the pixels, not only the size")
    func autorotatePixels() throws {
        // Stored 64x32: red grows left to right, green top to bottom. Orientation 6 turns it 90°
        // clockwise: the stored left column becomes the top row, bottom-left comes to top-left.
        let stored = try VipsImage(data: TestImages.png(width: 64, height: 32, exif: ExifBuilder(orientation: 6)))
        #expect(try stored.pixel(x: 0, y: 31) == [0, 255, 128])
        let upright = try stored.autorotated()
        #expect(upright.width == 32 && upright.height == 64)
        #expect(try upright.pixel(x: 0, y: 0) == [0, 255, 128])
        #expect(try upright.pixel(x: 31, y: 0) == [0, 0, 128])
        #expect(try upright.pixel(x: 0, y: 63) == [255, 255, 128])
        #expect(throws: ImagingError.self) { try upright.pixel(x: 32, y: 0) }
    }

    @Test("a file replaced on disk is read afresh, not from a cache")
    func replacedFile() throws {
        let folder = try TemporaryFolder()
        let url = folder.file("edited.jpg")
        try TestImages.writeJPEG(to: url, width: 40, height: 30)
        #expect(try VipsImage(contentsOf: url).width == 40)
        #expect(try MediaProbe.probe(fileAt: url).pixelWidth == 40)
        try TestImages.writeJPEG(to: url, width: 50, height: 90)
        #expect(try VipsImage(contentsOf: url).width == 50)
        #expect(try MediaProbe.probe(fileAt: url).pixelWidth == 50)
        #expect(try VipsImage.thumbnail(fileAt: url, width: 20, height: 20).height == 20)
    }

    @Test("crops inside the image; crops outside it are refused")
    func crops() throws {
        let image = try VipsImage.gradient(width: 100, height: 80)
        let piece = try image.cropped(x: 10, y: 20, width: 30, height: 40)
        #expect(piece.width == 30 && piece.height == 40 && piece.bands == 3)
        for (x, y, w, h) in [(-1, 0, 10, 10), (0, 0, 101, 10), (90, 0, 11, 10), (0, 0, 0, 10), (0, 79, 10, 2)] {
            #expect(throws: ImagingError.self) { try image.cropped(x: x, y: y, width: w, height: h) }
        }
    }

    @Test("a zero or absurd thumbnail size is an invalid argument")
    func badSizes() throws {
        let data = try TestImages.jpeg()
        for (w, h) in [(0, 100), (100, 0), (-5, 5), (1_000_000, 10)] {
            do {
                _ = try VipsImage.thumbnail(data: data, width: w, height: h)
                Issue.record("accepted \(w)x\(h)")
            } catch {
                #expect(error.code == .invalidArgument)
            }
        }
    }

    @Test("lossless WebP round trip")
    func losslessWebP() throws {
        let rgb = try VipsImage.gradient(width: 50, height: 50)
        #expect(!rgb.hasAlpha && rgb.bands == 3)
        let webpLossless = try rgb.webpData(lossless: true)
        let back = try VipsImage(data: webpLossless)
        #expect(back.width == 50 && back.loader == "webpload")
    }
}
