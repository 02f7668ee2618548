import Foundation
import Imaging
import Logging
import PhotosStore

/// Decodes and scales one image for an ``ImageGeometry``, with libvips: shrink-on-load (a
/// JPEG decoded at 1/2, 1/4 or 1/8 scale, a HEIC from its embedded thumbnail when that is big
/// enough), EXIF orientation applied, colour converted to sRGB from an embedded profile, and
/// the result kept in memory.
///
/// The cheapest good source is used: the asset's 256 px grid thumbnail for a square
/// `aspectFill` + `.exact` request it covers (made from the original on first need and kept);
/// its 1440 px preview for any request that needs no
/// more resolution than the preview has (made from the original on first need and kept in
/// `derivatives/`, so later sizes, later processes and other requests decode 2 MP, not 12);
/// else the original.
struct ImageRenderer: Sendable {
    let originalURL: URL
    let sourceWidth: Int
    let sourceHeight: Int
    let geometry: ImageGeometry
    /// Where the asset's derivatives are (nil: don't use or make them).
    let derivatives: Derivatives?

    /// An asset's derivatives; their URLs are made only when a render needs them, not for
    /// every request (most are memory-cache hits).
    struct Derivatives: Sendable {
        let assetUUID: String
        let layout: LibraryLayout
        /// The library's preview limit, trimmed to as previews are written.
        let budget: PreviewBudget
        /// False for a library opened read-only: derivatives already made are read, new ones
        /// are not kept.
        var writable = true
        /// The library's store, whose claims make each derivative once across processes and
        /// instances.
        let store: LibraryDatabase
        /// Where a derivative not kept or a claim not had is reported (the library's logger).
        let logger: Logger

        var thumbnail: URL { layout.url(forRelativePath: StandardDerivative.thumbnail.relativePath(assetUUID: assetUUID)) }
        var preview: URL { layout.url(forRelativePath: StandardDerivative.preview.relativePath(assetUUID: assetUUID)) }

        /// Claims making `kind`, waiting while another process or instance makes it; nil
        /// when nothing is kept (read-only) or the claim can't be had (made here regardless).
        func claim(_ kind: StandardDerivative) -> (any JobClaim)? {
            guard writable else { return nil }
            return logger.attempt(.warning, "claim the \(kind) of \(assetUUID)") {
                try store.claimJob(kind.jobKey(assetUUID: assetUUID), waiting: true)
            }
        }

        /// Encodes `image` as the `kind` derivative and keeps it (the preview toward the
        /// library's limit); one that can't be encoded or written is logged, and made again on
        /// next need. Returns without keeping anything for a library opened read-only.
        func keep(_ image: VipsImage, as kind: StandardDerivative) {
            guard writable else { return }
            let data = logger.attempt(.warning, "encode the \(kind) of \(assetUUID)") {
                try image.jpegData(quality: StandardDerivative.quality, keepMetadata: false)
            }
            guard let data else { return }
            DerivativeCache.write(data, to: kind == .thumbnail ? thumbnail : preview, logger: logger)
            if kind == .preview { budget.noteWritten(data.count, layout: layout) }
        }
    }

    private enum Source {
        case file(URL)
        case image(VipsImage)
    }

    func render() throws(PHPhotosError) -> UIImage {
        do throws(ImagingError) {
            return UIImage(decoded: try renderImage())
        } catch {
            throw PHPhotosError(error.code == .unreadable ? .missingResource : .invalidResource, "Can't load the image: \(error)")
        }
    }

    /// Whether the asset's grid thumbnail answers this request: a whole square `aspectFill`
    /// one it covers.
    private var usesThumbnail: Bool {
        derivatives != nil && geometry.cropsAfterScaling && geometry.isWhole(sourceWidth, sourceHeight)
            && geometry.width == geometry.height && geometry.width <= StandardDerivative.thumbnail.pixelSize
    }

    /// The preview's scale of the original (below 1 when a preview is smaller).
    private var previewScale: Double {
        Double(StandardDerivative.preview.pixelSize) / Double(max(sourceWidth, sourceHeight))
    }

    /// Whether the asset's preview answers this request: one needing no more resolution than
    /// the preview has, larger than a thumbnail.
    private var usesPreview: Bool {
        derivatives != nil && previewScale < 1 && geometry.scale <= previewScale
            && max(geometry.scaledWidth, geometry.scaledHeight) > StandardDerivative.thumbnail.pixelSize
    }

    /// Whether a derivative already made answers this request, so the original isn't read
    /// (nor, for a remote one, fetched).
    var isAnsweredByDerivative: Bool {
        guard let derivatives else { return false }
        return (usesThumbnail && FileManager.default.fileExists(atPath: derivatives.thumbnail.path))
            || (usesPreview && FileManager.default.fileExists(atPath: derivatives.preview.path))
    }

    private func renderImage() throws(ImagingError) -> VipsImage {
        let thumbnailSize = StandardDerivative.thumbnail.pixelSize
        if let derivatives, usesThumbnail {
            let square = ImageGeometry.plan(
                sourceWidth: thumbnailSize, sourceHeight: thumbnailSize,
                target: CGSize(width: geometry.width, height: geometry.height), contentMode: .aspectFill,
                resizeMode: .exact, normalizedCrop: .zero)
            if FileManager.default.fileExists(atPath: derivatives.thumbnail.path) {
                return try Self.render(.file(derivatives.thumbnail), width: thumbnailSize, height: thumbnailSize, geometry: square)
            }
            if min(sourceWidth, sourceHeight) >= thumbnailSize {
                // Made on first need and kept: a grid cell of a library imported without
                // thumbnails costs a 1/8-scale decode, not the 1/2-scale one of a preview.
                // Once: whoever held the claim before may have made it.
                let claim = derivatives.claim(.thumbnail)
                defer { claim?.release() }
                if claim != nil, FileManager.default.fileExists(atPath: derivatives.thumbnail.path) {
                    return try Self.render(.file(derivatives.thumbnail), width: thumbnailSize, height: thumbnailSize, geometry: square)
                }
                let thumbnail = try VipsImage.thumbnail(
                    fileAt: originalURL, width: thumbnailSize, height: thumbnailSize, crop: true, upscale: false)
                derivatives.keep(thumbnail, as: .thumbnail)
                return try Self.render(.image(thumbnail), width: thumbnail.width, height: thumbnail.height, geometry: square)
            }
        }
        let previewSize = StandardDerivative.preview.pixelSize
        if let derivatives, usesPreview {
            let width = max(1, Int((Double(sourceWidth) * previewScale).rounded()))
            let height = max(1, Int((Double(sourceHeight) * previewScale).rounded()))
            let scaled = geometry.regionScaled(by: previewScale, sourceWidth: sourceWidth, sourceHeight: sourceHeight)
            if FileManager.default.fileExists(atPath: derivatives.preview.path) {
                if derivatives.writable { DerivativeCache.noteUsed(derivatives.preview) }
                return try Self.render(.file(derivatives.preview), width: width, height: height, geometry: scaled)
            }
            let claim = derivatives.claim(.preview)
            defer { claim?.release() }
            if claim != nil, FileManager.default.fileExists(atPath: derivatives.preview.path) {
                return try Self.render(.file(derivatives.preview), width: width, height: height, geometry: scaled)
            }
            let preview = try VipsImage.thumbnail(fileAt: originalURL, width: previewSize, height: previewSize, upscale: false)
            derivatives.keep(preview, as: .preview)
            return try Self.render(.image(preview), width: preview.width, height: preview.height, geometry: scaled)
        }
        return try Self.render(.file(originalURL), width: sourceWidth, height: sourceHeight, geometry: geometry)
    }

    /// `source` (`width` × `height`, upright) scaled and cut as `geometry` says.
    private static func render(_ source: Source, width: Int, height: Int, geometry: ImageGeometry) throws(ImagingError) -> VipsImage {
        func scaled(_ boxWidth: Int, _ boxHeight: Int, crop: Bool) throws(ImagingError) -> VipsImage {
            switch source {
            case .file(let url):
                try VipsImage.thumbnail(fileAt: url, width: boxWidth, height: boxHeight, crop: crop, exact: !crop)
            case .image(let image):
                try image.resized(toFit: boxWidth, height: boxHeight, crop: crop, exact: !crop).materialized()
            }
        }
        if geometry.isWhole(width, height) {
            return geometry.cropsAfterScaling
                ? try scaled(geometry.width, geometry.height, crop: true)
                : try scaled(geometry.scaledWidth, geometry.scaledHeight, crop: false)
        }
        // The whole image scaled to at least the region's scale (so shrink-on-load still
        // applies), the region cut out of it, then scaled to the delivered size.
        let region = geometry.region
        let scale = geometry.scale
        let whole = try scaled(
            max(1, Int((Double(width) * scale).rounded(.up))), max(1, Int((Double(height) * scale).rounded(.up))), crop: false)
        let sx = Double(whole.width) / Double(width), sy = Double(whole.height) / Double(height)
        let x = min(whole.width - 1, Int((Double(region.x) * sx).rounded(.down)))
        let y = min(whole.height - 1, Int((Double(region.y) * sy).rounded(.down)))
        let cut = try whole.cropped(
            x: x, y: y, width: max(1, min(whole.width - x, Int((Double(region.width) * sx).rounded()))),
            height: max(1, min(whole.height - y, Int((Double(region.height) * sy).rounded()))))
        let resized =
            geometry.cropsAfterScaling
            ? try cut.resized(toFit: geometry.width, height: geometry.height, crop: true)
            : try cut.resized(toFit: geometry.width, height: geometry.height, exact: true)
        return try resized.materialized()
    }
}

extension ImageGeometry {
    /// Whether the region is all of a `width` × `height` source.
    func isWhole(_ width: Int, _ height: Int) -> Bool {
        region == Rect(x: 0, y: 0, width: width, height: height)
    }
}
