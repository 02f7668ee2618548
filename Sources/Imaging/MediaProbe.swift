public import Foundation

/// Reads a photo's or video's metadata without decoding its pixels.
///
/// Images are opened with libvips for their header only (size, orientation, frames, EXIF blob)
/// and the EXIF is parsed in Swift; TIFF-based RAW files are parsed in Swift alone; videos are
/// parsed box by box from the file, seeking over the media data.
///
/// Truncation is refused, cheaply: a JPEG must have its EOI marker (FF D9) after the image data,
/// a PNG its IEND chunk, a WebP all the bytes its RIFF header announces, a GIF its trailer byte,
/// an ISO-BMFF file (HEIC, AVIF, MP4, MOV) every top-level box inside the file (and a video its
/// `moov`), a TIFF/RAW every strip inside the file. Damage inside compressed pixel data is not
/// detected by probing; `VipsImage.validatePixels()` decodes everything to find it.
public enum MediaProbe {
    /// Probes a file.
    /// - Parameter defaultTimeZone: the zone for capture times the file gives without an offset.
    /// - Throws: `.unreadable` (missing, directory, no permission), `.unsupportedFormat`,
    ///   `.corrupt` (empty, truncated, damaged); messages name the file.
    public static func probe(fileAt url: URL, defaultTimeZone: TimeZone = .current) throws(ImagingError) -> MediaMetadata {
        let source = try FileSource(url: url)
        let context = Context(
            source: source, url: url, name: url.path, filenameExtension: url.pathExtension,
            defaultTimeZone: defaultTimeZone,
            openImage: { () throws(ImagingError) -> VipsImage in try VipsImage(contentsOf: url, access: .sequential) })
        return try context.probe()
    }

    /// Probes bytes in memory. `filenameExtension` helps only for TIFF-based RAW formats, whose
    /// magic bytes are those of TIFF.
    public static func probe(
        data: Data, filenameExtension: String? = nil, defaultTimeZone: TimeZone = .current
    ) throws(ImagingError) -> MediaMetadata {
        let context = Context(
            source: DataSource(data), url: nil, name: "<data>", filenameExtension: filenameExtension,
            defaultTimeZone: defaultTimeZone,
            openImage: { () throws(ImagingError) -> VipsImage in try VipsImage(data: data, access: .sequential) })
        return try context.probe()
    }

    /// The format of a file from its magic bytes (and extension, for TIFF-based RAW), without
    /// reading further. Throws `.unreadable` or `.unsupportedFormat`.
    public static func format(ofFileAt url: URL) throws(ImagingError) -> MediaFormat {
        let source = try FileSource(url: url)
        let head = source.prefix(at: 0, maxCount: MediaFormat.sniffLength)
        guard let format = MediaFormat.detect(header: head, filenameExtension: url.pathExtension) else {
            throw Context.unsupported(url: url, name: url.path, head: head, size: source.size)
        }
        return format
    }

    struct Context {
        let source: any ByteSource
        let url: URL?
        let name: String
        let filenameExtension: String?
        let defaultTimeZone: TimeZone
        let openImage: () throws(ImagingError) -> VipsImage

        func corrupt(_ why: String) -> ImagingError {
            ImagingError(.corrupt, "\(name) \(why)", url: url)
        }

        static func unsupported(url: URL?, name: String, head: [UInt8], size: Int64) -> ImagingError {
            ImagingError(
                .unsupportedFormat,
                "\(name) is not a photo or video this library can read (\(size) bytes, starts with bytes \(ByteReading.hex(head)))",
                url: url)
        }

        func probe() throws(ImagingError) -> MediaMetadata {
            guard source.size > 0 else { throw corrupt("is empty (0 bytes)") }
            let head = source.prefix(at: 0, maxCount: MediaFormat.sniffLength)
            guard var format = MediaFormat.detect(header: head, filenameExtension: filenameExtension) else {
                throw Self.unsupported(url: url, name: name, head: head, size: source.size)
            }
            if format == .tiff, let parser = TIFFParser(source: source, base: 0),
               parser.parse().ifd0[0xC612] != nil {
                format = .dng
            }
            switch format {
            case .mp4, .mov, .m4v, .threeGP:
                return try probeVideo(format: format)
            case .tiff, .cr2, .nef, .arw, .dng, .orf, .rw2:
                return try probeTIFF(format: format)
            case .raf:
                return try probeRAF()
            case .cr3:
                return try probeCR3()
            case .jpeg, .png, .webp, .gif, .heic, .heif, .avif, .jxl:
                try checkComplete(format: format)
                return try probeWithVips(format: format)
            }
        }
    }
}
