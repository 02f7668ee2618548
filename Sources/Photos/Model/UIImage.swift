public import Foundation
import Imaging
import CoreImage

/// An image, as PhotoKit's signatures use UIKit's.
///
/// Linux: a small stand-in, either encoded bytes (JPEG, PNG, WebP, HEIF, ...) as given to
/// `UIImage(data:)`, or decoded pixels as ``PHImageManager`` delivers them (upright, sRGB, 8 bits
/// per channel, ``imageOrientation`` `.up`). It has the members photo code uses on images
/// PhotoKit hands back: `size`, `scale` and `imageOrientation` with UIKit's meaning,
/// `jpegData(compressionQuality:)`, `pngData()`, `init?(data:)`, and `cgImage`, a decoded
/// bitmap (Core Graphics' `CGImage`) for code that reads pixels. Drawing (`draw(in:)`, graphics
/// contexts), resizable and template images and animated images are not offered.
public final class UIImage: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable after init; a decoded VipsImage is read-only and libvips
    // reference counting is thread-safe.
    private enum Backing {
        case encoded(Data)
        case pixels(VipsImage)
    }

    private let backing: Backing
    /// Size in points: the pixel size divided by ``scale``, after ``imageOrientation`` is
    /// applied (a photo taken in portrait is taller than wide whatever its stored pixels).
    public let size: CGSize
    /// Pixels per point: 1 for images from data and from ``PHImageManager``.
    public let scale: CGFloat
    /// How to turn the stored pixels (``cgImage``) to show them upright: from the EXIF
    /// orientation for an image made from data, `.up` for images ``PHImageManager`` delivers
    /// (their pixels are already upright).
    public let imageOrientation: Orientation
    /// The Core Image recipe the pixels were rendered from (``init(ciImage:)``).
    let recipe: CIImage?

    /// An image from encoded bytes; `nil` if they are not an image this library can read.
    public init?(data: Data) {
        // try?: bytes that are not an image are the nil Apple's initializer answers.
        guard let metadata = try? MediaProbe.probe(data: data), !metadata.format.isVideo else { return nil }
        backing = .encoded(data)
        size = CGSize(width: metadata.orientedPixelWidth, height: metadata.orientedPixelHeight)
        scale = 1
        imageOrientation = CGImagePropertyOrientation(rawValue: UInt32(metadata.orientation)).map(Orientation.init) ?? .up
        recipe = nil
        super.init()
    }

    /// An image from encoded bytes at `scale` pixels per point.
    public convenience init?(data: Data, scale: CGFloat) {
        guard scale > 0, let image = UIImage(data: data) else { return nil }
        self.init(copying: image, scale: scale, orientation: image.imageOrientation)
    }

    /// An image from a file; `nil` if it can't be read as an image.
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(data: data)
    }

    /// An image of a bitmap, shown as it is stored.
    public convenience init(cgImage: CGImage) {
        self.init(cgImage: cgImage, scale: 1, orientation: .up)
    }

    /// An image of a bitmap at `scale` pixels per point, shown turned by `orientation`.
    public init(cgImage: CGImage, scale: CGFloat, orientation: Orientation) {
        backing = .pixels(cgImage.image)
        self.scale = scale > 0 ? scale : 1
        imageOrientation = orientation
        let turned = orientation.swapsWidthAndHeight
        size = CGSize(
            width: CGFloat(turned ? cgImage.height : cgImage.width) / self.scale,
            height: CGFloat(turned ? cgImage.width : cgImage.height) / self.scale)
        recipe = nil
        super.init()
    }

    /// Decoded, upright pixels (from the image manager).
    init(decoded image: VipsImage, recipe: CIImage? = nil) {
        self.recipe = recipe
        backing = .pixels(image)
        size = CGSize(width: image.width, height: image.height)
        scale = 1
        imageOrientation = .up
        super.init()
    }

    private init(copying image: UIImage, scale: CGFloat, orientation: Orientation) {
        backing = image.backing
        self.scale = scale
        imageOrientation = orientation
        size = CGSize(width: image.size.width * image.scale / scale, height: image.size.height * image.scale / scale)
        recipe = nil
        super.init()
    }

    /// The encoded bytes this image was made from; decoded images are encoded as PNG.
    var encodedData: Data {
        switch backing {
        case .encoded(let data): data
        case .pixels(let image):
            // try?: pixels that can't be encoded give no bytes, which the creation request
            // given this image then refuses with its own error.
            (try? image.pngData(keepMetadata: false)) ?? Data()
        }
    }

    /// The stored pixels, not turned.
    private func stored() throws(ImagingError) -> VipsImage {
        switch backing {
        case .encoded(let data): try VipsImage(data: data)
        case .pixels(let image): image
        }
    }

    /// The upright image, decoded.
    private func decoded() throws(ImagingError) -> VipsImage {
        switch backing {
        case .encoded(let data): return try VipsImage(data: data).autorotated()
        case .pixels(let image): return try imageOrientation.applied(to: image)
        }
    }

    /// The stored pixels as a bitmap (not turned by ``imageOrientation``, as on Apple's
    /// platforms); `nil` if the bytes can't be decoded.
    ///
    /// Linux: a `CGImage` stand-in holding 8-bit pixels: grey, grey and alpha, RGB or RGBA.
    public var cgImage: CGImage? {
        // try?: bytes that can't be decoded are the nil documented above (Apple's answer too).
        guard let image = try? stored() else { return nil }
        // try?: as above.
        return try? CGImage(image)
    }

    /// Width in pixels (`size.width × scale`). Linux addition.
    public var pixelWidth: Int { Int(size.width * scale) }
    /// Height in pixels (`size.height × scale`). Linux addition.
    public var pixelHeight: Int { Int(size.height * scale) }

    /// Channels per pixel in ``pixelData()``: 3 (RGB) or 4 (RGBA), or 1/2 for grey images.
    package var bytesPerPixel: Int {
        // try?: an image that can't be decoded has no pixels (0), as ``pixelData()`` has none.
        (try? decoded().bands) ?? 0
    }

    /// The upright pixels, row by row from the top left, ``bytesPerPixel`` bytes each, no
    /// padding (`bytesPerRow == pixelWidth × bytesPerPixel`).
    package func pixelData() -> Data? {
        // try?: an image that can't be decoded has no pixels: nil is the answer.
        try? decoded().memoryBytes()
    }

    /// One upright pixel's channel values (0...255).
    package func pixel(x: Int, y: Int) -> [UInt8]? {
        // try?: nil for an image that can't be decoded or a point outside it.
        guard let values = try? decoded().pixel(x: x, y: y) else { return nil }
        return values.map { UInt8(max(0, min(255, $0.rounded()))) }
    }

    /// JPEG bytes at a quality from 0 to 1, upright (the orientation is applied to the pixels,
    /// not written as EXIF); `nil` if the image can't be decoded.
    public func jpegData(compressionQuality: CGFloat) -> Data? {
        let quality = Int((max(0, min(1, compressionQuality)) * 100).rounded())
        // try?: nil when the image can't be decoded, as documented (Apple's answer too).
        return try? decoded().jpegData(quality: max(1, quality), keepMetadata: false)
    }

    /// PNG bytes, upright.
    public func pngData() -> Data? {
        // try?: nil when the image can't be decoded, as Apple's answers.
        try? decoded().pngData(keepMetadata: false)
    }

    /// WebP bytes at a quality from 0 to 1, upright. Linux addition.
    public func webpData(quality: CGFloat = 0.8) -> Data? {
        let value = Int((max(0, min(1, quality)) * 100).rounded())
        // try?: nil when the image can't be decoded, as ``pngData()``.
        return try? decoded().webpData(quality: max(1, value), keepMetadata: false)
    }

    /// Bytes the decoded pixels take in memory (for cache accounting).
    var memoryCost: Int {
        switch backing {
        case .encoded(let data): data.count
        case .pixels(let image): image.width * image.height * image.bands
        }
    }
}
