public import Foundation
import Imaging

/// An image, as PhotoKit's signatures use UIKit's.
///
/// Linux: a small stand-in holding an encoded image (JPEG, PNG, WebP, HEIF, ...) and its
/// size, enough for `PHAssetChangeRequest.creationRequestForAsset(from:)` and for code that
/// reads `size` or asks for `jpegData(compressionQuality:)` / `pngData()`.
public final class UIImage: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable after init.
    /// The encoded bytes this image was made from.
    let encodedData: Data
    /// Size in points; with `scale` 1, in pixels, after applying the EXIF orientation.
    public let size: CGSize
    public let scale: CGFloat

    /// An image from encoded bytes; `nil` if they are not an image this library can read.
    public init?(data: Data) {
        guard let metadata = try? MediaProbe.probe(data: data), !metadata.format.isVideo else { return nil }
        encodedData = data
        size = CGSize(width: metadata.orientedPixelWidth, height: metadata.orientedPixelHeight)
        scale = 1
        super.init()
    }

    /// An image from a file; `nil` if it can't be read as an image.
    public convenience init?(contentsOfFile path: String) {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        self.init(data: data)
    }

    /// JPEG bytes at a quality from 0 to 1.
    public func jpegData(compressionQuality: CGFloat) -> Data? {
        let quality = Int((max(0, min(1, compressionQuality)) * 100).rounded())
        return try? VipsImage(data: encodedData).autorotated().jpegData(quality: max(1, quality), keepMetadata: false)
    }

    /// PNG bytes.
    public func pngData() -> Data? {
        try? VipsImage(data: encodedData).autorotated().pngData()
    }
}
