public import Foundation

/// Reads a photo's or video's metadata without decoding its pixels.
///
/// Images are opened with libvips for their header only (size, orientation, frames, EXIF blob)
/// and the EXIF is parsed in Swift; TIFF-based RAW files are parsed in Swift alone; videos are
/// parsed box by box from the file, seeking over the media data.
///
/// Damaged structure is refused, cheaply (headers, offsets, lengths and CRCs; no pixel decoded),
/// with a reason naming what was wrong and where:
/// - **JPEG**: SOI, every segment inside the file, a frame header (SOF) with a size and 1–4
///   components, quantization tables (unless lossless), a scan (SOS) followed by image data,
///   the EOI marker (FF D9) after it; the Huffman and quantization tables the first scan
///   decodes with, checked as libjpeg builds them (a bogus Huffman table, an undefined
///   quantization table: `JPEGDecodingTables`).
/// - **PNG**: the signature, IHDR first with a valid size, depth and colour type, every chunk
///   inside the file with a matching CRC, PLTE for palette images, one run of IDAT, IEND.
/// - **WebP**: the RIFF size inside the file, chunks inside the RIFF, a VP8/VP8L/VP8X header.
/// - **GIF**: every block inside the file, at least one image of a non-zero size, the trailer.
/// - **HEIF/HEIC/AVIF**: every top-level box inside the file; `meta` with `pitm`, `iinf` and
///   `iloc`; the primary item's data (and its grid tiles') inside the file or its `idat`.
/// - **TIFF/RAW**: IFD0 and every directory table inside the file, no IFD chain that loops, no
///   link outside the file, strips and tiles inside the file, a TIFF's baseline image tags
///   with one value each; a RAW (except DNG) has a readable embedded JPEG preview (what is
///   shown of it).
/// - **MP4/MOV/3GP**: a `moov`, every top-level box inside the file, a video track, every
///   chunk of every track (`stco`/`co64` offsets plus `stsc`/`stsz` sizes) inside the file.
/// - **Every format**: a size of at least 1 × 1 and an aspect ratio within ``MediaDimensions``.
///
/// Damage inside compressed pixel data is not detected by probing; `VipsImage.validatePixels()`
/// decodes everything to find it, and a library records the photos it fails to render.
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
                return try checkDimensions(probeVideo(format: format), allowingUnknown: true)
            case .tiff, .cr2, .nef, .arw, .dng, .orf, .rw2:
                return try checkDimensions(probeTIFF(format: format))
            case .raf:
                return try probeRAF()
            case .cr3:
                return try probeCR3()
            case .jpeg, .png, .webp, .gif, .heic, .heif, .avif, .jxl:
                try checkStructure(format: format)
                return try checkDimensions(probeWithVips(format: format))
            }
        }

        /// Refuses a size no grid cell or detail view can show (see ``MediaDimensions``); a video
        /// whose track header gives no size (`allowingUnknown`) is left to its decoder.
        func checkDimensions(_ metadata: MediaMetadata, allowingUnknown: Bool = false) throws(ImagingError) -> MediaMetadata {
            if allowingUnknown && (metadata.pixelWidth == 0 || metadata.pixelHeight == 0) { return metadata }
            if let problem = MediaDimensions.problem(width: metadata.pixelWidth, height: metadata.pixelHeight) {
                throw corrupt("claims \(metadata.pixelWidth) × \(metadata.pixelHeight) pixels: \(problem)")
            }
            return metadata
        }
    }
}
