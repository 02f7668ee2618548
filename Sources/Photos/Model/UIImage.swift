public import Foundation
import Imaging

/// An image, as PhotoKit's signatures use UIKit's.
///
/// Linux: a small stand-in, either encoded bytes (JPEG, PNG, WebP, HEIF, ...) as given to
/// `UIImage(data:)`, or decoded pixels as ``PHImageManager`` delivers them: upright, sRGB,
/// 8 bits per channel. It has the members server code uses: `size` and `scale`, pixel access
/// (``pixelWidth``, ``pixelHeight``, ``bytesPerPixel``, ``pixelData()``,
/// ``pixel(x:y:)``) and encoding (`jpegData(compressionQuality:)`, `pngData()`,
/// ``webpData(quality:)``). Code written against UIKit's `UIImage` compiles where it only
/// uses those.
public final class UIImage: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable after init; a decoded VipsImage is read-only and libvips
    // reference counting is thread-safe.
    private enum Backing {
        case encoded(Data)
        case pixels(VipsImage)
    }

    private let backing: Backing
    /// Size in points; with `scale` 1, in pixels, after applying the EXIF orientation.
    public let size: CGSize
    public let scale: CGFloat

    /// An image from encoded bytes; `nil` if they are not an image this library can read.
    public init?(data: Data) {
        guard let metadata = try? MediaProbe.probe(data: data), !metadata.format.isVideo else { return nil }
        backing = .encoded(data)
        size = CGSize(width: metadata.orientedPixelWidth, height: metadata.orientedPixelHeight)
        scale = 1
        super.init()
    }

    /// An image from a file; `nil` if it can't be read as an image.
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(data: data)
    }

    /// Decoded, upright pixels (from the image manager).
    init(decoded image: VipsImage) {
        backing = .pixels(image)
        size = CGSize(width: image.width, height: image.height)
        scale = 1
        super.init()
    }

    /// The encoded bytes this image was made from; decoded images are encoded as PNG.
    var encodedData: Data {
        switch backing {
        case .encoded(let data): data
        case .pixels(let image): (try? image.pngData(keepMetadata: false)) ?? Data()
        }
    }

    /// The upright image, decoded.
    private func decoded() throws(ImagingError) -> VipsImage {
        switch backing {
        case .encoded(let data): try VipsImage(data: data).autorotated()
        case .pixels(let image): image
        }
    }

    /// Width in pixels (`size.width × scale`).
    public var pixelWidth: Int { Int(size.width * scale) }
    /// Height in pixels.
    public var pixelHeight: Int { Int(size.height * scale) }

    /// Channels per pixel in ``pixelData()``: 3 (RGB) or 4 (RGBA), or 1/2 for grey images.
    /// Linux addition.
    public var bytesPerPixel: Int {
        (try? decoded().bands) ?? 0
    }

    /// The pixels, row by row from the top left, ``bytesPerPixel`` bytes each, no padding
    /// (`bytesPerRow == pixelWidth × bytesPerPixel`). Linux addition, in place of `cgImage`.
    public func pixelData() -> Data? {
        try? decoded().memoryBytes()
    }

    /// One pixel's channel values (0...255). Linux addition.
    public func pixel(x: Int, y: Int) -> [UInt8]? {
        guard let values = try? decoded().pixel(x: x, y: y) else { return nil }
        return values.map { UInt8(max(0, min(255, $0.rounded()))) }
    }

    /// JPEG bytes at a quality from 0 to 1.
    public func jpegData(compressionQuality: CGFloat) -> Data? {
        let quality = Int((max(0, min(1, compressionQuality)) * 100).rounded())
        return try? decoded().jpegData(quality: max(1, quality), keepMetadata: false)
    }

    /// PNG bytes.
    public func pngData() -> Data? {
        try? decoded().pngData(keepMetadata: false)
    }

    /// WebP bytes at a quality from 0 to 1. Linux addition.
    public func webpData(quality: CGFloat = 0.8) -> Data? {
        let value = Int((max(0, min(1, quality)) * 100).rounded())
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
