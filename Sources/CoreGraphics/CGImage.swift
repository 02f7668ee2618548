public import Foundation

/// A decoded bitmap, standing in for Core Graphics' `CGImage` where photo code reads pixels
/// (`image.cgImage`).
///
/// Linux: only what a bitmap of 8-bit pixels can honestly answer: its size, layout, alpha and
/// bytes (``dataProvider``'s `data`, a `Data` here where Apple's is a `CFData`: read it with
/// `data.withUnsafeBytes` instead of `CFDataGetBytePtr`), and ``cropping(to:)``. Pixels are grey
/// (1 byte), grey and alpha (2), sRGB (3) or sRGB and alpha (4), rows without padding, alpha
/// not premultiplied; ``colorSpace`` is sRGB (grey for grey pixels). There is no drawing into
/// contexts and no `CGImageSource`/`CGImageDestination`; use `UIImage(data:)`,
/// `jpegData(compressionQuality:)` and `pngData()` for encoded bytes, or Core Image's
/// `CIContext` (`jpegRepresentation`, `createCGImage`).
public final class CGImage: Sendable {
    public let width: Int
    public let height: Int
    /// 8.
    public let bitsPerComponent: Int
    /// 8 × the bytes per pixel.
    public let bitsPerPixel: Int
    /// `width × bitsPerPixel / 8`: rows are not padded.
    public let bytesPerRow: Int
    /// `.last` for images with alpha, else `.none`.
    public let alphaInfo: CGImageAlphaInfo
    /// The pixel bytes, row by row from the top left.
    public let dataProvider: CGDataProvider?
    /// sRGB, or for grey pixels the generic grey space.
    public var colorSpace: CGColorSpace? { CGColorSpace(name: bitsPerPixel <= 16 ? CGColorSpace.genericGrayGamma2_2 : CGColorSpace.sRGB) }
    /// What holds the pixels besides ``dataProvider`` (libvips' image, for `UIImage(cgImage:)`,
    /// Core Image and cropping), opaque here: Core Graphics imports no C library, so a module
    /// that finds it by `canImport(CoreGraphics)` (GRDB's `CGFloat` support does) compiles
    /// without libvips' headers.
    package let source: any CGBitmapSource

    /// A bitmap of `bytes` laid out as described above (`bands` bytes per pixel: 1 grey, 2 grey
    /// and alpha, 3 sRGB, 4 sRGB and alpha), kept by `source` too.
    package init(width: Int, height: Int, bands: Int, bytes: Data, source: any CGBitmapSource) {
        self.source = source
        self.width = width
        self.height = height
        bitsPerComponent = 8
        bitsPerPixel = 8 * bands
        bytesPerRow = width * bands
        alphaInfo = bands == 2 || bands == 4 ? .last : .none
        dataProvider = CGDataProvider(data: bytes)
    }

    /// The part of the bitmap inside `rect` (in pixels, origin top left), clipped to the
    /// bitmap; `nil` when nothing is left.
    public func cropping(to rect: CGRect) -> CGImage? {
        let clipped = rect.standardized.integral.intersection(CGRect(x: 0, y: 0, width: width, height: height))
        guard !clipped.isNull, clipped.width >= 1, clipped.height >= 1 else { return nil }
        return source.bitmap(croppedTo: clipped)
    }
}

/// What keeps a ``CGImage``'s pixels: libvips' image, given this conformance in Core Image.
package protocol CGBitmapSource: Sendable {
    /// The pixels inside `rect` (whole pixels, inside the bitmap) as a new bitmap; `nil` when
    /// they can't be cut.
    func bitmap(croppedTo rect: CGRect) -> CGImage?
}

/// The bytes behind a ``CGImage``. Linux: `data` is `Data` (Apple's is `CFData`).
public final class CGDataProvider: Sendable {
    public let data: Data?

    public init?(data: Data) {
        self.data = data
    }
}

/// Where a bitmap keeps its alpha. Raw values are Core Graphics'.
public enum CGImageAlphaInfo: UInt32, Sendable {
    case none = 0
    case premultipliedLast = 1
    case premultipliedFirst = 2
    case last = 3
    case first = 4
    case noneSkipLast = 5
    case noneSkipFirst = 6
    case alphaOnly = 7
}
