import Foundation
@testable import Imaging
import Testing

@Suite("EXIF and ISO 8601 dates")
struct ExifDateTests {
    @Test("valid EXIF date-times", arguments: [
        "2003:11:23 18:07:37", "2003-11-23 18:07:37", "2003:11:23T18:07:37", "2003:11:23 18:07:37\0", "2003:11:23 18:07:37-22:29",
    ])
    func valid(_ text: String) throws {
        let local = try #require(ExifDate.LocalDateTime(exif: text))
        #expect(local.date(offset: 0, defaultTimeZone: utcZone) == utc(2003, 11, 23, 18, 7, 37))
    }

    @Test("blank, zero and impossible dates are no date", arguments: [
        "0000:00:00 00:00:00", "    :  :     :  :  ", "", "2003:11:23", "2003:13:01 00:00:00",
        "2003:11:32 00:00:00", "2003:11:23 25:00:00", "2003:11:23 18:61:00", "abcd:ef:gh ij:kl:mn",
    ])
    func invalid(_ text: String) {
        #expect(ExifDate.LocalDateTime(exif: text) == nil)
    }

    @Test("offsets", arguments: [
        ("+02:00", 7200), ("-07:00", -25200), ("+05:30", 19800), ("-0330", -12600), ("+09", 32400), ("Z", 0),
        ("   :  ", nil), ("+25:00", nil), ("02:00", nil), ("", nil),
    ] as [(String, Int?)])
    func offsets(_ text: String, _ seconds: Int?) {
        #expect(ExifDate.offsetSeconds(text) == seconds)
    }

    @Test("sub-seconds")
    func subSeconds() {
        #expect(ExifDate.subSeconds("63") == 0.63)
        #expect(ExifDate.subSeconds("5") == 0.5)
        #expect(ExifDate.subSeconds("250  ") == 0.25)
        #expect(ExifDate.subSeconds("") == nil)
        #expect(ExifDate.subSeconds("x") == nil)
    }

    @Test("QuickTime ISO 8601 creation dates")
    func iso8601() throws {
        let a = try #require(ExifDate.iso8601("2019-12-20T17:08:34-0300", defaultTimeZone: utcZone))
        #expect(a.0 == utc(2019, 12, 20, 20, 8, 34) && a.1 == -10800)
        let b = try #require(ExifDate.iso8601("2024-04-22T14:38:09.526+02:00", defaultTimeZone: utcZone))
        #expect(abs(b.0.timeIntervalSince(utc(2024, 4, 22, 12, 38, 9)) - 0.526) < 1e-6 && b.1 == 7200)
        let c = try #require(ExifDate.iso8601("2021-12-06T15:52:31Z", defaultTimeZone: utcZone))
        #expect(c.0 == utc(2021, 12, 6, 15, 52, 31) && c.1 == 0)
        let tokyo = try #require(TimeZone(identifier: "Asia/Tokyo"))
        let d = try #require(ExifDate.iso8601("2021-12-06T15:52:31", defaultTimeZone: tokyo))
        #expect(d.0 == utc(2021, 12, 6, 6, 52, 31) && d.1 == nil)
        #expect(ExifDate.iso8601("yesterday", defaultTimeZone: utcZone) == nil)
    }

    @Test("date fallbacks: DateTimeOriginal, then DateTimeDigitized, then IFD0 DateTime")
    func fallbacks() throws {
        var tiff = TIFFStructure()
        var ifd0 = TIFFDirectory()
        ifd0.entries[0x0132] = .ascii("2001:01:01 00:00:00")
        tiff.imageDirectories = [ifd0]
        tiff.exif.entries[0x9010] = .ascii("+01:00")
        var m = ExifMetadata(tiff, defaultTimeZone: utcZone)
        #expect(m.captureDate == utc(2000, 12, 31, 23, 0, 0) && m.captureTimeZoneOffset == 3600)

        tiff.exif.entries[0x9004] = .ascii("2002:02:02 02:02:02")
        tiff.exif.entries[0x9292] = .ascii("5")
        m = ExifMetadata(tiff, defaultTimeZone: utcZone)
        // Digitized has no own offset: the general OffsetTime applies.
        #expect(m.captureDate == utc(2002, 2, 2, 1, 2, 2).addingTimeInterval(0.5))

        tiff.exif.entries[0x9003] = .ascii("0000:00:00 00:00:00")
        m = ExifMetadata(tiff, defaultTimeZone: utcZone)
        #expect(m.captureDate == utc(2002, 2, 2, 1, 2, 2).addingTimeInterval(0.5))

        tiff.exif.entries[0x9003] = .ascii("2003:03:03 03:03:03")
        tiff.exif.entries[0x9011] = .ascii("-05:00")
        m = ExifMetadata(tiff, defaultTimeZone: utcZone)
        #expect(m.captureDate == utc(2003, 3, 3, 8, 3, 3) && m.captureTimeZoneOffset == -18000)
    }
}
