public import Foundation
import CVips

extension VipsImage {
    /// The pixels as bytes, row by row from the top left, `bands` bytes per pixel for an
    /// 8-bit image, no row padding. Decodes what is not decoded yet.
    public func memoryBytes() throws(ImagingError) -> Data {
        var size = 0
        guard let bytes = vips_image_write_to_memory(pointer, &size) else {
            throw ImagingError.vips(.decodeFailed, "cannot read the pixels of", url: sourceURL)
        }
        return Data(bytesNoCopy: bytes, count: size, deallocator: .custom { pointer, _ in g_free(pointer) })
    }

    /// An image from 8-bit pixels laid out as ``memoryBytes()`` returns them: row by row from
    /// the top left, `bands` bytes per pixel (1 grey, 2 grey and alpha, 3 sRGB, 4 sRGB and
    /// alpha), no row padding. libvips keeps its own copy.
    /// - Throws: `.invalidArgument` when the sizes don't match the bytes.
    public convenience init(pixels: Data, width: Int, height: Int, bands: Int) throws(ImagingError) {
        VipsRuntime.ensureInitialized()
        guard width > 0, height > 0, (1...4).contains(bands), pixels.count == width * height * bands else {
            throw ImagingError(
                .invalidArgument, "\(pixels.count) bytes are not \(width)x\(height) pixels of \(bands) bytes each")
        }
        let made = pixels.withUnsafeBytes {
            vips_image_new_from_memory_copy($0.baseAddress, $0.count, Int32(width), Int32(height), Int32(bands), VIPS_FORMAT_UCHAR)
        }
        guard let made else { throw ImagingError.vips(.decodeFailed, "cannot make an image of", url: nil) }
        let plain = VipsImage(owning: made, sourceURL: nil)
        let interpretation = bands < 3 ? VIPS_INTERPRETATION_B_W : VIPS_INTERPRETATION_sRGB
        let tagged = try plain.derive("copy") { cvips_copy_interpretation(plain.pointer, $0, Int32(interpretation.rawValue)) }
        self.init(owning: tagged.retainedPointer(), sourceURL: nil)
    }

    /// A new reference to the libvips image, for a second owner.
    func retainedPointer() -> UnsafeMutablePointer<CVips.VipsImage> {
        g_object_ref(pointer)
        return pointer
    }
}
