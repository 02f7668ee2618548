public import Foundation
internal import CVips

/// An image held by libvips: a lazily evaluated pipeline that decodes only what is asked for.
///
/// Immutable after creation: every operation returns a new `VipsImage`. libvips images may be
/// read from several threads at once, which is why this class is `Sendable`; the only state is
/// the `VipsImage*` reference, set in `init` and released in `deinit`.
public final class VipsImage: @unchecked Sendable {
    /// How libvips will read the pixels.
    public enum Access: Sendable {
        /// Any order; needed for rotation and cropping of large images. The default.
        case random
        /// Top to bottom, once: lower memory for a single pass such as re-encoding.
        case sequential

        var vips: Int32 {
            switch self {
            case .random: Int32(VIPS_ACCESS_RANDOM.rawValue)
            case .sequential: Int32(VIPS_ACCESS_SEQUENTIAL.rawValue)
            }
        }
    }

    /// The libvips image; owned (one reference), released in `deinit`.
    let pointer: UnsafeMutablePointer<CVips.VipsImage>
    /// The file this image was loaded from, for error messages.
    public let sourceURL: URL?

    /// Wraps an image reference the caller owns.
    init(owning pointer: UnsafeMutablePointer<CVips.VipsImage>, sourceURL: URL?) {
        self.pointer = pointer
        self.sourceURL = sourceURL
    }

    deinit { g_object_unref(pointer) }

    /// Fail on truncated data (not on minor warnings) when pixels are decoded.
    static let failOnTruncated = Int32(VIPS_FAIL_ON_TRUNCATED.rawValue)

    /// Opens an image file. Only the header is read now; pixels are decoded when an operation
    /// needs them, and decoding fails (rather than filling with grey) if the file is truncated.
    /// - Throws: `.unreadable` for a missing or unreadable file, `.unsupportedFormat` for bytes
    ///   libvips does not recognise, `.corrupt` for an empty file, `.decodeFailed` otherwise.
    public init(contentsOf url: URL, access: Access = .random) throws(ImagingError) {
        VipsRuntime.ensureInitialized()
        let file = try FileSource(url: url)
        let format = try Self.admit(head: file.prefix(at: 0, maxCount: MediaFormat.sniffLength), size: file.size, url: url)
        let path = url.path
        let opened = path.withCString {
            format.isHEIF ? cvips_heifload($0, access.vips, Self.failOnTruncated) : cvips_image_new_from_file($0, access.vips, Self.failOnTruncated)
        }
        guard let opened else {
            throw Self.loadFailure(url: url)
        }
        self.pointer = opened
        self.sourceURL = url
    }

    /// Decodes an image from bytes in memory (libvips keeps its own copy).
    public init(data: Data, access: Access = .random) throws(ImagingError) {
        VipsRuntime.ensureInitialized()
        let format = try Self.admit(head: [UInt8](data.prefix(MediaFormat.sniffLength)), size: Int64(data.count), url: nil)
        let source = data.withUnsafeBytes { cvips_source_new_from_copy($0.baseAddress, $0.count) }
        guard let source else { throw ImagingError.vips(.decodeFailed, "cannot read", url: nil) }
        defer { g_object_unref(source) }
        let opened = format.isHEIF
            ? cvips_heifload_source(source, access.vips, Self.failOnTruncated) : cvips_image_new_from_source(source, access.vips, Self.failOnTruncated)
        guard let opened else {
            let detail = VipsRuntime.takeErrorBuffer()
            let code: ImagingError.Code = MediaFormat.detect(header: [UInt8](data.prefix(64))) == nil
                ? .unsupportedFormat : .decodeFailed
            throw ImagingError(code, "cannot open <data> (\(data.count) bytes) as an image: \(detail)")
        }
        self.pointer = opened
        self.sourceURL = nil
    }

    /// Lets through only images whose magic bytes MediaFormat recognises, so libvips' fallback
    /// to ImageMagick is never reached with unknown (possibly hostile) bytes, and videos are
    /// refused before libvips tries them.
    static func admit(head: [UInt8], size: Int64, url: URL?) throws(ImagingError) -> MediaFormat {
        let name = ImagingError.displayName(url)
        guard size > 0 else { throw ImagingError(.corrupt, "\(name) is empty (0 bytes)", url: url) }
        guard let format = MediaFormat.detect(header: head, filenameExtension: url?.pathExtension) else {
            throw ImagingError(
                .unsupportedFormat,
                "\(name) is not an image this library can read (starts with bytes \(ByteReading.hex(head)))", url: url)
        }
        if format.isVideo {
            throw ImagingError(.unsupportedFormat, "\(name) is a \(format.rawValue) video; libvips reads only images", url: url)
        }
        return format
    }

    /// Classifies a failed open: missing file, empty file, unknown format or decode failure.
    static func loadFailure(url: URL) -> ImagingError {
        let detail = VipsRuntime.takeErrorBuffer()
        let path = url.path
        let source: FileSource
        do {
            source = try FileSource(url: url)
        } catch {
            return error
        }
        if source.size == 0 {
            return ImagingError(.corrupt, "\(path) is empty (0 bytes)", url: url)
        }
        let head = source.prefix(at: 0, maxCount: MediaFormat.sniffLength)
        guard let format = MediaFormat.detect(header: head, filenameExtension: url.pathExtension) else {
            return ImagingError(
                .unsupportedFormat,
                "\(path) is not an image libvips can read (starts with bytes \(ByteReading.hex(head))): \(detail)",
                url: url)
        }
        if format.isVideo {
            return ImagingError(.unsupportedFormat, "\(path) is a \(format.rawValue) video; libvips reads only images", url: url)
        }
        return ImagingError(.decodeFailed, "libvips cannot open \(path): \(detail)", url: url)
    }

    /// The result of a libvips operation that fills `out`, or an error naming this image's file.
    func derive(
        _ what: String, code: ImagingError.Code = .decodeFailed,
        _ body: (UnsafeMutablePointer<UnsafeMutablePointer<CVips.VipsImage>?>) -> Int32
    ) throws(ImagingError) -> VipsImage {
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        let status = body(&out)
        guard status == 0, let out else {
            if let out { g_object_unref(out) }
            throw ImagingError.vips(code, "\(what) failed for", url: sourceURL)
        }
        return VipsImage(owning: out, sourceURL: sourceURL)
    }

    // MARK: Header fields

    /// Width in pixels (as stored, before orientation).
    public var width: Int { Int(vips_image_get_width(pointer)) }
    /// Height in pixels (as stored; for a multi-page image loaded with all pages, all pages).
    public var height: Int { Int(vips_image_get_height(pointer)) }
    /// Number of bands (3 for RGB, 4 for RGBA, 1 for grey).
    public var bands: Int { Int(vips_image_get_bands(pointer)) }
    /// True when the last band is alpha.
    public var hasAlpha: Bool { vips_image_hasalpha(pointer) != 0 }

    /// The libvips loader that opened the image ("jpegload", "heifload", ...), if loaded; the
    /// same name whether it was loaded from a file or from memory.
    public var loader: String? {
        guard var name = string("vips-loader") else { return nil }
        for suffix in ["_source", "_buffer"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
        }
        return name
    }

    /// The band values of the pixel at (`x`, `y`), decoding what is needed to compute it.
    public func pixel(x: Int, y: Int) throws(ImagingError) -> [Double] {
        guard x >= 0, y >= 0, x < width, y < height else {
            throw ImagingError(
                .invalidArgument, "pixel (\(x), \(y)) is outside the \(width)x\(height) image \(ImagingError.displayName(sourceURL))",
                url: sourceURL)
        }
        var values: UnsafeMutablePointer<Double>?
        var count: Int32 = 0
        guard cvips_getpoint(pointer, &values, &count, Int32(x), Int32(y)) == 0, let values else {
            throw ImagingError.vips(.decodeFailed, "cannot read a pixel of", url: sourceURL)
        }
        defer { g_free(values) }
        return Array(UnsafeBufferPointer(start: values, count: Int(count)))
    }

    /// Number of pages or frames (animated GIF/WebP, multi-page TIFF); 1 for ordinary images.
    public var pageCount: Int { max(1, Int(vips_image_get_n_pages(pointer))) }

    /// The EXIF orientation libvips will apply on `autorotated()` (1...8); 1 when absent.
    public var orientation: Int {
        guard let value = int("orientation"), (1 ... 8).contains(value) else { return 1 }
        return value
    }

    /// The raw `exif-data` blob libvips found ("Exif\0\0" followed by a TIFF structure for JPEG),
    /// or `nil`.
    public var exifData: Data? { blob("exif-data") }

    /// The raw XMP packet libvips found, if any.
    public var xmpData: Data? { blob("xmp-data") }
    /// The IPTC block (a JPEG's APP13 `Photoshop 3.0` resources, a TIFF's IPTC tag).
    public var iptcData: Data? { blob("iptc-data") }

    /// The embedded ICC profile, or `nil`.
    public var iccProfile: Data? { blob("icc-profile-data") }

    func has(_ field: String) -> Bool { vips_image_get_typeof(pointer, field) != 0 }

    func int(_ field: String) -> Int? {
        guard has(field) else { return nil }
        var value: Int32 = 0
        guard vips_image_get_int(pointer, field, &value) == 0 else {
            _ = VipsRuntime.takeErrorBuffer()
            return nil
        }
        return Int(value)
    }

    func string(_ field: String) -> String? {
        guard has(field) else { return nil }
        var value: UnsafePointer<CChar>?
        guard vips_image_get_string(pointer, field, &value) == 0, let value else {
            _ = VipsRuntime.takeErrorBuffer()
            return nil
        }
        return String(cString: value)
    }

    func blob(_ field: String) -> Data? {
        guard has(field) else { return nil }
        var bytes: UnsafeRawPointer?
        var length = 0
        guard vips_image_get_blob(pointer, field, &bytes, &length) == 0, let bytes, length > 0 else {
            _ = VipsRuntime.takeErrorBuffer()
            return nil
        }
        return Data(bytes: bytes, count: length)
    }
}
