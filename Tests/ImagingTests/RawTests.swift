import Foundation
import Imaging
import PhotosTestSupport
import Testing

/// TIFF-based RAW files are parsed in Swift (never handed to libvips, which may pass them to
/// ImageMagick and decode everything) and thumbnailed from their embedded JPEG preview.
@Suite("RAW and TIFF structure")
struct RawTests {
    static func raw(orientation: Int = 1, dng: Bool = false) throws -> Data {
        try RawFiles.nef(orientation: orientation, dng: dng)
    }

    @Test("a NEF: EXIF from the file's own IFDs, size from PixelX/YDimension")
    func nef() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write(Self.raw(orientation: 8), to: "DSC_0001.NEF")
        let m = try MediaProbe.probe(fileAt: url)
        #expect(m.format == .nef && m.format.isRAW)
        #expect(m.pixelWidth == 6048 && m.pixelHeight == 4024)
        #expect(m.orientation == 8 && m.orientedPixelWidth == 4024)
        #expect(m.make == "NIKON CORPORATION" && m.model == "NIKON Z 6")
        #expect(m.captureDate == utc(2021, 7, 4, 8, 11, 12) && m.captureTimeZoneOffset == 7200)
        #expect(m.location?.latitude == 46.5)
    }

    @Test("the RAW thumbnail comes from the embedded preview, turned upright")
    func rawThumbnail() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write(Self.raw(orientation: 8), to: "DSC_0002.NEF")
        let thumb = try VipsImage.thumbnail(fileAt: url, width: 300, height: 300)
        #expect(thumb.width == 200 && thumb.height == 300)
        let upright = try VipsImage.thumbnail(fileAt: folder.write(Self.raw(), to: "DSC_0003.NEF"), width: 300, height: 300)
        #expect(upright.width == 300 && upright.height == 200)
    }

    @Test("the same bytes named .tif are a TIFF sized by IFD0; DNGVersion makes a DNG")
    func tiffAndDNG() throws {
        let folder = try TemporaryFolder()
        let tiff = try MediaProbe.probe(fileAt: folder.write(Self.raw(), to: "scan.tif"))
        #expect(tiff.format == .tiff && tiff.pixelWidth == 160 && tiff.pixelHeight == 120)
        let dng = try MediaProbe.probe(fileAt: folder.write(Self.raw(dng: true), to: "IMG_0001.tif"))
        #expect(dng.format == .dng && dng.pixelWidth == 6048)
        #expect(try MediaProbe.probe(data: Self.raw(), filenameExtension: "arw").format == .arw)
    }

    @Test("a RAW cut short (its preview runs past the end) is corrupt")
    func truncatedRAW() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write(TestImages.truncated(Self.raw(), keeping: 0.7), to: "cut.nef")
        do {
            _ = try MediaProbe.probe(fileAt: url)
            Issue.record("a truncated NEF was accepted")
        } catch {
            #expect(error.code == .corrupt)
            #expect(error.message.contains(url.path))
        }
        #expect(throws: ImagingError.self) { try VipsImage.thumbnail(fileAt: url, width: 64, height: 64) }
    }
}
