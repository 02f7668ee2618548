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
/// (libheif can't shrink while decoding), so this is only the fallback when libvips fails.
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

    private static func decode(url: URL?, read: (OpaquePointer) -> heif_error) throws(ImagingError) -> VipsImage {
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
        var handle: OpaquePointer?
        error = heif_context_get_primary_image_handle(context, &handle)
        guard error.code == heif_error_Ok, let handle else { throw failure("find the primary image of", error) }
        defer { heif_image_handle_release(handle) }
        let pixels = Int(heif_image_handle_get_width(handle)) * Int(heif_image_handle_get_height(handle))
        guard pixels <= maximumPixels else {
            throw ImagingError(
                .decodeFailed, "libheif will not decode \(name) whole: \(pixels / 1_000_000) megapixels, more than \(maximumPixels / 1_000_000)",
                url: url)
        }
        return try image(decoding: handle, url: url, what: "the primary image of")
    }

    /// The image of one handle (the primary image, or a thumbnail item's), decoded with
    /// libheif's transformations applied, as an sRGB (or grey) `VipsImage` in memory.
    static func image(decoding handle: OpaquePointer, url: URL?, what: String) throws(ImagingError) -> VipsImage {
        let name = ImagingError.displayName(url)
        func failure(_ error: heif_error? = nil) -> ImagingError {
            var message = "libheif cannot decode \(what) \(name)"
            if let error, let text = error.message { message += ": \(String(cString: text))" }
            return ImagingError(.decodeFailed, message, url: url)
        }
        let alpha = heif_image_handle_has_alpha_channel(handle) != 0
        let bands = alpha ? 4 : 3
        var image: OpaquePointer?
        let error = heif_decode_image(handle, &image, heif_colorspace_RGB, alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, nil)
        guard error.code == heif_error_Ok, let image else { throw failure(error) }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        var stride: Int32 = 0
        guard width > 0, height > 0, heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved) == 8,
            let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride), Int(stride) >= width * bands
        else { throw failure() }
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
        let profileType = heif_image_handle_get_color_profile_type(handle)
        if profileType == heif_color_profile_type_prof || profileType == heif_color_profile_type_rICC {
            let size = heif_image_handle_get_raw_color_profile_size(handle)
            if size > 0 {
                var profile = [UInt8](repeating: 0, count: size)
                if heif_image_handle_get_raw_color_profile(handle, &profile).code == heif_error_Ok {
                    profile.withUnsafeBytes { vips_image_set_blob_copy(tagged.pointer, "icc-profile-data", $0.baseAddress, $0.count) }
                }
            }
        }
        return tagged
    }
}
