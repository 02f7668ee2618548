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
}
