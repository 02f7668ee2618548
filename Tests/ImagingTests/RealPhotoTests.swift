import Foundation
import PhotosTestSupport
import Testing

@testable import Imaging

/// Real camera files fetched by scripts/fetch-fixtures.sh. Expected values are what exiftool
/// 12.57 reports for these files (the oracle), copied here by hand.
@Suite("Real photos (scripts/fetch-fixtures.sh)")
struct RealPhotoTests {
    @Test("Nikon D2H sample with GPS, sub-seconds and a UserComment")
    func nikon() throws {
        let m = try MediaProbe.probe(fileAt: Fixtures.url("sample1.jpg"), defaultTimeZone: utcZone)
        #expect(m.format == .jpeg)
        #expect(m.pixelWidth == 500 && m.pixelHeight == 375)
        #expect(m.orientation == 1)
        #expect(m.make == "NIKON CORPORATION")
        #expect(m.model == "NIKON D2H")
        #expect(m.software == "Opanda PowerExif")
        #expect(m.userComment == "taken at basilica of chinese")
        // DateTimeOriginal 2003:11:23 18:07:37, SubSecTimeOriginal 63, no offset; the GPS clock
        // says the same time in UTC, so the camera's zone was UTC.
        #expect(m.captureDate == utc(2003, 11, 23, 18, 7, 37).addingTimeInterval(0.63))
        #expect(m.captureTimeZoneOffset == 0)
        let location = try #require(m.location)
        #expect(abs(location.latitude - 39.9155555555556) < 1e-9)
        #expect(abs(location.longitude - 116.390833333333) < 1e-9)
        #expect(location.altitude == nil)
        // GPSDateStamp 2003:11:23, GPSTimeStamp 18:07:37.
        #expect(location.timestamp == utc(2003, 11, 23, 18, 7, 37))
    }

    @Test("Panasonic DMC-GF1 with Orientation 6")
    func panasonic() throws {
        let url = Fixtures.url("bug143608-comment.jpg")
        let m = try MediaProbe.probe(fileAt: url, defaultTimeZone: utcZone)
        #expect(m.pixelWidth == 640 && m.pixelHeight == 428)
        #expect(m.orientation == 6)
        #expect(m.orientedPixelWidth == 428 && m.orientedPixelHeight == 640)
        #expect(m.make == "Panasonic" && m.model == "DMC-GF1")
        #expect(m.software == "Ver.1.1")
        #expect(m.captureDate == utc(2013, 6, 23, 16, 49, 15))
        #expect(m.location == nil)
    }

    @Test("the orientation-6 photo's 256-px thumbnail is portrait")
    func panasonicThumbnail() throws {
        let thumb = try VipsImage.thumbnail(fileAt: Fixtures.url("bug143608-comment.jpg"), width: 256, height: 256)
        #expect(thumb.height == 256)
        #expect(thumb.width == 171)  // 428/640 * 256, rounded
        let square = try VipsImage.thumbnail(fileAt: Fixtures.url("bug143608-comment.jpg"), width: 256, height: 256, crop: true)
        #expect(square.width == 256 && square.height == 256)
    }

    @Test("goexif f1...f8: every orientation, IFD0 DateTime as the only date", arguments: 1 ... 8)
    func orientations(_ n: Int) throws {
        let url = Fixtures.url("f\(n)-exif.jpg")
        let m = try MediaProbe.probe(fileAt: url, defaultTimeZone: utcZone)
        #expect(m.orientation == n)
        // exiftool: 40x80 for 1-4, 80x40 for 5-8 (stored); all are 40x80 upright.
        #expect(m.pixelWidth == (n <= 4 ? 40 : 80))
        #expect(m.orientedPixelWidth == 40 && m.orientedPixelHeight == 80)
        let expected = n == 1 ? utc(2012, 11, 4, 5, 42, 2) : utc(2012, 11, 4, 5, 42, 32)
        #expect(m.captureDate == expected)
        let thumb = try VipsImage.thumbnail(fileAt: url, width: 20, height: 40)
        #expect(thumb.width == 20 && thumb.height == 40)
    }

    @Test("corrupt EXIF: the IFD chain that loops is read once round and still gives size and date")
    func infiniteLoop() throws {
        let url = Fixtures.url("corrupt/infinite_loop_exif.jpg")
        let m = try MediaProbe.probe(fileAt: url, defaultTimeZone: utcZone)
        #expect(m.pixelWidth == 8 && m.pixelHeight == 8)
        #expect(m.software == "Adobe Photoshop CS2 Macintosh")
        #expect(m.captureDate == utc(2007, 5, 10, 19, 4, 16))
        // IFD1 links back to IFD0: each is read once, the loop ended by the offsets already
        // seen, not by the cap on directories.
        let file = try [UInt8](Data(contentsOf: url))
        let exif = try #require(file.firstRange(of: Array("Exif\0\0".utf8)))
        let structure = try #require(TIFFParser.exifBlob(Array(file[exif.lowerBound...])))
        #expect(structure.imageDirectories.count == 2, "\(structure.imageDirectories.count) directories read")
    }

    @Test("corrupt EXIF: huge tag and max-uint32 files (64 KiB, no image data) are refused as corrupt",
          arguments: ["corrupt/huge_tag_exif.jpg", "corrupt/max_uint32_exif.jpg"])
    func corruptExif(_ name: String) throws {
        let url = Fixtures.url(name)
        // exiftool finds no image size in these either: the file ends inside an APP4 segment.
        do {
            _ = try MediaProbe.probe(fileAt: url)
            Issue.record("\(name) was accepted")
        } catch {
            #expect(error.code == .corrupt)
            #expect(error.message.contains(url.path))
        }
    }

    /// exiftool's view of the KPhotoAlbum demo photos: size, make, model, DateTimeOriginal.
    static let kphotoalbum: [(String, Int, Int, String?, String?, String?)] = [
        ("anne_helene.jpg", 400, 600, "Canon", "Canon EOS 20D", "2005:07:28 05:18:48"),
        ("bar55.jpg", 800, 600, "OLYMPUS OPTICAL CO.,LTD", "C40Z,D40Z", "2006:02:11 04:22:11"),
        ("bar55_2.jpg", 800, 600, "OLYMPUS OPTICAL CO.,LTD", "C40Z,D40Z", "2006:02:11 03:33:29"),
        ("blackie.jpg", 800, 549, nil, nil, nil),
        ("cold_water.jpg", 800, 533, "Canon", "Canon EOS 20D", "2005:07:28 05:01:56"),
        ("donna.jpg", 800, 532, "Canon", "Canon EOS DIGITAL REBEL XT", "2005:12:26 14:58:01"),
        ("donna_2.jpg", 800, 600, "OLYMPUS OPTICAL CO.,LTD", "C40Z,D40Z", "2003:05:18 17:01:01"),
        ("grand_canyon_1.jpg", 800, 535, nil, nil, nil),
        ("grand_canyon_2.jpg", 800, 600, "JENOPTIK OPTICAL CO,LTD", "JD4100", "2003:01:02 06:48:54"),
        ("grand_canyon_3.jpg", 800, 600, "JENOPTIK OPTICAL CO,LTD", "JD4100", "2003:01:02 06:31:00"),
        ("jesper.jpg", 800, 533, "Canon", "Canon EOS DIGITAL REBEL XT", "2005:12:29 23:45:22"),
        ("jesper_2.jpg", 800, 532, "Canon", "Canon EOS DIGITAL REBEL XT", "2005:12:21 16:44:31"),
        ("new_wave_1.jpg", 800, 549, nil, nil, nil),
        ("new_wave_2.jpg", 800, 549, nil, nil, nil),
        ("pool.jpg", 800, 600, "OLYMPUS OPTICAL CO.,LTD", "C40Z,D40Z", "2005:05:17 21:52:37"),
        ("pool_2.jpg", 800, 600, "OLYMPUS OPTICAL CO.,LTD", "C40Z,D40Z", "2005:02:05 06:37:33"),
        ("qt-logo.jpg", 800, 542, nil, nil, nil),
        ("skagen.jpg", 800, 533, "Canon", "Canon EOS 20D", "2005:07:28 05:09:07"),
        ("skagen_2.jpg", 800, 600, "OLYMPUS OPTICAL CO.,LTD", "C40Z,D40Z", "2005:06:24 18:38:48"),
        ("snow.jpg", 800, 600, "OLYMPUS OPTICAL CO.,LTD", "C40Z,D40Z", "2006:02:13 00:10:17"),
        ("spiff.jpg", 800, 551, nil, nil, nil),
        ("spiff_2.jpg", 800, 550, nil, nil, nil),
        ("sunset.jpg", 800, 532, "Canon", "Canon EOS DIGITAL REBEL XT", "2005:11:25 16:23:10"),
        ("wayne.jpg", 800, 600, "OLYMPUS OPTICAL CO.,LTD", "C40Z,D40Z", "2003:11:15 20:51:59"),
    ]

    @Test("KPhotoAlbum demo album: 24 photos agree with exiftool")
    func kphotoalbumAlbum() throws {
        let parse = { (text: String) -> Date in
            let f = text.split(whereSeparator: { $0 == ":" || $0 == " " }).map { Int($0)! }
            return utc(f[0], f[1], f[2], f[3], f[4], f[5])
        }
        for (name, width, height, make, model, date) in Self.kphotoalbum {
            let m = try MediaProbe.probe(fileAt: Fixtures.url("kphotoalbum/\(name)"), defaultTimeZone: utcZone)
            #expect(m.pixelWidth == width && m.pixelHeight == height, "\(name)")
            #expect(m.make == make, "\(name)")
            #expect(m.model == model, "\(name)")
            #expect(m.captureDate == date.map(parse), "\(name)")
            #expect(m.software == "Bibble 4.4b", "\(name)")
            #expect(m.orientation == 1 && m.location == nil, "\(name)")
        }
    }

    @Test("KPhotoAlbum thumbnails come out at the requested size")
    func kphotoalbumThumbnails() throws {
        for (name, width, height, _, _, _) in Self.kphotoalbum {
            let thumb = try VipsImage.thumbnail(fileAt: Fixtures.url("kphotoalbum/\(name)"), width: 200, height: 200)
            #expect(max(thumb.width, thumb.height) == 200, "\(name)")
            #expect((thumb.width > thumb.height) == (width > height), "\(name)")
            let jpeg = try thumb.jpegData(quality: 80, keepMetadata: false)
            #expect(try MediaProbe.probe(data: jpeg).make == nil)
        }
    }
}
