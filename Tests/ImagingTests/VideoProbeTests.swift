import Foundation
import PhotosTestSupport
import Testing

@testable import Imaging

/// MP4/MOV/M4V/3GP files written by TestMovie, probed box by box.
@Suite("Video probing")
struct VideoProbeTests {
    @Test("size, duration, frame rate and frame count")
    func basics() throws {
        var movie = TestMovie()
        movie.width = 1280
        movie.height = 720
        movie.duration = 4
        movie.frameRate = 25
        let m = try MediaProbe.probe(data: movie.data())
        #expect(m.format == .mp4)
        #expect(m.isVideo)
        #expect(m.pixelWidth == 1280 && m.pixelHeight == 720)
        #expect(m.orientation == 1)
        #expect(m.duration == 4)
        #expect(m.frameRate == 25)
        #expect(m.frameCount == 100)
        #expect(m.captureDate == nil)
        #expect(m.location == nil)
        #expect(!m.hasAlpha && !m.isAnimated)
    }

    @Test("track rotation as EXIF orientation", arguments: [(0, 1), (90, 6), (180, 3), (270, 8)])
    func rotation(_ degrees: Int, _ orientation: Int) throws {
        var movie = TestMovie()
        movie.rotation = degrees
        let m = try MediaProbe.probe(data: movie.data())
        #expect(m.orientation == orientation)
        #expect(m.pixelWidth == 1920 && m.pixelHeight == 1080)
        let portrait = degrees == 90 || degrees == 270
        #expect(m.orientedPixelWidth == (portrait ? 1080 : 1920))
        #expect(m.orientedPixelHeight == (portrait ? 1920 : 1080))
    }

    @Test("mvhd creation time, version 0 and version 1", arguments: [false, true])
    func creationTime(_ version1: Bool) throws {
        var movie = TestMovie()
        movie.creationDate = utc(2019, 12, 20, 20, 8, 34)
        movie.version1Headers = version1
        let m = try MediaProbe.probe(data: movie.data())
        #expect(m.captureDate == utc(2019, 12, 20, 20, 8, 34))
        #expect(m.captureTimeZoneOffset == nil)
        #expect(m.duration == 2)
    }

    @Test("Apple metadata keys: creation date with offset, ISO 6709 location, make and model")
    func appleKeys() throws {
        var movie = TestMovie()
        movie.brand = .mov
        movie.creationDate = utc(2022, 5, 1, 12, 0, 1)
        movie.appleCreationDate = "2022-05-01T14:00:00+0200"
        movie.appleLocation = "+37.3318-122.0312+010.000/"
        movie.appleKeys = ["com.apple.quicktime.make": "Apple", "com.apple.quicktime.model": "iPhone 12",
                           "com.apple.quicktime.software": "15.4"]
        let m = try MediaProbe.probe(data: movie.data())
        #expect(m.format == .mov)
        #expect(m.captureDate == utc(2022, 5, 1, 12, 0, 0))
        #expect(m.captureTimeZoneOffset == 7200)
        let location = try #require(m.location)
        #expect(location.latitude == 37.3318 && location.longitude == -122.0312 && location.altitude == 10)
        #expect(m.make == "Apple" && m.model == "iPhone 12" && m.software == "15.4")
    }

    @Test("Android udta ©xyz location", arguments: [
        ("-15.8355-048.0153/", -15.8355, -48.0153, nil),
        ("+48.8584+002.2945+035.5/", 48.8584, 2.2945, 35.5),
        ("+4851.504+00217.670/", 48.8584, 2.29450, nil),
    ] as [(String, Double, Double, Double?)])
    func userDataLocation(_ text: String, _ lat: Double, _ lon: Double, _ alt: Double?) throws {
        var movie = TestMovie()
        movie.userDataLocation = text
        let location = try #require(try MediaProbe.probe(data: movie.data()).location)
        #expect(abs(location.latitude - lat) < 1e-9)
        #expect(abs(location.longitude - lon) < 1e-9)
        #expect(location.altitude == alt)
    }

    @Test("brands", arguments: [
        (TestMovie.Brand.mp4, MediaFormat.mp4), (.mov, .mov), (.m4v, .m4v), (.threeGP, .threeGP),
    ])
    func brands(_ brand: TestMovie.Brand, _ format: MediaFormat) throws {
        var movie = TestMovie()
        movie.brand = brand
        let m = try MediaProbe.probe(data: movie.data())
        #expect(m.format == format)
        #expect(format.isVideo)
    }

    @Test("box layouts: moov first or last, 64-bit mdat size, mdat size 0")
    func layouts() throws {
        for configure in [
            { (m: inout TestMovie) in m.moovAtEnd = false },
            { (m: inout TestMovie) in m.largeMediaDataBox = true },
            { (m: inout TestMovie) in m.largeMediaDataBox = true; m.moovAtEnd = false },
            { (m: inout TestMovie) in m.mediaDataSizeZero = true },
        ] {
            var movie = TestMovie()
            configure(&movie)
            let m = try MediaProbe.probe(data: movie.data())
            #expect(m.pixelWidth == 1920 && m.duration == 2 && m.frameRate == 30)
        }
    }

    @Test("a 5 GB movie (sparse file) is probed by seeking over mdat, not reading it")
    func hugeMediaData() throws {
        let folder = try TemporaryFolder()
        var movie = TestMovie()
        movie.moovAtEnd = false
        movie.largeMediaDataBox = true
        movie.mediaDataSize = 0
        var bytes = movie.data()
        // Rewrite the mdat's 64-bit size to 5 GB and extend the file sparsely to match.
        let mdatSize: UInt64 = 5 << 30
        let mdat = bytes.count - 16
        for i in 0 ..< 8 { bytes[mdat + 8 + i] = UInt8(truncatingIfNeeded: mdatSize >> (56 - 8 * UInt64(i))) }
        let url = try folder.write(bytes, to: "huge.mp4")
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: UInt64(mdat) + mdatSize)
        try handle.close()

        let source = try CountingSource(FileSource(url: url))
        let context = MediaProbe.Context(
            source: source, url: url, name: url.path, filenameExtension: url.pathExtension, defaultTimeZone: .current,
            openImage: { () throws(ImagingError) -> VipsImage in try VipsImage(contentsOf: url) })
        let m = try context.probe()
        #expect(m.pixelWidth == 1920 && m.duration == 2)
        #expect(source.bytesAsked < 1 << 20, "the probe asked for \(source.bytesAsked) bytes of a 5 GB file")
    }

    /// A file's bytes, counting what the parsers ask for.
    final class CountingSource: ByteSource {
        let base: any ByteSource
        private(set) var bytesAsked: Int64 = 0
        init(_ base: any ByteSource) { self.base = base }
        var size: Int64 { base.size }
        func bytes(at offset: Int64, count: Int) -> [UInt8]? {
            bytesAsked += Int64(count)
            return base.bytes(at: offset, count: count)
        }
    }

    @Test("a movie whose metadata claims no video track is refused")
    func notVideo() throws {
        var data = TestMovie().data()
        // Turn the 'vide' handler into 'soun'.
        let vide = Data("vide".utf8)
        let range = try #require(data.range(of: vide))
        data.replaceSubrange(range, with: Data("soun".utf8))
        #expect(throws: ImagingError.self) { try MediaProbe.probe(data: data) }
    }
}
