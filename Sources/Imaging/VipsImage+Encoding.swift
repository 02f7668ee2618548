public import Foundation
internal import CVips

extension VipsImage {
    /// True when this libvips can write HEIC: libvips has `heifsave` and libheif has an HEVC
    /// encoder (checked once by encoding an 8x8 image; Debian 12's libheif has x265).
    public static let canSaveHEIF: Bool = {
        VipsRuntime.ensureInitialized()
        guard vips_type_find("VipsOperation", "heifsave_buffer") != 0,
              let probe = try? VipsImage.gradient(width: 8, height: 8) else { return false }
        return (try? probe.heifData(quality: 30)) != nil
    }()

    /// Encodes as baseline JPEG. `quality` is 1...100. With `keepMetadata`, EXIF (see
    /// `withExif(_:)`), ICC and XMP are written; without, all metadata is stripped.
    public func jpegData(quality: Int = 85, keepMetadata: Bool = true) throws(ImagingError) -> Data {
        try encode("JPEG") { cvips_jpegsave_buffer($0, $1, $2, Self.clampQuality(quality), keepMetadata ? 0 : 1) }
    }

    /// Encodes as PNG (lossless; keeps the alpha channel).
    /// `compression` is zlib's level, 0 (stored: fastest, for an image handed to another
    /// process) to 9; 6 by default, as libvips.
    public func pngData(keepMetadata: Bool = true, compression: Int = 6) throws(ImagingError) -> Data {
        try encode("PNG") { cvips_pngsave_buffer($0, $1, $2, keepMetadata ? 0 : 1, Int32(max(0, min(9, compression)))) }
    }

    /// Encodes as WebP, lossy at `quality` (1...100) or lossless.
    public func webpData(quality: Int = 80, lossless: Bool = false, keepMetadata: Bool = true) throws(ImagingError) -> Data {
        try encode("WebP") {
            cvips_webpsave_buffer($0, $1, $2, Self.clampQuality(quality), lossless ? 1 : 0, keepMetadata ? 0 : 1)
        }
    }

    /// Encodes as GIF (256-colour palette; animation is not written).
    public func gifData() throws(ImagingError) -> Data {
        try encode("GIF") { cvips_gifsave_buffer($0, $1, $2) }
    }

    /// Encodes as HEIC (HEVC in HEIF) at `quality` (1...100); throws `.encodeFailed` when this
    /// libvips has no HEIF encoder (see `canSaveHEIF`).
    public func heifData(quality: Int = 50, keepMetadata: Bool = true) throws(ImagingError) -> Data {
        try encode("HEIF") {
            cvips_heifsave_buffer(
                $0, $1, $2, Self.clampQuality(quality),
                Int32(VIPS_FOREIGN_HEIF_COMPRESSION_HEVC.rawValue), keepMetadata ? 0 : 1)
        }
    }

    /// Encodes as AVIF (AV1 in HEIF) at `quality` (1...100).
    public func avifData(quality: Int = 50, keepMetadata: Bool = true) throws(ImagingError) -> Data {
        try encode("AVIF") {
            cvips_heifsave_buffer(
                $0, $1, $2, Self.clampQuality(quality),
                Int32(VIPS_FOREIGN_HEIF_COMPRESSION_AV1.rawValue), keepMetadata ? 0 : 1)
        }
    }

    /// A copy of the image carrying `exif` as its EXIF block, written by the encoders when
    /// `keepMetadata` is true. `exif` is a TIFF structure, optionally preceded by "Exif\0\0" (the
    /// form libvips uses for JPEG). The copy's `orientation` follows the block's Orientation tag
    /// (libvips rewrites that tag from `orientation` on save), and EXIF fields libvips parsed from
    /// the original file are dropped so they cannot override the new block.
    public func withExif(_ exif: Data) throws(ImagingError) -> VipsImage {
        let copy = try copyWithoutExif()
        var blob = exif
        if !blob.starts(with: Array("Exif\0\0".utf8)) {
            blob = Data("Exif\0\0".utf8) + exif
        }
        blob.withUnsafeBytes { vips_image_set_blob_copy(copy.pointer, "exif-data", $0.baseAddress, $0.count) }
        if let tiff = TIFFParser.exifBlob([UInt8](blob)), let o = tiff.ifd0[0x0112]?.int, (1 ... 8).contains(o) {
            vips_image_set_int(copy.pointer, "orientation", Int32(o))
        }
        return copy
    }

    /// A copy of the image with no EXIF block and orientation 1.
    public func withoutExif() throws(ImagingError) -> VipsImage {
        try copyWithoutExif()
    }

    /// A private copy without `exif-data`, `orientation` and the `exif-ifdN-*` fields libvips
    /// parses out of EXIF (on load, and on save, when it updates the image it saves): jpegsave
    /// rebuilds an EXIF block from those fields when `exif-data` is missing.
    private func copyWithoutExif() throws(ImagingError) -> VipsImage {
        let copy = try derive("copy") { cvips_copy(pointer, $0) }
        guard let fields = vips_image_get_fields(copy.pointer) else { return copy }
        var names: [String] = []
        var i = 0
        while let name = fields[i] {
            names.append(String(cString: name))
            i += 1
        }
        g_strfreev(fields)
        for name in names where name.hasPrefix("exif-") || name == "orientation" {
            vips_image_remove(copy.pointer, name)
        }
        return copy
    }

    static func clampQuality(_ quality: Int) -> Int32 { Int32(min(100, max(1, quality))) }

    private func encode(
        _ format: String,
        _ body: (UnsafeMutablePointer<CVips.VipsImage>, UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32
    ) throws(ImagingError) -> Data {
        // Savers update the metadata of the image they write (libvips rewrites its EXIF), so
        // save a private copy: this image may be shared with other threads.
        let copy = try derive("copy", code: .encodeFailed) { cvips_copy(pointer, $0) }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard body(copy.pointer, &buffer, &length) == 0, let buffer else {
            let what = sourceURL.map { ImagingError.displayName($0) } ?? "image (\(width)x\(height))"
            let detail = VipsRuntime.takeErrorBuffer()
            throw ImagingError(.encodeFailed, "cannot encode \(what) as \(format): \(detail)", url: sourceURL)
        }
        defer { g_free(buffer) }
        return Data(bytes: buffer, count: length)
    }
}
