import Foundation
import Imaging

/// Decodes and scales one image for an ``ImageGeometry``, with libvips: shrink-on-load (a
/// JPEG decoded at 1/2, 1/4 or 1/8 scale, a HEIC from its embedded thumbnail when that is big
/// enough), EXIF orientation applied, colour converted to sRGB from an embedded profile, and
/// the result kept in memory.
enum ImageRenderer {
    static func render(
        fileAt url: URL, sourceWidth: Int, sourceHeight: Int, geometry: ImageGeometry
    ) throws(PHPhotosError) -> UIImage {
        do throws(ImagingError) {
            let image: VipsImage
            let whole = geometry.region == ImageGeometry.Rect(x: 0, y: 0, width: sourceWidth, height: sourceHeight)
            if whole {
                if geometry.cropsAfterScaling {
                    image = try VipsImage.thumbnail(fileAt: url, width: geometry.width, height: geometry.height, crop: true)
                } else {
                    image = try VipsImage.thumbnail(
                        fileAt: url, width: geometry.scaledWidth, height: geometry.scaledHeight, exact: true)
                }
            } else {
                image = try region(of: url, sourceWidth: sourceWidth, sourceHeight: sourceHeight, geometry: geometry)
            }
            return UIImage(decoded: image)
        } catch {
            throw PHPhotosError(error.code == .unreadable ? .missingResource : .invalidResource, "Can't load the image: \(error)")
        }
    }

    /// The whole image scaled to at least the region's scale (so shrink-on-load still
    /// applies), the region cut out of it, then scaled to the delivered size.
    private static func region(
        of url: URL, sourceWidth: Int, sourceHeight: Int, geometry: ImageGeometry
    ) throws(ImagingError) -> VipsImage {
        let region = geometry.region
        let scale = max(
            Double(geometry.scaledWidth) / Double(region.width), Double(geometry.scaledHeight) / Double(region.height))
        let wholeWidth = max(1, Int((Double(sourceWidth) * scale).rounded(.up)))
        let wholeHeight = max(1, Int((Double(sourceHeight) * scale).rounded(.up)))
        let scaled = try VipsImage.thumbnail(fileAt: url, width: wholeWidth, height: wholeHeight, exact: true)
        let sx = Double(scaled.width) / Double(sourceWidth), sy = Double(scaled.height) / Double(sourceHeight)
        let x = min(scaled.width - 1, Int((Double(region.x) * sx).rounded(.down)))
        let y = min(scaled.height - 1, Int((Double(region.y) * sy).rounded(.down)))
        let width = max(1, min(scaled.width - x, Int((Double(region.width) * sx).rounded())))
        let height = max(1, min(scaled.height - y, Int((Double(region.height) * sy).rounded())))
        let cut = try scaled.cropped(x: x, y: y, width: width, height: height)
        let resized: VipsImage
        if geometry.cropsAfterScaling {
            resized = try cut.resized(toFit: geometry.width, height: geometry.height, crop: true)
        } else {
            resized = try cut.resized(toFit: geometry.width, height: geometry.height, exact: true)
        }
        return try resized.materialized()
    }
}
