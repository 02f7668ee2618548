import Foundation
import PhotosTestSupport
import Testing

@testable import Imaging

/// Where a capture date comes from when the file doesn't say it plainly.
@Suite("Capture date rules")
struct CaptureDateRuleTests {
    static func utc(_ text: String) -> Date {
        ExifDate.LocalDateTime(exif: text)!.date(offset: 0, defaultTimeZone: .gmt)!
    }

    static func parse(_ exif: ExifBuilder, zone: TimeZone = TimeZone(identifier: "America/New_York")!) -> ExifMetadata {
        ExifMetadata(TIFFParser.exifBlob([UInt8](exif.exifData()))!, defaultTimeZone: zone)
    }

    @Test("no OffsetTime: the zone comes from the GPS clock, to the quarter hour")
    func offsetFromGPSTime() {
        var exif = ExifBuilder(dateTimeOriginal: "2023:08:01 21:30:05", latitude: 38.7, longitude: -9.1)
        exif.gpsTimestamp = Self.utc("2023:08:01 20:29:31")  // the GPS fix 34 s earlier, Lisbon in summer (+01:00)
        let parsed = Self.parse(exif)
        #expect(parsed.captureTimeZoneOffset == 3600)
        #expect(parsed.captureDate == Self.utc("2023:08:01 20:30:05"))

        // India's +05:30 and Nepal's +05:45 are quarter hours too.
        exif.dateTimeOriginal = "2023:08:01 10:15:00"
        exif.gpsTimestamp = Self.utc("2023:08:01 04:30:00")
        #expect(Self.parse(exif).captureTimeZoneOffset == 20_700)
    }

    @Test("a GPS clock that disagrees by more than 5 minutes is not used; the default zone is")
    func implausibleGPSTime() {
        var exif = ExifBuilder(dateTimeOriginal: "2023:08:01 21:30:05", latitude: 38.7, longitude: -9.1)
        exif.gpsTimestamp = Self.utc("2023:08:01 20:07:00")  // 23 minutes off any quarter hour
        let parsed = Self.parse(exif)
        #expect(parsed.captureTimeZoneOffset == nil)
        #expect(parsed.captureDate == Self.utc("2023:08:02 01:30:05"), "21:30 in New York (EDT)")
    }

    @Test("a written OffsetTimeOriginal wins over the GPS clock")
    func writtenOffsetWins() {
        var exif = ExifBuilder(dateTimeOriginal: "2023:08:01 21:30:05", offsetTimeOriginal: "+02:00", latitude: 1, longitude: 1)
        exif.gpsTimestamp = Self.utc("2023:08:01 20:30:05")
        #expect(Self.parse(exif).captureTimeZoneOffset == 7200)
    }

    @Test("no EXIF date at all: the GPS clock's time")
    func gpsTimeAlone() {
        var exif = ExifBuilder(latitude: 1, longitude: 1)
        exif.gpsTimestamp = Self.utc("2019:05:04 03:02:01")
        let parsed = Self.parse(exif)
        #expect(parsed.captureDate == Self.utc("2019:05:04 03:02:01"))
        #expect(parsed.captureTimeZoneOffset == nil)
    }

    @Test("XMP dates: attributes or elements, with or without seconds and offset",
          arguments: [
            (#"<rdf:Description xmp:CreateDate="2004-12-09T09:28:06-04:00"/>"#, "2004:12:09 13:28:06", -14_400 as Int?),
            ("<photoshop:DateCreated>2010-05-01T12:00Z</photoshop:DateCreated>", "2010:05:01 12:00:00", 0),
            (#"<x exif:DateTimeOriginal="2021-01-02T03:04:05.5" xmp:CreateDate="1999-01-01T00:00:00Z"/>"#, "2021:01:02 03:04:05", nil),
          ])
    func xmp(packet: String, expectedUTC: String, offset: Int?) throws {
        let found = try #require(XMPDates.captureDate(packet, defaultTimeZone: .gmt))
        #expect(found.offset == offset)
        #expect(abs(found.date.timeIntervalSince(Self.utc(expectedUTC))) < (offset == nil ? 0.6 : 0.001))
    }

    @Test("a PNG with no EXIF date takes its tIME chunk")
    func pngTime() throws {
        var bytes = [UInt8](try TestImages.png(width: 4, height: 4))
        // A tIME chunk (2021-06-07 08:09:10 UTC) before IEND, with its CRC.
        let body: [UInt8] = Array("tIME".utf8) + [0x07, 0xE5, 6, 7, 8, 9, 10]
        let crc = TestImages.crc32(body[...])
        let chunk: [UInt8] = [0, 0, 0, 7] + body + (0..<4).map { UInt8(truncatingIfNeeded: crc >> (24 - 8 * $0)) }
        bytes.insert(contentsOf: chunk, at: bytes.count - 12)
        let metadata = try MediaProbe.probe(data: Data(bytes), defaultTimeZone: .gmt)
        #expect(metadata.captureDate == Self.utc("2021:06:07 08:09:10"))
    }
}
