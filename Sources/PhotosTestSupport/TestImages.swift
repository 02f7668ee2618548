public import Foundation
public import Imaging

/// Real images made at test time with libvips, optionally carrying EXIF from `ExifBuilder`.
public enum TestImages {
    /// A JPEG of a gradient (with noise when `noisy`, so the file has a photo-like size).
    public static func jpeg(
        width: Int = 64, height: Int = 48, exif: ExifBuilder? = nil, quality: Int = 85, noisy: Bool = false
    ) throws -> Data {
        try image(width: width, height: height, exif: exif, noisy: noisy).jpegData(quality: quality)
    }

    /// A PNG (with the EXIF block in an eXIf chunk when libvips writes one).
    public static func png(width: Int = 64, height: Int = 48, exif: ExifBuilder? = nil) throws -> Data {
        try image(width: width, height: height, exif: exif).pngData()
    }

    /// A lossy WebP (with an EXIF chunk when `exif` is given).
    public static func webp(width: Int = 64, height: Int = 48, exif: ExifBuilder? = nil, quality: Int = 80) throws -> Data {
        try image(width: width, height: height, exif: exif).webpData(quality: quality)
    }

    /// A HEIC (throws `.encodeFailed` where libvips has no HEIF encoder).
    public static func heic(width: Int = 64, height: Int = 48, exif: ExifBuilder? = nil, quality: Int = 50) throws -> Data {
        try image(width: width, height: height, exif: exif).heifData(quality: quality)
    }

    /// Writes a JPEG to `url` and returns the URL.
    @discardableResult
    public static func writeJPEG(
        to url: URL, width: Int = 64, height: Int = 48, exif: ExifBuilder? = nil, noisy: Bool = false
    ) throws -> URL {
        try jpeg(width: width, height: height, exif: exif, noisy: noisy).write(to: url)
        return url
    }

    /// A JPEG with `exif` spliced in as an APP1 segment right after SOI, byte for byte as the
    /// builder made it (libvips re-encodes EXIF through libexif, which drops maker notes).
    public static func jpegWithRawExif(_ exif: ExifBuilder, width: Int = 64, height: Int = 48) throws -> Data {
        splice(exif, into: try jpeg(width: width, height: height))
    }

    /// `jpeg` with `exif` inserted as an APP1 segment right after SOI.
    public static func splice(_ exif: ExifBuilder, into jpeg: Data) -> Data {
        let payload = exif.exifData()
        let length = payload.count + 2
        precondition(length <= 0xFFFF, "EXIF too large for one APP1 segment")
        return Data(jpeg.prefix(2)) + Data([0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)]) + payload + jpeg.dropFirst(2)
    }

    /// A small PNG whose header claims `width`×`height` pixels: a decompression bomb's header
    /// without its memory cost (the IHDR fields and CRC rewritten).
    public static func pngClaiming(width: Int, height: Int) throws -> Data {
        var bytes = [UInt8](try png(width: 8, height: 8))
        // Signature (8), IHDR length (4), "IHDR" (4), then width and height, big-endian.
        let fields = [UInt32(width), UInt32(height)].flatMap { value in (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        bytes.replaceSubrange(16..<24, with: fields)
        let crc = crc32(bytes[12..<29])
        bytes.replaceSubrange(29..<33, with: (0..<4).map { UInt8(truncatingIfNeeded: crc >> (24 - 8 * $0)) })
        return Data(bytes)
    }

    /// CRC-32 (ISO-HDLC), as PNG chunks use.
    public static func crc32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// The first `fraction` (0...1) of `data`, as a download cut short would leave it.
    public static func truncated(_ data: Data, keeping fraction: Double) -> Data {
        let count = Int((Double(data.count) * min(1, max(0, fraction))).rounded(.down))
        return Data(data.prefix(count))
    }

    /// The generated image, with `exif` attached.
    public static func image(width: Int, height: Int, exif: ExifBuilder? = nil, noisy: Bool = false) throws -> VipsImage {
        let base = noisy
            ? try VipsImage.noisyGradient(width: width, height: height)
            : try VipsImage.gradient(width: width, height: height)
        guard let exif else { return base }
        return try base.withExif(exif.exifData())
    }

    /// A fresh temporary directory, removed by the caller (or left to the system).
    public static func temporaryDirectory(_ label: String = "imaging-tests") throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
