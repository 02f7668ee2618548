import Foundation
import Imaging
import Testing

@Suite("MediaFormat: identifiers and magic bytes")
struct MediaFormatTests {
    @Test("Apple's UTIs and preferred extensions")
    func identifiers() {
        let expected: [MediaFormat: String] = [
            .jpeg: "public.jpeg", .png: "public.png", .webp: "org.webmproject.webp", .heic: "public.heic",
            .heif: "public.heif", .avif: "public.avif", .gif: "com.compuserve.gif", .tiff: "public.tiff",
            .jxl: "public.jpeg-xl", .cr2: "com.canon.cr2-raw-image", .cr3: "com.canon.cr3-raw-image",
            .nef: "com.nikon.raw-image", .arw: "com.sony.arw-raw-image", .dng: "com.adobe.raw-image",
            .raf: "com.fuji.raw-image", .orf: "com.olympus.raw-image", .rw2: "com.panasonic.rw2-raw-image",
            .mp4: "public.mpeg-4", .mov: "com.apple.quicktime-movie", .m4v: "com.apple.m4v-video",
            .threeGP: "public.3gpp",
        ]
        #expect(expected.count == MediaFormat.allCases.count)
        for format in MediaFormat.allCases {
            #expect(format.uniformTypeIdentifier == expected[format])
            #expect(MediaFormat(uniformTypeIdentifier: format.uniformTypeIdentifier) == format)
            #expect(MediaFormat(filenameExtension: format.preferredFilenameExtension) == format)
        }
        #expect(MediaFormat.jpeg.preferredFilenameExtension == "jpeg")
        #expect(MediaFormat.threeGP.preferredFilenameExtension == "3gp")
        #expect(MediaFormat(filenameExtension: ".JPG") == .jpeg)
        #expect(MediaFormat(filenameExtension: "txt") == nil)
    }

    @Test("video and RAW classification")
    func kinds() {
        #expect(MediaFormat.allCases.filter(\.isVideo) == [.mp4, .mov, .m4v, .threeGP])
        #expect(MediaFormat.allCases.filter(\.isRAW) == [.cr2, .cr3, .nef, .arw, .dng, .raf, .orf, .rw2])
        #expect(!MediaFormat.heic.isVideo && !MediaFormat.heic.isRAW)
    }

    static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        let brands = Array(major.utf8) + [0, 0, 0, 0] + compatible.flatMap { Array($0.utf8) }
        let size = 8 + brands.count
        return [0, 0, 0, UInt8(size)] + Array("ftyp".utf8) + brands
    }

    @Test("magic bytes", arguments: [
        ([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10], MediaFormat.jpeg),
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], .png),
        (Array("RIFF".utf8) + [1, 2, 3, 4] + Array("WEBPVP8 ".utf8), .webp),
        (Array("GIF89a".utf8) + [1, 0], .gif),
        (Array("GIF87a".utf8) + [1, 0], .gif),
        ([0xFF, 0x0A, 0xFA], .jxl),
        ([0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A], .jxl),
        ([0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 0, 0], .tiff),
        ([0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 0], .tiff),
        ([0x49, 0x49, 0x2A, 0, 0x10, 0, 0, 0, 0x43, 0x52, 2, 0], .cr2),
        (Array("IIRO".utf8) + [8, 0, 0, 0], .orf),
        ([0x49, 0x49, 0x55, 0, 0x18, 0, 0, 0], .rw2),
        (Array("FUJIFILMCCD-RAW 0201".utf8), .raf),
        (ftyp("heic", ["mif1", "heic"]), .heic),
        (ftyp("mif1", ["mif1", "heic"]), .heif),
        (ftyp("heix", ["mif1", "heix"]), .heif),
        (ftyp("avif", ["avif", "mif1"]), .avif),
        (ftyp("mif1", ["mif1", "avif", "miaf"]), .avif),
        (ftyp("crx ", ["crx ", "isom"]), .cr3),
        (ftyp("qt  ", ["qt  "]), .mov),
        (ftyp("isom", ["isom", "iso2", "avc1", "mp41"]), .mp4),
        (ftyp("mp42", ["isom", "mp42"]), .mp4),
        (ftyp("isom", ["isom", "3gp4"]), .mp4),
        (ftyp("M4V ", ["M4V ", "mp42"]), .m4v),
        (ftyp("3gp4", ["isom", "3gp4"]), .threeGP),
        (ftyp("abcd", ["efgh", "mp41"]), .mp4),
    ] as [([UInt8], MediaFormat)])
    func magic(_ bytes: [UInt8], _ format: MediaFormat) {
        #expect(MediaFormat.detect(header: bytes) == format)
    }

    @Test("TIFF-based RAW needs the extension; magic wins elsewhere")
    func extensionFallback() {
        let tiff: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 0, 0]
        #expect(MediaFormat.detect(header: tiff, filenameExtension: "NEF") == .nef)
        #expect(MediaFormat.detect(header: tiff, filenameExtension: "arw") == .arw)
        #expect(MediaFormat.detect(header: tiff, filenameExtension: "dng") == .dng)
        #expect(MediaFormat.detect(header: tiff, filenameExtension: "jpg") == .tiff)
        // A PNG named .jpg is a PNG.
        #expect(MediaFormat.detect(header: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], filenameExtension: "jpg") == .png)
    }

    @Test("unknown bytes are not guessed from the extension")
    func unknown() {
        #expect(MediaFormat.detect(header: Array("hello world, not a photo".utf8), filenameExtension: "jpg") == nil)
        #expect(MediaFormat.detect(header: []) == nil)
        #expect(MediaFormat.detect(header: [0xFF]) == nil)
        #expect(MediaFormat.detect(header: Array("RIFF\0\0\0\0WAVEfmt ".utf8)) == nil)
    }
}
