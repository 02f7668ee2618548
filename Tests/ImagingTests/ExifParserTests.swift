import Foundation
@testable import Imaging
import PhotosTestSupport
import Testing

/// The Swift TIFF/EXIF parser on hand-made and damaged structures.
@Suite("EXIF parser")
struct ExifParserTests {
    @Test("reads ExifBuilder output in both byte orders, with and without the Exif header",
          arguments: [ExifBuilder.ByteOrder.littleEndian, .bigEndian])
    func byteOrders(_ order: ExifBuilder.ByteOrder) throws {
        var builder = ExifBuilder(
            byteOrder: order, make: "NIKON CORPORATION", model: "NIKON D2H", orientation: 8,
            dateTimeOriginal: "2003:11:23 18:07:37", subSecTimeOriginal: "63",
            latitude: 39.9155555555556, longitude: 116.390833333333)
        builder.gpsSpeedKilometresPerHour = 36
        builder.gpsTrack = 270.5
        for blob in [builder.exifData(), builder.tiffData()] {
            let tiff = try #require(TIFFParser.exifBlob([UInt8](blob)))
            #expect(tiff.bigEndian == (order == .bigEndian))
            let exif = ExifMetadata(tiff, defaultTimeZone: utcZone)
            #expect(exif.make == "NIKON CORPORATION")
            #expect(exif.model == "NIKON D2H")
            #expect(exif.orientation == 8)
            #expect(exif.captureDate == utc(2003, 11, 23, 18, 7, 37).addingTimeInterval(0.63))
            let location = try #require(exif.location)
            #expect(abs(location.latitude - 39.9155555555556) < 1e-9)
            #expect(abs(location.longitude - 116.390833333333) < 1e-9)
            #expect(abs((location.speed ?? 0) - 10) < 1e-9)  // 36 km/h
            #expect(location.course == 270.5)
        }
    }

    /// A little-endian TIFF with one IFD of the given 12-byte entries (values follow at 8 + size).
    static func tiff(entries: [[UInt8]], next: UInt32 = 0, extra: [UInt8] = []) -> [UInt8] {
        var out: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0]
        out += [UInt8(entries.count & 0xFF), UInt8(entries.count >> 8)]
        for e in entries { out += e }
        out += le32(next)
        return out + extra
    }

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
    static func entry(_ tag: UInt16, _ type: UInt16, _ count: UInt32, _ value: [UInt8]) -> [UInt8] {
        le16(tag) + le16(type) + le32(count) + value + [UInt8](repeating: 0, count: max(0, 4 - value.count))
    }

    @Test("signed rationals, signed and unsigned shorts, floats")
    func numericTypes() throws {
        // One IFD with 4 entries; the SRATIONAL's 8 bytes live after the IFD.
        let valueOffset: UInt32 = 8 + 2 + 4 * 12 + 4
        let bytes = Self.tiff(entries: [
            Self.entry(0x9201, 10, 1, Self.le32(valueOffset)),
            Self.entry(0x0112, 3, 1, Self.le16(6)),
            Self.entry(0x1000, 8, 1, Self.le16(UInt16(bitPattern: -5))),
            Self.entry(0x1001, 11, 1, Self.le32(Float(1.5).bitPattern)),
        ], extra: Self.le32(UInt32(bitPattern: -1)) + Self.le32(3))
        let tiff = try #require(TIFFParser.exifBlob(bytes))
        let ifd0 = tiff.ifd0
        #expect(ifd0[0x9201] == .rational([-1.0 / 3.0]))
        #expect(ifd0[0x0112]?.int == 6)
        #expect(ifd0[0x1000] == .signed([-5]))
        #expect(ifd0[0x1001] == .float([1.5]))
    }

    @Test("a rational with a zero denominator is no value, not a crash")
    func zeroDenominator() throws {
        let valueOffset: UInt32 = 8 + 2 + 12 + 4
        let bytes = Self.tiff(entries: [Self.entry(0x011A, 5, 1, Self.le32(valueOffset))], extra: Self.le32(72) + Self.le32(0))
        let tiff = try #require(TIFFParser.exifBlob(bytes))
        #expect(tiff.ifd0[0x011A] == .rational([nil]))
        #expect(tiff.ifd0[0x011A]?.double == nil)
    }

    @Test("IFD cycles end: IFD0 pointing at itself, Exif IFD pointing at IFD0")
    func cycles() throws {
        let bytes = Self.tiff(entries: [
            Self.entry(0x010F, 2, 4, Array("ACME".utf8)),
            Self.entry(0x8769, 4, 1, Self.le32(8)),
            Self.entry(0x8825, 4, 1, Self.le32(8)),
        ], next: 8)
        let tiff = try #require(TIFFParser.exifBlob(bytes))
        #expect(tiff.imageDirectories.count == 1)
        #expect(tiff.ifd0[0x010F]?.string == "ACME")
        #expect(tiff.exif.entries.isEmpty)
    }

    @Test("absurd counts and offsets are skipped")
    func absurdCounts() throws {
        var bytes = Self.tiff(entries: [
            Self.entry(0x010F, 2, 0xFFFF_FFFF, Self.le32(8)),     // 4 GiB string
            Self.entry(0x0110, 2, 20, Self.le32(0x7FFF_FFF0)),    // past the end
            Self.entry(0x0131, 2, 4, Array("ok!\0".utf8)),
            Self.entry(0x0132, 99, 1, Self.le32(0)),              // unknown type
        ])
        let parsed = try #require(TIFFParser.exifBlob(bytes))
        #expect(parsed.ifd0[0x010F] == nil)
        #expect(parsed.ifd0[0x0110] == nil)
        #expect(parsed.ifd0[0x0131]?.string == "ok!")
        #expect(parsed.ifd0[0x0132] == nil)
        // An entry count of 65535 with only a few entries present reads what is there.
        bytes[8] = 0xFF
        bytes[9] = 0xFF
        let capped = try #require(TIFFParser.exifBlob(bytes))
        #expect(capped.ifd0[0x0131]?.string == "ok!")
    }

    @Test("not a TIFF structure")
    func notTIFF() {
        #expect(TIFFParser.exifBlob([]) == nil)
        #expect(TIFFParser.exifBlob(Array("Exif\0\0".utf8)) == nil)
        #expect(TIFFParser.exifBlob(Array("Exif\0\0XX*\0\u{8}\0\0\0".utf8)) == nil)
    }

    @Test("3000 mutated and truncated blobs never trap")
    func fuzz() {
        var exif = ExifBuilder(
            make: "Canon", model: "EOS", orientation: 6, dateTimeOriginal: "2020:01:02 03:04:05",
            userComment: "hello", latitude: -10, longitude: 20, altitude: -3)
        exif.gpsTimestamp = Date(timeIntervalSince1970: 1_600_000_000)
        let original = [UInt8](exif.exifData())
        var rng = SeededGenerator(seed: 42)
        var parsed = 0
        for round in 0 ..< 3000 {
            var bytes = original
            for _ in 0 ..< Int.random(in: 1 ... 12, using: &rng) {
                let i = Int.random(in: 6 ..< bytes.count, using: &rng)
                bytes[i] = UInt8.random(in: 0 ... 255, using: &rng)
            }
            if round % 3 == 0 { bytes = Array(bytes.prefix(Int.random(in: 0 ... bytes.count, using: &rng))) }
            if let tiff = TIFFParser.exifBlob(bytes) {
                _ = ExifMetadata(tiff, defaultTimeZone: utcZone)
                parsed += 1
            }
        }
        #expect(parsed > 0)
    }

    @Test("UserComment character codes", arguments: [
        (Array("ASCII\0\0\0Screenshot".utf8), false, "Screenshot"),
        (Array("ASCII\0\0\0  padded  \0\0\0".utf8), false, "padded"),
        (Array("UNICODE\0".utf8) + [0, 0x48, 0, 0x69], true, "Hi"),
        (Array("UNICODE\0".utf8) + [0x48, 0, 0x69, 0], false, "Hi"),
        (Array("UNICODE\0".utf8) + [0xFF, 0xFE, 0x48, 0, 0x69, 0], true, "Hi"),
        ([UInt8](repeating: 0, count: 8) + Array("plain".utf8), false, "plain"),
        (Array("ASCII\0\0\0".utf8) + [UInt8](repeating: 0x20, count: 20), false, nil),
        ([UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0, count: 20), false, nil),
    ] as [([UInt8], Bool, String?)])
    func userComment(_ bytes: [UInt8], _ bigEndian: Bool, _ expected: String?) {
        #expect(ExifMetadata.userComment(.undefined(bytes), bigEndian: bigEndian) == expected)
    }

    @Test("GPS degrees as rationals and as text")
    func degrees() {
        #expect(ExifMetadata.degrees(.rational([52, 30, 36])) == 52.51)
        #expect(ExifMetadata.degrees(.rational([52.51])) == 52.51)
        #expect(ExifMetadata.degrees(.rational([52, nil, 0])) == nil)
        #expect(ExifMetadata.degrees(.ascii("52,0,50")).map { abs($0 - 52.013888888) < 1e-6 } == true)
        #expect(ExifMetadata.degrees(.ascii("52/1,30/1,3600/100")) == 52.51)
        #expect(ExifMetadata.degrees(nil) == nil)
    }

    @Test("out-of-range coordinates give no location")
    func invalidLocation() throws {
        var directory = TIFFDirectory()
        directory.entries[2] = .rational([4_294_967_295, 0, 0])
        directory.entries[4] = .rational([10, 0, 0])
        #expect(ExifMetadata.location(directory) == nil)
    }
}
