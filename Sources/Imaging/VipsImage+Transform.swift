public import Foundation
internal import CVips

extension VipsImage {
    static func interesting(_ crop: Bool) -> Int32 {
        Int32(crop ? VIPS_INTERESTING_CENTRE.rawValue : VIPS_INTERESTING_NONE.rawValue)
    }

    static func size(_ upscale: Bool, exact: Bool = false) -> Int32 {
        if exact { return Int32(VIPS_SIZE_FORCE.rawValue) }
        return Int32(upscale ? VIPS_SIZE_BOTH.rawValue : VIPS_SIZE_DOWN.rawValue)
    }

    static func checkBox(width: Int, height: Int, url: URL?) throws(ImagingError) {
        guard width > 0, height > 0, width <= 100_000, height <= 100_000 else {
            throw ImagingError(
                .invalidArgument,
                "thumbnail size \(width)x\(height) is out of range for \(ImagingError.displayName(url))", url: url)
        }
    }

    /// The image turned upright according to its EXIF orientation (a copy when already upright).
    public func autorotated() throws(ImagingError) -> VipsImage {
        try derive("autorotate") { cvips_autorot(pointer, $0) }
    }

    /// The image scaled to fit inside `width` x `height` keeping its aspect ratio, or to fill it
    /// exactly when `crop` is true (cropping the centre). Applies the EXIF orientation first.
    public func resized(
        toFit width: Int, height: Int, crop: Bool = false, upscale: Bool = true, exact: Bool = false
    ) throws(ImagingError) -> VipsImage {
        try Self.checkBox(width: width, height: height, url: sourceURL)
        return try derive("resize") {
            cvips_thumbnail_image(pointer, $0, Int32(width), Int32(height), Self.interesting(crop), Self.size(upscale, exact: exact))
        }
    }

    /// A rectangle of the image. Throws `.invalidArgument` if it does not lie inside the image.
    public func cropped(x: Int, y: Int, width: Int, height: Int) throws(ImagingError) -> VipsImage {
        guard x >= 0, y >= 0, width > 0, height > 0, x + width <= self.width, y + height <= self.height else {
            throw ImagingError(
                .invalidArgument,
                "crop \(width)x\(height)+\(x)+\(y) is outside the \(self.width)x\(self.height) image "
                    + ImagingError.displayName(sourceURL),
                url: sourceURL)
        }
        return try derive("crop") { cvips_extract_area(pointer, $0, Int32(x), Int32(y), Int32(width), Int32(height)) }
    }

    /// A thumbnail of an image file, decoded with shrink-on-load (a JPEG is decoded at 1/2, 1/4 or
    /// 1/8 scale, a HEIC from its embedded thumbnail item when that needs no upscaling: libheif
    /// decodes it directly, `HEIFDecoder.coveringThumbnail`) and turned upright. A
    /// HEIF/HEIC/AVIF that libvips refuses is decoded whole by libheif instead (`HEIFDecoder`:
    /// Sony's thumbnails and rotated grids).
    ///
    /// Fits inside `width` x `height`, or fills it exactly when `crop` is true; with `exact`, is
    /// exactly `width` x `height` (the aspect ratio stretched to it: pass a box of the image's
    /// own aspect, rounded). Colour-managed to sRGB from an embedded profile. TIFF-based RAW
    /// files that libvips cannot decode are thumbnailed from their largest embedded JPEG preview.
    /// - Throws: `.unreadable`, `.unsupportedFormat`, `.corrupt` (including truncated pixel data),
    ///   `.decodeFailed`; every message names the file.
    public static func thumbnail(
        fileAt url: URL, width: Int, height: Int, crop: Bool = false, upscale: Bool = true, exact: Bool = false
    ) throws(ImagingError) -> VipsImage {
        try VipsRuntime.keepingReasons { () throws(ImagingError) in
            try makeThumbnail(fileAt: url, width: width, height: height, crop: crop, upscale: upscale, exact: exact)
        }
    }

    private static func makeThumbnail(
        fileAt url: URL, width: Int, height: Int, crop: Bool, upscale: Bool, exact: Bool
    ) throws(ImagingError) -> VipsImage {
        VipsRuntime.ensureInitialized()
        try checkBox(width: width, height: height, url: url)
        let source = try FileSource(url: url)
        let format = try admit(head: source.prefix(at: 0, maxCount: MediaFormat.sniffLength), size: source.size, url: url)
        if format.isRAW, let preview = RawPreview.largestJPEG(in: source, format: format) {
            let image = try thumbnail(
                data: preview.jpeg, width: width, height: height, crop: crop, upscale: upscale, exact: exact, url: url)
            return try image.applyingOrientation(preview.orientation)
        }
        let fallback = { () -> Result<VipsImage, ImagingError> in
            heifThumbnail({ () throws(ImagingError) in try HEIFDecoder.primaryImage(fileAt: url) }, width, height, crop, upscale, exact)
        }
        if format.isHEIF,
            let item = HEIFDecoder.coveringThumbnail(fileAt: url, box: .init(width: width, height: height, coversBothSides: crop || exact))
        {
            // A thumbnail item the box needs no upscaling of (an iPhone's 320 × 240 for a 256 px
            // cell), decoded by libheif in one pass.
            return try heifThumbnail({ () throws(ImagingError) in item }, width, height, crop, upscale, exact).get()
        }
        if format.isHEIF, HEIFStructure.primaryGeometry(in: source)?.turnedBeforeSized == true {
            return try fallback().get()  // libvips would decode it whole, then refuse it
        }
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        let status = url.path.withCString {
            cvips_thumbnail($0, &out, Int32(width), Int32(height), interesting(crop), size(upscale, exact: exact), failOnTruncated)
        }
        guard status == 0, let out else {
            if let out { g_object_unref(out) }
            let failure = loadFailure(url: url)
            guard failure.code == .decodeFailed else { throw failure }
            return try afterFailedThumbnail(
                format: format, fallback: fallback, probe: { () throws(ImagingError) in _ = try MediaProbe.probe(fileAt: url) },
                subject: "cannot make a thumbnail", failure: "cannot make a thumbnail of \(url.path): \(failure.message)", url: url)
        }
        return try decoded(VipsImage(owning: out, sourceURL: url), format: format, fallback: fallback).managedToSRGB()
    }

    /// What a thumbnail libvips failed to make of a file it should read becomes: for a
    /// HEIF/HEIC/AVIF, the fallback's image when libheif decodes it; else, when the probe finds
    /// the container truncated or damaged, its error (`.corrupt`, after `subject`); else
    /// libvips' own limit, `.decodeFailed` with `failure` and the fallback's reason.
    private static func afterFailedThumbnail(
        format: MediaFormat, fallback: () -> Result<VipsImage, ImagingError>, probe: () throws(ImagingError) -> Void,
        subject: String, failure: String, url: URL?
    ) throws(ImagingError) -> VipsImage {
        var also = ""
        if format.isHEIF {
            switch fallback() {
            case .success(let image): return image
            case .failure(let error): also = "; \(error.message)"
            }
        }
        do {
            try probe()
        } catch {
            throw ImagingError(error.code, "\(subject): \(error.message)", url: url)
        }
        throw ImagingError(.decodeFailed, failure + also, url: url)
    }

    /// `image`'s pixels decoded now; for a HEIF/HEIC/AVIF whose pixels libvips fails to decode
    /// after reading its header (the embedded thumbnail it chose, a grid it sized wrongly), the
    /// fallback's image.
    private static func decoded(
        _ image: VipsImage, format: MediaFormat, fallback: () -> Result<VipsImage, ImagingError>
    ) throws(ImagingError) -> VipsImage {
        do {
            return try image.materialized()
        } catch where format.isHEIF {
            switch fallback() {
            case .success(let image): return image
            case .failure(let other): throw ImagingError(error.code, "\(error.message); \(other.message)", url: error.url)
            }
        }
    }

    /// A thumbnail of a HEIF/HEIC/AVIF libvips refused, from the primary image libheif decodes
    /// (`HEIFDecoder`): scaled as `thumbnail(fileAt:...)` scales, colour-managed to sRGB.
    private static func heifThumbnail(
        _ decode: () throws(ImagingError) -> VipsImage, _ width: Int, _ height: Int, _ crop: Bool, _ upscale: Bool, _ exact: Bool
    ) -> Result<VipsImage, ImagingError> {
        Result { () throws(ImagingError) -> VipsImage in
            try decode().resized(toFit: width, height: height, crop: crop, upscale: upscale, exact: exact).materialized().managedToSRGB()
        }
    }

    /// A thumbnail of an image held in memory; see `thumbnail(fileAt:width:height:crop:upscale:)`.
    public static func thumbnail(
        data: Data, width: Int, height: Int, crop: Bool = false, upscale: Bool = true, exact: Bool = false
    ) throws(ImagingError) -> VipsImage {
        try thumbnail(data: data, width: width, height: height, crop: crop, upscale: upscale, exact: exact, url: nil)
    }

    static func thumbnail(
        data: Data, width: Int, height: Int, crop: Bool, upscale: Bool, exact: Bool = false, url: URL?
    ) throws(ImagingError) -> VipsImage {
        try VipsRuntime.keepingReasons { () throws(ImagingError) in
            try makeThumbnail(data: data, width: width, height: height, crop: crop, upscale: upscale, exact: exact, url: url)
        }
    }

    private static func makeThumbnail(
        data: Data, width: Int, height: Int, crop: Bool, upscale: Bool, exact: Bool, url: URL?
    ) throws(ImagingError) -> VipsImage {
        VipsRuntime.ensureInitialized()
        try checkBox(width: width, height: height, url: url)
        let name = ImagingError.displayName(url)
        let format = try admit(head: [UInt8](data.prefix(MediaFormat.sniffLength)), size: Int64(data.count), url: url)
        guard let source = data.withUnsafeBytes({ cvips_source_new_from_copy($0.baseAddress, $0.count) }) else {
            throw ImagingError.vips(.decodeFailed, "cannot read", url: url)
        }
        defer { g_object_unref(source) }
        let fallback = { () -> Result<VipsImage, ImagingError> in
            heifThumbnail({ () throws(ImagingError) in try HEIFDecoder.primaryImage(data: data, url: url) }, width, height, crop, upscale, exact)
        }
        if format.isHEIF, HEIFStructure.primaryGeometry(in: DataSource(data))?.turnedBeforeSized == true {
            return try fallback().get()  // libvips would decode it whole, then refuse it
        }
        var out: UnsafeMutablePointer<CVips.VipsImage>?
        let status = cvips_thumbnail_source(
            source, &out, Int32(width), Int32(height), interesting(crop), size(upscale, exact: exact), failOnTruncated)
        guard status == 0, let out else {
            if let out { g_object_unref(out) }
            let detail = VipsRuntime.takeErrorBuffer()
            return try afterFailedThumbnail(
                format: format, fallback: fallback,
                probe: { () throws(ImagingError) in _ = try MediaProbe.probe(data: data, filenameExtension: url?.pathExtension) },
                subject: "cannot make a thumbnail of \(name)", failure: "cannot make a thumbnail of \(name) (\(data.count) bytes): \(detail)",
                url: url)
        }
        return try decoded(VipsImage(owning: out, sourceURL: url), format: format, fallback: fallback).managedToSRGB()
    }

    /// Decodes every pixel now (into memory), so truncation or damage is reported here rather
    /// than when the image is later encoded. Thumbnails are small, so this is cheap for them.
    public func materialized() throws(ImagingError) -> VipsImage {
        guard let out = vips_image_copy_memory(pointer) else {
            throw ImagingError.vips(.corrupt, "cannot decode the pixels of", url: sourceURL)
        }
        return VipsImage(owning: out, sourceURL: sourceURL)
    }

    /// Decodes all pixels (without keeping them) to check the image data is complete and sound.
    /// - Throws: `.corrupt` naming the file when the pixel data is truncated or damaged.
    public func validatePixels() throws(ImagingError) {
        var mean = 0.0
        guard cvips_avg(pointer, &mean) == 0 else {
            throw ImagingError.vips(.corrupt, "the pixel data is damaged or truncated in", url: sourceURL)
        }
    }

    /// The image with an EXIF orientation (1...8) applied to its pixels.
    public func applyingOrientation(_ orientation: Int) throws(ImagingError) -> VipsImage {
        guard (2 ... 8).contains(orientation) else { return self }
        let copy = try derive("orient") { cvips_copy(pointer, $0) }
        vips_image_set_int(copy.pointer, "orientation", Int32(orientation))
        return try copy.autorotated()
    }
}
