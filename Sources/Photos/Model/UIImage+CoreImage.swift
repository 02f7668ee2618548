public import CoreImage
import Imaging

extension UIImage {
    /// An image of a Core Image recipe, rendered now over its extent (which must be finite) by a
    /// shared context. Linux: Apple's renders lazily when drawn; this one has pixels at once,
    /// and ``ciImage`` keeps the recipe. A recipe that can't be rendered gives a 1 × 1
    /// transparent image.
    public convenience init(ciImage: CIImage) {
        let rendered = Self.coreImageContext.createCGImage(ciImage, from: ciImage.extent)
        // try?: a 1 × 1 transparent bitmap always encodes; the fallback is only for a recipe
        // with no pixels.
        let pixels = rendered?.image ?? (try? VipsImage(pixels: Data([0, 0, 0, 0]), width: 1, height: 1, bands: 4))
        self.init(decoded: pixels!, recipe: ciImage)
    }

    /// The Core Image recipe the image was made from (``init(ciImage:)``), else nil, as on
    /// Apple's platforms.
    public var ciImage: CIImage? { recipe }

    private static let coreImageContext = CIContext()
}

extension CIImage {
    /// The image's pixels as Core Image sees them, turned upright by its orientation (UIKit's
    /// `CIImage(image:)`); nil when they can't be decoded.
    public convenience init?(image: UIImage) {
        if let recipe = image.ciImage {
            self.init(copying: recipe)
            return
        }
        guard let cgImage = image.cgImage else { return nil }
        self.init(copying: CIImage(cgImage: cgImage).oriented(CGImagePropertyOrientation(image.imageOrientation)))
    }
}
