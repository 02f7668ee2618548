import Foundation
import Imaging
import PhotosTestSupport
import Testing

/// EXIF written with ExifBuilder into real files encoded by libvips, read back by MediaProbe.
@Suite("EXIF round trips through real encoders")
struct ExifRoundTripTests {
    static let fullExif: ExifBuilder = {
        var exif = ExifBuilder(
            make: "Apple", model: "iPhone 15 Pro", orientation: 1, software: "17.1",
            dateTimeOriginal: "2023:10:14 09:41:27", subSecTimeOriginal: "250", offsetTimeOriginal: "-07:00",
            lensModel: "iPhone 15 Pro back triple camera 6.765mm f/1.78", userComment: "Screenshot",
            latitude: 37.33182, longitude: -122.03118, altitude: 12.5)
        exif.gpsHorizontalError = 4.7
        exif.gpsTimestamp = utc(2023, 10, 14, 16, 41, 26)
        return exif
    }()

    func checkFull(_ m: MediaMetadata, format: MediaFormat, width: Int = 64, height: Int = 48) {
        #expect(m.format == format)
        #expect(m.pixelWidth == width)
        #expect(m.pixelHeight == height)
        #expect(m.make == "Apple")
        #expect(m.model == "iPhone 15 Pro")
        #expect(m.software == "17.1")
        #expect(m.lensModel == "iPhone 15 Pro back triple camera 6.765mm f/1.78")
        #expect(m.userComment == "Screenshot")
        // 09:41:27.25 at -07:00 is 16:41:27.25 UTC.
        #expect(m.captureDate == utc(2023, 10, 14, 16, 41, 27).addingTimeInterval(0.25))
        #expect(m.captureTimeZoneOffset == -7 * 3600)
        guard let location = m.location else {
            Issue.record("no location in \(format)")
            return
        }
        #expect(abs(location.latitude - 37.33182) < 1e-7)
        #expect(abs(location.longitude - -122.03118) < 1e-7)
        #expect(location.altitude == 12.5)
        #expect(location.horizontalAccuracy == 4.7)
        #expect(location.timestamp == utc(2023, 10, 14, 16, 41, 26))
        #expect(m.duration == 0)
        #expect(m.frameRate == nil)
        #expect(m.frameCount == 1)
        #expect(!m.isAnimated)
    }

    @Test("JPEG keeps every field")
    func jpeg() throws {
        let data = try TestImages.jpeg(exif: Self.fullExif)
        checkFull(try MediaProbe.probe(data: data), format: .jpeg)
    }

    @Test("JPEG file on disk keeps every field")
    func jpegFile() throws {
        let folder = try TemporaryFolder()
        let url = try TestImages.writeJPEG(to: folder.file("IMG_0001.JPG"), exif: Self.fullExif)
        checkFull(try MediaProbe.probe(fileAt: url), format: .jpeg)
    }

    @Test("big-endian EXIF survives a JPEG round trip")
    func bigEndian() throws {
        var exif = Self.fullExif
        exif.byteOrder = .bigEndian
        checkFull(try MediaProbe.probe(data: try TestImages.jpeg(exif: exif)), format: .jpeg)
    }

    @Test("WebP keeps every field")
    func webp() throws {
        checkFull(try MediaProbe.probe(data: try TestImages.webp(exif: Self.fullExif)), format: .webp)
    }

    @Test("PNG keeps every field")
    func png() throws {
        checkFull(try MediaProbe.probe(data: try TestImages.png(exif: Self.fullExif)), format: .png)
    }

    @Test("HEIC keeps every field", .enabled(if: VipsImage.canSaveHEIF))
    func heic() throws {
        checkFull(try MediaProbe.probe(data: try TestImages.heic(exif: Self.fullExif)), format: .heic)
    }

    @Test("orientation 6 swaps the oriented size", arguments: [1, 2, 3, 4, 5, 6, 7, 8])
    func orientation(_ value: Int) throws {
        let data = try TestImages.jpeg(width: 64, height: 48, exif: ExifBuilder(orientation: value))
        let m = try MediaProbe.probe(data: data)
        #expect(m.orientation == value)
        #expect(m.pixelWidth == 64 && m.pixelHeight == 48)
        let swapped = value >= 5
        #expect(m.orientedPixelWidth == (swapped ? 48 : 64))
        #expect(m.orientedPixelHeight == (swapped ? 64 : 48))
    }

    @Test("southern and western hemispheres, below sea level")
    func southWest() throws {
        let exif = ExifBuilder(latitude: -33.856784, longitude: -70.651, altitude: -28.25)
        let m = try MediaProbe.probe(data: try TestImages.jpeg(exif: exif))
        let location = try #require(m.location)
        #expect(abs(location.latitude - -33.856784) < 1e-7)
        #expect(abs(location.longitude - -70.651) < 1e-7)
        #expect(location.altitude == -28.25)
        #expect(location.horizontalAccuracy == nil)
    }

    @Test("no EXIF at all gives the size and nothing else")
    func noExif() throws {
        let m = try MediaProbe.probe(data: try TestImages.jpeg(width: 33, height: 17))
        #expect(m == MediaMetadata(format: .jpeg, pixelWidth: 33, pixelHeight: 17))
    }

    @Test("a date without offset is read in the default time zone")
    func dateWithoutOffset() throws {
        let exif = ExifBuilder(dateTimeOriginal: "2021:03:28 01:30:00")
        let data = try TestImages.jpeg(exif: exif)
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        let m = try MediaProbe.probe(data: data, defaultTimeZone: paris)
        #expect(m.captureDate == utc(2021, 3, 28, 0, 30, 0))
        #expect(m.captureTimeZoneOffset == nil)
        let inUTC = try MediaProbe.probe(data: data, defaultTimeZone: utcZone)
        #expect(inUTC.captureDate == utc(2021, 3, 28, 1, 30, 0))
    }

    @Test("non-ASCII UserComment is written as UNICODE and read back")
    func unicodeComment() throws {
        let m = try MediaProbe.probe(data: try TestImages.jpeg(exif: ExifBuilder(userComment: "Zürich – café ☕")))
        #expect(m.userComment == "Zürich – café ☕")
    }
}

