public import CoreGraphics
public import Foundation
package import Imaging

/// Renders ``CIImage`` recipes into bitmaps and encoded files, as Core Image's context does.
///
/// Linux: every context renders on the CPU through libvips, which streams each recipe in
/// tiles on the machine's cores; contexts are cheap and safe to share between threads.
/// Output colour spaces: sRGB (the default), linear sRGB (written as 8-bit linear values) and
/// Display P3 (converted by libvips' lcms and tagged with its profile); other spaces give nil.
/// `CIFormat` picks whether an alpha channel is written (`RGBA8`, `ARGB8`, `BGRA8`) or not (`RGBX8`
/// style formats do not exist here: use a JPEG); bitmaps are 8 bits per channel.
public final class CIContext: @unchecked Sendable {
    // @unchecked Sendable: immutable.
    private let workingColorSpaceName: String?
    private let renderer = Renderer()

    /// Linux: options are read for `.workingColorSpace` only (any space but linear sRGB is
    /// reported through ``workingColorSpace`` and otherwise ignored).
    public init(options: [CIContextOption: Any]? = nil) {
        workingColorSpaceName = (options?[.workingColorSpace] as? CGColorSpace)?.name
    }

    /// The space filters work in: extended linear sRGB.
    public var workingColorSpace: CGColorSpace? { CGColorSpace(name: workingColorSpaceName ?? CGColorSpace.extendedLinearSRGB) }

    /// The pixels of `image` inside `fromRect` as an 8-bit sRGB bitmap (with alpha); nil when
    /// the rectangle is empty or infinite, or rendering fails.
    public func createCGImage(_ image: CIImage, from fromRect: CGRect) -> CGImage? {
        createCGImage(image, from: fromRect, format: .RGBA8, colorSpace: nil)
    }

    public func createCGImage(_ image: CIImage, from fromRect: CGRect, format: CIFormat, colorSpace: CGColorSpace?) -> CGImage? {
        // try?: a recipe libvips can't run is the nil Apple's context answers.
        guard let pixels = try? encodedPixels(image, rect: fromRect, colorSpace: colorSpace ?? CGColorSpaceCreateDeviceRGB(), alpha: format.hasAlpha)
        else { return nil }
        return try? CGImage(pixels.materialized())
    }

    /// The image (its extent, which must be finite) as JPEG bytes; nil when it can't be.
    /// `kCGImageDestinationLossyCompressionQuality` (0...1, default 0.9) sets the quality.
    public func jpegRepresentation(of image: CIImage, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]) -> Data? {
        try? encodedPixels(image, rect: image.extent, colorSpace: colorSpace, alpha: false)
            .jpegData(quality: Self.quality(options), keepMetadata: Self.keepsMetadata(colorSpace))
    }

    public func pngRepresentation(
        of image: CIImage, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]
    ) -> Data? {
        try? encodedPixels(image, rect: image.extent, colorSpace: colorSpace, alpha: format.hasAlpha).pngData(keepMetadata: Self.keepsMetadata(colorSpace))
    }

    /// HEIC bytes; nil where this machine's libheif has no HEVC encoder.
    public func heifRepresentation(
        of image: CIImage, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]
    ) -> Data? {
        try? encodedPixels(image, rect: image.extent, colorSpace: colorSpace, alpha: format.hasAlpha)
            .heifData(quality: Self.quality(options), keepMetadata: Self.keepsMetadata(colorSpace))
    }

    /// Writes the JPEG to `url` through a temporary file and a rename, so the file is whole or
    /// absent. Throws `CocoaError(.fileWriteUnknown)` naming the reason when the image can't
    /// be rendered or the file written.
    public func writeJPEGRepresentation(
        of image: CIImage, to url: URL, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]
    ) throws {
        try write(url, jpegRepresentation(of: image, colorSpace: colorSpace, options: options), image)
    }

    public func writePNGRepresentation(
        of image: CIImage, to url: URL, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]
    ) throws {
        try write(url, pngRepresentation(of: image, format: format, colorSpace: colorSpace, options: options), image)
    }

    public func writeHEIFRepresentation(
        of image: CIImage, to url: URL, format: CIFormat, colorSpace: CGColorSpace, options: [CIImageRepresentationOption: Any] = [:]
    ) throws {
        try write(url, heifRepresentation(of: image, format: format, colorSpace: colorSpace, options: options), image)
    }

    // MARK: Rendering

    /// 8-bit pixels of `rect` in `colorSpace`: RGBA unpremultiplied when `alpha`, else RGB
    /// (premultiplied colour, as Core Image writes transparent pixels into JPEG: black).
    package func encodedPixels(_ image: CIImage, rect: CGRect, colorSpace: CGColorSpace, alpha: Bool) throws -> VipsImage {
        guard colorSpace.supportsOutput, colorSpace.model == .rgb || colorSpace.model == .monochrome else {
            throw ImagingError(.invalidArgument, "Core Image can't write into \(colorSpace.name ?? "this colour space")")
        }
        let tile = try renderer.render(image.recipe, in: rect)
        var linear = tile.image
        if tile.hasAlpha {
            let coverage = try linear.bands(3, count: 1)
            linear = alpha ? try linear.bands(0, count: 3).divided(by: coverage).joined(with: coverage) : try linear.bands(0, count: 3)
        } else if alpha {
            linear = try linear.joined(with: try linear.bands(0, count: 1).linear([0], [1]))
        }
        if colorSpace.isLinear {
            let colour = try (linear.bands == 4 ? linear.bands(0, count: 3) : linear).clippedToUnit().linear([255], [0.5])
            let withAlpha = linear.bands == 4 ? try colour.joined(with: try linear.bands(3, count: 1).linear([255], [0.5])) : colour
            return try withAlpha.castToBytes()
        }
        let srgb = try linear.sRGBFromLinear()
        // The source's EXIF (its orientation among it) doesn't describe the render: dropped.
        return colorSpace.name == CGColorSpace.displayP3 ? try srgb.withoutExif().converted(toProfile: "p3") : srgb
    }

    /// Whether the encoded file carries metadata: only a Display P3 render, for its profile
    /// (sRGB is what readers assume; a source's EXIF and profile don't describe the render).
    private static func keepsMetadata(_ colorSpace: CGColorSpace) -> Bool {
        colorSpace.name == CGColorSpace.displayP3
    }

    private static func quality(_ options: [CIImageRepresentationOption: Any]) -> Int {
        let value = options[kCGImageDestinationLossyCompressionQuality]
        let fraction = (value as? Double) ?? (value as? Float).map(Double.init) ?? (value as? CGFloat).map(Double.init)
            ?? (value as? NSNumber)?.doubleValue ?? 0.9
        return Int((min(1, max(0, fraction)) * 100).rounded())
    }

    private func write(_ url: URL, _ data: Data?, _ image: CIImage) throws {
        guard let data else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "Core Image could not render \(image) for \(url.path)"])
        }
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).partial")
        do {
            try data.write(to: temporary)
            guard rename(temporary.path, url.path) == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "Can't move the rendered file to \(url.path)"])
            }
        } catch {
            // try?: the partial file is the only thing to clean up; the error thrown is the report.
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}

/// A bitmap's pixel layout. Linux: 8-bit formats only are rendered; `RGBAh`, `RGBAf` and
/// `RGBA16` are accepted and give 8-bit pixels.
public struct CIFormat: RawRepresentable, Hashable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let ARGB8 = CIFormat(rawValue: 264)
    public static let BGRA8 = CIFormat(rawValue: 266)
    public static let RGBA8 = CIFormat(rawValue: 264 + 0x100)
    public static let RGBA16 = CIFormat(rawValue: 291)
    public static let RGBAh = CIFormat(rawValue: 2056)
    public static let RGBAf = CIFormat(rawValue: 2304)
    public static let L8 = CIFormat(rawValue: 0x4C38)
    public static let A8 = CIFormat(rawValue: 0x4138)

    var hasAlpha: Bool { self != .L8 }
}

/// Keys of ``CIContext``'s options.
public struct CIContextOption: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let workingColorSpace = CIContextOption(rawValue: "working_color_space")
    public static let outputColorSpace = CIContextOption(rawValue: "output_color_space")
    public static let workingFormat = CIContextOption(rawValue: "working_format")
    public static let useSoftwareRenderer = CIContextOption(rawValue: "software_renderer")
    public static let cacheIntermediates = CIContextOption(rawValue: "kCIContextCacheIntermediates")
    public static let highQualityDownsample = CIContextOption(rawValue: "high_quality_downsample")
    public static let priorityRequestLow = CIContextOption(rawValue: "priority_request_low")
}

/// Keys of the representation methods' options.
public struct CIImageRepresentationOption: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// ImageIO's quality key (0...1), typed here as the representation option it is used as:
/// `[kCGImageDestinationLossyCompressionQuality as CIImageRepresentationOption: 0.8]` compiles
/// unchanged.
public let kCGImageDestinationLossyCompressionQuality = CIImageRepresentationOption(rawValue: "kCGImageDestinationLossyCompressionQuality")
