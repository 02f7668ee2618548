import Foundation
internal import CVips

/// The primary image of a HEIF/HEIC/AVIF file decoded with libheif directly, for the sound files
/// libvips' heifload (8.14 with libheif 1.15) refuses with "bad image dimensions on decode":
///
/// - Sony's HIF files carry a 1616 × 1080 HEVC thumbnail coded as 1664 × 1088: libheif decodes it
///   at the coded size, libvips compares with the thumbnail's `ispe` and refuses, and libvips'
///   thumbnailer picks that thumbnail for any size up to 1616 px (issue 18: `cat.hif`).
/// - A grid image with `irot` (Sony's portrait HIF files): libheif 1.15's handle reports the
///   unrotated size, the decoded image is rotated, libvips refuses the primary image itself
///   (`guitar_cw90.hif`).
///
/// Here the size is the decoded image's own, with libheif's transformations (`irot`, `imir`,
/// `clap`) applied, 8 bits per sample, the ICC profile kept. The whole primary image is decoded
/// (libheif can't shrink while decoding), so this is only the fallback when libvips fails;
/// ``coveringThumbnail(fileAt:box:)`` decodes a thumbnail item big enough for a thumbnail instead.
enum HEIFDecoder {
    /// Larger primary images are not decoded here (3 bytes a pixel held at once, twice).
    static let maximumPixels = 100_000_000

    /// The primary image of the file at `url`, upright, as an sRGB (or grey) `VipsImage` in memory.
    /// - Throws: `.decodeFailed` with libheif's words.
    static func primaryImage(fileAt url: URL) throws(ImagingError) -> VipsImage {
        try decode(url: url) { context in url.path.withCString { heif_context_read_from_file(context, $0, nil) } }
    }

    /// The primary image of a file held in memory; see `primaryImage(fileAt:)`.
    static func primaryImage(data: Data, url: URL?) throws(ImagingError) -> VipsImage {
        // The bytes are read during `decode` only; the decoded image is libvips' own copy.
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(ImagingError) -> VipsImage in
                try decode(url: url) { context in heif_context_read_from_memory_without_copy(context, bytes.baseAddress, bytes.count, nil) }
            }
        }
        return try result.get()
    }

    /// The box a thumbnail is asked for: how ``coveringThumbnail(fileAt:box:)`` tells whether a
    /// thumbnail item is big enough.
    struct Box {
        var width: Int
        var height: Int
        /// Filled (`crop`) or stretched to it (`exact`): the image must cover both sides;
        /// otherwise fitted inside it, which one side reaching the box's is enough for.
        var coversBothSides: Bool

        /// Whether a `width` × `height` image is scaled down, never up, to this box.
        func isCovered(byWidth width: Int, height: Int) -> Bool {
            coversBothSides ? width >= self.width && height >= self.height : width >= self.width || height >= self.height
        }
    }

    /// The smallest thumbnail item (`thmb`) of the primary image that is scaled down, never up,
    /// to `box` and has the primary image's aspect (within 1 %), decoded as
    /// ``primaryImage(fileAt:)`` decodes the primary image; nil when there is none, or when
    /// anything about it fails (the caller then decodes as before and reports errors).
    ///
    /// An iPhone's HEIC carries a 320 × 240 HEVC thumbnail: a 256 px grid cell is made from it,
    /// as libvips' thumbnailer and Apple's Photos do, instead of the 12 MP primary image. One
    /// libheif context and one decode: libvips' thumbnailer opens the file three times
    /// (header, thumbnail size, thumbnail) for the same (issue 19: the image benchmark's 66
    /// HEICs, cold, 1.73 → ~0.5 s on 2 cores). A file without one costs a header parse more.
    static func coveringThumbnail(fileAt url: URL, box: Box) -> VipsImage? {
        let result = Result { () throws(ImagingError) -> VipsImage? in
            try decode(url: url, thumbnailCovering: box) { context in url.path.withCString { heif_context_read_from_file(context, $0, nil) } }
        }
        return (try? result.get()) ?? nil
    }

    /// Decodes the primary image, or with `thumbnailCovering` the smallest thumbnail item that
    /// covers the box (nil when none does).
    private static func decode(url: URL?, read: (OpaquePointer) -> heif_error) throws(ImagingError) -> VipsImage {
        // Without a box there is always an image (or an error).
        try decode(url: url, thumbnailCovering: nil, read: read)!
    }

    private static func decode(url: URL?, thumbnailCovering box: Box?, read: (OpaquePointer) -> heif_error) throws(ImagingError) -> VipsImage? {
        VipsRuntime.ensureInitialized()
        let name = ImagingError.displayName(url)
        func failure(_ what: String, _ error: heif_error? = nil) -> ImagingError {
            var message = "libheif cannot \(what) \(name)"
            if let error, let text = error.message { message += ": \(String(cString: text))" }
            return ImagingError(.decodeFailed, message, url: url)
        }
        guard let context = heif_context_alloc() else { throw failure("read") }
        defer { heif_context_free(context) }
        var error = read(context)
        guard error.code == heif_error_Ok else { throw failure("read", error) }
        var primary: OpaquePointer?
        error = heif_context_get_primary_image_handle(context, &primary)
        guard error.code == heif_error_Ok, let primary else { throw failure("find the primary image of", error) }
        defer { heif_image_handle_release(primary) }
        var handle = primary
        if let box {
            guard let thumbnail = coveringThumbnail(of: primary, box: box) else { return nil }
            handle = thumbnail
        }
        defer { if handle != primary { heif_image_handle_release(handle) } }
        let image = try decode(handle, profileFallback: primary, url: url, failure: failure)
        if box != nil {
            // The decoded size must be the item's own (Sony's coded sizes are not).
            guard image.width == Int(heif_image_handle_get_width(handle)), image.height == Int(heif_image_handle_get_height(handle)) else {
                return nil
            }
        }
        return image
    }

    /// The smallest thumbnail of `primary` covering `box` with the primary's aspect, retained
    /// (release it), or nil.
    private static func coveringThumbnail(of primary: OpaquePointer, box: Box) -> OpaquePointer? {
        let count = Int(heif_image_handle_get_number_of_thumbnails(primary))
        guard count > 0 else { return nil }
        let width = Double(heif_image_handle_get_width(primary)), height = Double(heif_image_handle_get_height(primary))
        guard width > 0, height > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: min(count, 16))
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(ids.count)))
        var best: (handle: OpaquePointer, pixels: Int)?
        for id in ids.prefix(listed) {
            var thumbnail: OpaquePointer?
            guard heif_image_handle_get_thumbnail(primary, id, &thumbnail).code == heif_error_Ok, let thumbnail else { continue }
            let w = Int(heif_image_handle_get_width(thumbnail)), h = Int(heif_image_handle_get_height(thumbnail))
            let sameAspect = w > 0 && h > 0 && abs(Double(w) / Double(h) / (width / height) - 1) <= 0.01
            if sameAspect, box.isCovered(byWidth: w, height: h), w * h < (best?.pixels ?? .max) {
                if let previous = best { heif_image_handle_release(previous.handle) }
                best = (thumbnail, w * h)
            } else {
                heif_image_handle_release(thumbnail)
            }
        }
        return best?.handle
    }

    /// The image of one handle (a thumbnail item's, for `EmbeddedThumbnail`), decoded as the
    /// primary image is, its ICC profile taken from `primary` when it has none of its own.
    static func image(decoding handle: OpaquePointer, primary: OpaquePointer, url: URL?, what: String) throws(ImagingError) -> VipsImage {
        let name = ImagingError.displayName(url)
        return try decode(handle, profileFallback: primary, url: url) { verb, error in
            var message = "libheif cannot \(verb) \(name) (\(what))"
            if let error, let text = error.message { message += ": \(String(cString: text))" }
            return ImagingError(.decodeFailed, message, url: url)
        }
    }

    /// One image of the file (the primary or a thumbnail) decoded to 8-bit RGB(A), upright,
    /// with its ICC profile (the primary's when it has none of its own).
    private static func decode(
        _ handle: OpaquePointer, profileFallback primary: OpaquePointer, url: URL?, failure: (String, heif_error?) -> ImagingError
    ) throws(ImagingError) -> VipsImage {
        let pixels = Int(heif_image_handle_get_width(handle)) * Int(heif_image_handle_get_height(handle))
        guard pixels <= maximumPixels else {
            throw ImagingError(
                .decodeFailed,
                "libheif will not decode \(ImagingError.displayName(url)) whole: \(pixels / 1_000_000) megapixels, more than \(maximumPixels / 1_000_000)",
                url: url)
        }
        let alpha = heif_image_handle_has_alpha_channel(handle) != 0
        let bands = alpha ? 4 : 3
        var image: OpaquePointer?
        let error = heif_decode_image(handle, &image, heif_colorspace_RGB, alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, nil)
        guard error.code == heif_error_Ok, let image else { throw failure("decode the image of", error) }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) == 8,
            let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride), Int(stride) >= width * bands
        else { throw failure("decode the image of", nil) }
        let row = width * bands
        let made: UnsafeMutablePointer<CVips.VipsImage>?
        if Int(stride) == row {
            made = vips_image_new_from_memory_copy(plane, row * height, Int32(width), Int32(height), Int32(bands), VIPS_FORMAT_UCHAR)
        } else {
            var packed = [UInt8](repeating: 0, count: row * height)
            packed.withUnsafeMutableBytes { target in
                for y in 0 ..< height {
                    (target.baseAddress! + y * row).copyMemory(from: plane + y * Int(stride), byteCount: row)
                }
            }
            made = packed.withUnsafeBytes {
                vips_image_new_from_memory_copy($0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands), VIPS_FORMAT_UCHAR)
            }
        }
        guard let made else { throw ImagingError.vips(.decodeFailed, "cannot hold the pixels of", url: url) }
        let plain = VipsImage(owning: made, sourceURL: url)
        let tagged = try plain.derive("copy") { cvips_copy_interpretation(plain.pointer, $0, Int32(VIPS_INTERPRETATION_sRGB.rawValue)) }
        // An ICC profile ('prof' or 'rICC'), for managedToSRGB(); an nclx box has none.
        func hasProfile(_ handle: OpaquePointer) -> Bool {
            let type = heif_image_handle_get_color_profile_type(handle)
            return type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC
        }
        let profiled = hasProfile(handle) ? handle : hasProfile(primary) ? primary : nil
        if let profiled {
            let size = heif_image_handle_get_raw_color_profile_size(profiled)
            if size > 0 {
                var profile = [UInt8](repeating: 0, count: size)
                if heif_image_handle_get_raw_color_profile(profiled, &profile).code == heif_error_Ok {
                    profile.withUnsafeBytes { vips_image_set_blob_copy(tagged.pointer, "icc-profile-data", $0.baseAddress, $0.count) }
                }
            }
        }
        return tagged
    }
}
