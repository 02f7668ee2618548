public import Foundation
internal import CVips

/// The small preview a camera or phone stores inside a photo, read without decoding the photo
/// itself: the JPEG in EXIF IFD1 (`JPEGInterchangeFormat`, tag 0x0201, and its length, 0x0202)
/// of a JPEG's APP1 segment, the `thmb` item of a HEIF/HEIC (decoded by libheif), or the
/// smallest usable JPEG preview of a RAW file (its IFD1 or SubIFD previews, a RAF's JPEG).
///
/// What a grid shows at once while the real thumbnail is made, and what `PHImageManager`
/// delivers as the degraded image of `.opportunistic` and `.fastFormat` requests (Apple's
/// "degraded" image may be smaller than asked). Typically 160 × 120 or 320 × 240: decoded in
/// well under a millisecond.
///
/// The result is upright: an EXIF thumbnail carries no orientation of its own, so the main
/// image's IFD0 orientation is applied (a HEIF thumbnail item is turned by libheif with its own
/// `irot`/`imir`, as the primary image is). A thumbnail whose aspect ratio is not the main
/// image's (within ``aspectTolerance``) is a letterboxed one when the strips its extra height
/// or width would take are black (some cameras write 160 × 120 for 3:2 photos): those bars are
/// cropped away. Any other mismatch (a stale thumbnail left by an editor that cropped or
/// rotated the photo) is rejected: no embedded thumbnail.
///
/// Reads are bounded (the EXIF segment is at most 64 KiB; a RAW preview at most
/// ``maximumBytes``) and every failure (garbage bytes, a truncated or damaged thumbnail) gives
/// `nil`, never a trap.
public struct EmbeddedThumbnail: Sendable {
    /// Where the thumbnail was found.
    public enum Kind: String, Sendable {
        /// A JPEG's EXIF IFD1 thumbnail.
        case exif
        /// A HEIF/HEIC/AVIF `thmb` item.
        case heif
        /// A JPEG preview embedded in a RAW file.
        case raw
    }

    /// The thumbnail, decoded, upright, in memory.
    public let image: VipsImage
    public let kind: Kind
    /// Whether black letterbox bars were cropped off to match the main image's aspect ratio.
    public let croppedLetterbox: Bool

    /// How far (relative) the thumbnail's aspect ratio may be from the main image's.
    public static let aspectTolerance = 0.04
    /// Larger embedded JPEGs are not read (a RAW's full-size preview is not a thumbnail).
    public static let maximumBytes = 4 << 20
    /// RAW previews smaller than this (shorter side) are not used when a larger one is there.
    public static let preferredMinimumSide = 120
    /// The mean level (0...255) below which a strip counts as a black letterbox bar.
    static let blackBarLevel = 24.0

    /// The embedded thumbnail of the image file at `url`, or `nil` when it has none, it is
    /// damaged, or its aspect ratio doesn't match the image's.
    ///
    /// - Parameter uprightSize: the main image's size, upright (an asset's `pixelWidth` ×
    ///   `pixelHeight`), to check the thumbnail's aspect ratio against; `nil` reads it from the
    ///   file (JPEG and HEIF; a RAW's preview is then not checked).
    public static func read(fileAt url: URL, uprightSize: (width: Int, height: Int)? = nil) -> EmbeddedThumbnail? {
        guard let file = try? FileSource(url: url) else { return nil }
        return read(source: file, url: url, uprightSize: uprightSize)
    }

    /// The embedded thumbnail of an image held in memory; see ``read(fileAt:uprightSize:)``.
    public static func read(data: Data, uprightSize: (width: Int, height: Int)? = nil) -> EmbeddedThumbnail? {
        read(source: DataSource(data), url: nil, uprightSize: uprightSize, bytes: data)
    }

    static func read(source: any ByteSource, url: URL?, uprightSize: (width: Int, height: Int)?, bytes: Data? = nil) -> EmbeddedThumbnail? {
        guard let format = MediaFormat.detect(header: source.prefix(at: 0, maxCount: MediaFormat.sniffLength), filenameExtension: url?.pathExtension) else {
            return nil
        }
        VipsRuntime.ensureInitialized()
        let found = try? VipsRuntime.keepingReasons { () throws(ImagingError) -> EmbeddedThumbnail? in
            switch format {
            case .jpeg: try exifThumbnail(source: source, uprightSize: uprightSize)
            case _ where format.isHEIF: try heifThumbnail(url: url, bytes: bytes, uprightSize: uprightSize)
            case _ where format.isTIFFBasedRAW || format == .raf: try rawPreview(source: source, format: format, uprightSize: uprightSize)
            default: nil
            }
        }
        return found ?? nil
    }

    // MARK: Bytes, undecoded

    /// A JPEG's EXIF thumbnail as JPEG bytes, not decoded: the thumbnail as the file holds it,
    /// with an EXIF orientation segment put in front when the photo's orientation is not 1 (a
    /// browser turns it; the thumbnail's own bytes carry none), and its upright size. For a
    /// server that sends the thumbnail on: reading it costs a few KiB of the file and no pixels.
    ///
    /// `nil` where only ``read(fileAt:uprightSize:)`` can give it: not a JPEG with an IFD1
    /// JPEG thumbnail, an aspect ratio off the photo's (a letterboxed thumbnail must be
    /// decoded to be cropped), a thumbnail with EXIF of its own, or a damaged one's structure.
    public static func jpegData(fileAt url: URL, uprightSize: (width: Int, height: Int)? = nil) -> (data: Data, width: Int, height: Int)? {
        guard let file = try? FileSource(url: url),
            MediaFormat.detect(header: file.prefix(at: 0, maxCount: MediaFormat.sniffLength), filenameExtension: url.pathExtension) == .jpeg
        else { return nil }
        let jpeg = JPEGStructure(source: file)
        guard let segment = jpeg.exifSegment, let located = ifd1JPEG(exifSegment: segment) else { return nil }
        let structure = JPEGStructure(source: DataSource(located.bytes))
        guard !structure.truncatedHeader, !structure.isLossless, structure.exifSegment == nil, let frame = structure.frame,
            frame.width > 0, frame.height > 0, frame.width <= 1024, frame.height <= 1024
        else { return nil }
        let turned = located.orientation >= 5
        let (width, height) = turned ? (frame.height, frame.width) : (frame.width, frame.height)
        var main = uprightSize
        if main == nil, let photo = jpeg.frame { main = turned ? (photo.height, photo.width) : (photo.width, photo.height) }
        if let main, main.width > 0, main.height > 0 {
            let ratio = (Double(width) / Double(height)) / (Double(main.width) / Double(main.height))
            guard abs(ratio - 1) <= aspectTolerance else { return nil }
        }
        guard located.orientation != 1 else { return (Data(located.bytes), width, height) }
        return (Data(located.bytes.prefix(2) + orientationSegment(located.orientation) + located.bytes.dropFirst(2)), width, height)
    }

    /// An APP1 Exif segment holding only IFD0's Orientation (big-endian TIFF).
    static func orientationSegment(_ orientation: Int) -> [UInt8] {
        let tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8,  // header, IFD0 at 8
                             0, 1,  // one entry
                             0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, UInt8(orientation), 0, 0,  // Orientation, SHORT, 1
                             0, 0, 0, 0]  // no next IFD
        let payload = Array("Exif\0\0".utf8) + tiff
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    // MARK: JPEG

    private static func exifThumbnail(source: any ByteSource, uprightSize: (width: Int, height: Int)?) throws(ImagingError) -> EmbeddedThumbnail? {
        let jpeg = JPEGStructure(source: source)
        guard let segment = jpeg.exifSegment, let located = ifd1JPEG(exifSegment: segment) else { return nil }
        var main = uprightSize
        if main == nil, let frame = jpeg.frame {
            main = located.orientation >= 5 ? (frame.height, frame.width) : (frame.width, frame.height)
        }
        return try make(jpeg: located.bytes, orientation: located.orientation, kind: .exif, uprightSize: main)
    }

    /// The IFD1 JPEG's bytes in an APP1 "Exif\0\0" payload, and IFD0's orientation.
    static func ifd1JPEG(exifSegment: [UInt8]) -> (bytes: [UInt8], orientation: Int)? {
        let limit = min(exifSegment.count - 4, 16)
        guard limit >= 0, let start = (0 ... limit).first(where: { TIFFParser.isTIFFHeader(exifSegment, at: $0) }) else { return nil }
        let source = DataSource(exifSegment)
        guard let parser = TIFFParser(source: source, base: Int64(start)), let first = parser.u32(Int64(start) + 4),
            let (ifd0, next) = parser.readDirectory(at: Int64(first), only: [0x0112]), let next, next != 0, next != first,
            let (ifd1, _) = parser.readDirectory(at: Int64(next), only: [0x0103, 0x0201, 0x0202]),
            let offset = ifd1[0x0201]?.int, let length = ifd1[0x0202]?.int, length > 4, length <= maximumBytes
        else { return nil }
        // Compression 6 (old-style JPEG) is what IFD1 thumbnails use, 7 is JPEG; some writers
        // leave 0 beside the JPEG offset and length (wallpapers in Debian's packages; exiftool and
        // libexif read those too). 1 would be uncompressed strips. The bytes must open as a JPEG.
        if let compression = ifd1[0x0103]?.int, ![0, 6, 7].contains(compression) { return nil }
        guard let bytes = source.bytes(at: Int64(start) + Int64(offset), count: length), bytes.starts(with: [0xFF, 0xD8])
        else { return nil }
        let orientation = ifd0[0x0112]?.int.flatMap { (1 ... 8).contains($0) ? $0 : nil } ?? 1
        return (bytes, orientation)
    }

    // MARK: HEIF

    private static func heifThumbnail(url: URL?, bytes: Data?, uprightSize: (width: Int, height: Int)?) throws(ImagingError) -> EmbeddedThumbnail? {
        if let bytes {
            // libheif reads the bytes in place, only while the context lives (inside the closure).
            let result = bytes.withUnsafeBytes { raw in
                Result { () throws(ImagingError) -> EmbeddedThumbnail? in
                    try heifThumbnail(url: nil, uprightSize: uprightSize) { heif_context_read_from_memory_without_copy($0, raw.baseAddress, raw.count, nil) }
                }
            }
            return try result.get()
        }
        guard let url else { return nil }
        return try heifThumbnail(url: url, uprightSize: uprightSize) { context in url.path.withCString { heif_context_read_from_file(context, $0, nil) } }
    }

    private static func heifThumbnail(
        url: URL?, uprightSize: (width: Int, height: Int)?, read: (OpaquePointer) -> heif_error
    ) throws(ImagingError) -> EmbeddedThumbnail? {
        guard let context = heif_context_alloc() else { return nil }
        defer { heif_context_free(context) }
        guard read(context).code == heif_error_Ok else { return nil }
        var primary: OpaquePointer?
        guard heif_context_get_primary_image_handle(context, &primary).code == heif_error_Ok, let primary else { return nil }
        defer { heif_image_handle_release(primary) }
        guard heif_image_handle_get_number_of_thumbnails(primary) > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: 4)
        let count = Int(heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(ids.count)))
        // The smallest thumbnail whose shorter side is at least `preferredMinimumSide`, else the largest.
        var best: (handle: OpaquePointer, side: Int)?
        for id in ids.prefix(max(0, min(count, ids.count))) {
            var handle: OpaquePointer?
            guard heif_image_handle_get_thumbnail(primary, id, &handle).code == heif_error_Ok, let handle else { continue }
            let width = Int(heif_image_handle_get_width(handle)), height = Int(heif_image_handle_get_height(handle))
            let side = min(width, height)
            guard side > 0, width * height <= 16_000_000 else {
                heif_image_handle_release(handle)
                continue
            }
            if let current = best, !better(side, than: current.side) {
                heif_image_handle_release(handle)
                continue
            }
            if let current = best { heif_image_handle_release(current.handle) }
            best = (handle, side)
        }
        guard let best else { return nil }
        defer { heif_image_handle_release(best.handle) }
        let image = try HEIFDecoder.image(decoding: best.handle, primary: primary, url: url, what: "its thumbnail item")
        var main = uprightSize
        if main == nil {
            main = (Int(heif_image_handle_get_width(primary)), Int(heif_image_handle_get_height(primary)))
        }
        return try checked(image, kind: .heif, uprightSize: main, eitherWay: uprightSize == nil)
    }

    /// Whether a preview of shorter side `side` is a better degraded image than one of `current`.
    private static func better(_ side: Int, than current: Int) -> Bool {
        let minimum = preferredMinimumSide
        if side >= minimum, current >= minimum { return side < current }
        return side > current
    }

    // MARK: RAW

    private static func rawPreview(
        source: any ByteSource, format: MediaFormat, uprightSize: (width: Int, height: Int)?
    ) throws(ImagingError) -> EmbeddedThumbnail? {
        let (candidates, rawOrientation) = RawPreview.candidates(in: source, format: format)
        var best: (offset: Int64, length: Int64, side: Int)?
        for candidate in candidates where candidate.length > 4 && candidate.length <= Int64(maximumBytes) && candidate.offset >= 0
            && candidate.offset <= source.size - candidate.length
        {
            let jpeg = JPEGStructure(source: source, start: candidate.offset, end: candidate.offset + candidate.length)
            guard !jpeg.truncatedHeader, !jpeg.isLossless, let frame = jpeg.frame, frame.width > 0, frame.height > 0 else { continue }
            let side = min(frame.width, frame.height)
            if let current = best, !better(side, than: current.side) { continue }
            best = (candidate.offset, candidate.length, side)
        }
        guard let best, let bytes = source.bytes(at: best.offset, count: Int(best.length)) else { return nil }
        // A large preview (a RAF's only one) often carries an EXIF thumbnail of its own.
        if best.side > 4 * preferredMinimumSide, let inner = try exifThumbnail(source: DataSource(bytes), uprightSize: uprightSize) {
            return EmbeddedThumbnail(image: inner.image, kind: .raw, croppedLetterbox: inner.croppedLetterbox)
        }
        // A preview with an orientation of its own is turned by it (libvips reads it); else the RAW's.
        let own = JPEGStructure(source: DataSource(bytes)).exifSegment.flatMap { TIFFParser.exifBlob($0) }?.ifd0[0x0112]?.int
        let orientation = own.map { (2 ... 8).contains($0) } == true ? own! : rawOrientation
        return try make(jpeg: bytes, orientation: orientation, kind: .raw, uprightSize: uprightSize)
    }

    // MARK: Decoding and checks

    private static func make(
        jpeg bytes: [UInt8], orientation: Int, kind: Kind, uprightSize: (width: Int, height: Int)?
    ) throws(ImagingError) -> EmbeddedThumbnail? {
        let structure = JPEGStructure(source: DataSource(bytes))
        guard !structure.truncatedHeader, !structure.isLossless, let frame = structure.frame, frame.width > 0, frame.height > 0,
            frame.width * frame.height <= 16_000_000
        else { return nil }
        let decoded = try VipsImage(data: Data(bytes)).materialized()
        let upright = try decoded.applyingOrientation(orientation)
        return try checked(upright, kind: kind, uprightSize: uprightSize, eitherWay: false)
    }

    /// The thumbnail if its aspect ratio is the main image's, with black letterbox bars cropped
    /// off when that makes it so; `nil` otherwise. `eitherWay`: the main size's orientation is
    /// not known (libheif 1.15 reports some handles unrotated), so the swapped size also matches.
    static func checked(
        _ image: VipsImage, kind: Kind, uprightSize: (width: Int, height: Int)?, eitherWay: Bool
    ) throws(ImagingError) -> EmbeddedThumbnail? {
        guard image.width > 0, image.height > 0 else { return nil }
        guard let main = uprightSize, main.width > 0, main.height > 0 else {
            return EmbeddedThumbnail(image: image, kind: kind, croppedLetterbox: false)
        }
        let aspect = Double(image.width) / Double(image.height)
        let wanted = Double(main.width) / Double(main.height)
        func close(_ a: Double, _ b: Double) -> Bool { abs(a / b - 1) <= aspectTolerance }
        if close(aspect, wanted) || (eitherWay && close(aspect, 1 / wanted)) {
            return EmbeddedThumbnail(image: image, kind: kind, croppedLetterbox: false)
        }
        // Letterboxed (bars top and bottom) or pillarboxed (left and right): the centre of the
        // main image's aspect, if what lies outside it is black.
        let width: Int, height: Int
        if aspect < wanted {
            width = image.width
            height = Int((Double(image.width) / wanted).rounded())
        } else {
            height = image.height
            width = Int((Double(image.height) * wanted).rounded())
        }
        guard width > 0, height > 0, width <= image.width, height <= image.height else { return nil }
        let x = (image.width - width) / 2, y = (image.height - height) / 2
        let bars: [(Int, Int, Int, Int)] =
            height < image.height
            ? [(0, 0, image.width, y), (0, y + height, image.width, image.height - y - height)]
            : [(0, 0, x, image.height), (x + width, 0, image.width - x - width, image.height)]
        for (bx, by, bw, bh) in bars where bw > 0 && bh > 0 {
            guard try image.cropped(x: bx, y: by, width: bw, height: bh).mean() <= blackBarLevel else { return nil }
        }
        let inner = try image.cropped(x: x, y: y, width: width, height: height).materialized()
        return EmbeddedThumbnail(image: inner, kind: kind, croppedLetterbox: true)
    }
}

extension VipsImage {
    /// The mean of all pixels' bands (0...255 for 8-bit images).
    func mean() throws(ImagingError) -> Double {
        var mean = 0.0
        guard cvips_avg(pointer, &mean) == 0 else { throw ImagingError.vips(.decodeFailed, "cannot average the pixels of", url: sourceURL) }
        return mean
    }
}
