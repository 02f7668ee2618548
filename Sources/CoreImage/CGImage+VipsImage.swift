package import CoreGraphics
package import Imaging

extension CGImage {
    /// The 8-bit pixels of a libvips image (converted to 8-bit sRGB when it is not already 8-bit).
    package convenience init(_ source: VipsImage) throws(ImagingError) {
        var image = source
        var bytes = try image.memoryBytes()
        if bytes.count != image.width * image.height * image.bands {
            image = try image.srgb()
            bytes = try image.memoryBytes()
        }
        self.init(width: image.width, height: image.height, bands: image.bands, bytes: bytes, source: image)
    }

    /// The pixels in libvips, for `UIImage(cgImage:)` and Core Image.
    package var image: VipsImage {
        // Every CGImage is made by the initializer above or by cropping one (below), so its
        // source is a VipsImage; CGBitmapSource is this package's and has no other conformance.
        guard let image = source as? VipsImage else { preconditionFailure("a CGImage's pixels are a VipsImage") }
        return image
    }
}

extension VipsImage: CGBitmapSource {
    package func bitmap(croppedTo rect: CGRect) -> CGImage? {
        // try?: a region libvips can't cut is the nil Apple's `cropping(to:)` answers.
        guard let part = try? cropped(x: Int(rect.minX), y: Int(rect.minY), width: Int(rect.width), height: Int(rect.height))
        else { return nil }
        // try?: as above.
        return try? CGImage(part.materialized())
    }
}
