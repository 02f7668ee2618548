import Foundation
import PhotosStore

extension PHImageManager {
    /// The size of the grid thumbnail the library keeps for each photo, in pixels (square).
    ///
    /// For `photos serve` only (`package` access), as are the members below.
    package static let gridThumbnailPixelSize = StandardDerivative.thumbnail.pixelSize

    /// The grid thumbnail the library keeps for a photo, as stored: ``gridThumbnailPixelSize``
    /// square, centre-cropped, upright, sRGB, JPEG at quality 80, of the current version.
    /// `nil` when it hasn't been made yet (an image request for a square `aspectFill` of that
    /// size or smaller with `.exact` resizing makes it, as do `photos import --thumbnails` and
    /// `photos cache warm`), for videos, and for photos smaller than that (theirs is smaller).
    ///
    /// A server sends these bytes on without decoding and encoding them again. Reads one small
    /// file; doesn't make anything.
    package func storedGridThumbnailData(for asset: PHAsset) -> Data? {
        // try?: a thumbnail not made yet is the nil asked about; the caller then requests the
        // image, which makes it or reports why it can't.
        storedGridThumbnailURL(for: asset).flatMap { try? Data(contentsOf: $0) }
    }

    /// Whether ``storedGridThumbnailData(for:)`` has bytes to give (a file check; nothing is
    /// read): a server preheats only the thumbnails not made yet.
    package func hasStoredGridThumbnail(for asset: PHAsset) -> Bool {
        storedGridThumbnailURL(for: asset).map { FileManager.default.fileExists(atPath: $0.path) } ?? false
    }

    private func storedGridThumbnailURL(for asset: PHAsset) -> URL? {
        let side = Self.gridThumbnailPixelSize
        guard asset.mediaType == .image, min(asset.pixelWidth, asset.pixelHeight) >= side, let library = asset.library else { return nil }
        return library.store.layout.url(forRelativePath: StandardDerivative.thumbnail.relativePath(assetUUID: asset.uuid))
    }
}

extension PHImageManager {
    /// What can be had for an image request at once, without rendering.
    package enum ImmediateImage: Sendable {
        /// The final image, from the memory cache (a preheat or an earlier request made it).
        case final(UIImage)
        /// The thumbnail the file carries, shaped to the request (may be smaller than asked):
        /// what `.opportunistic` and `.fastFormat` deliver as degraded.
        case degraded(UIImage)
        /// The same thumbnail as the file holds it, JPEG bytes not decoded (upright through an
        /// EXIF orientation segment; the photo's aspect, not cropped to the request).
        case degradedJPEG(Data)
    }

    /// The final image if it is in memory, else the degraded one from the file's embedded
    /// thumbnail, else `nil` (only a render can give an image). Never renders nor waits; the
    /// same source ``requestImage(for:targetSize:contentMode:options:resultHandler:)`` uses.
    ///
    /// For `photos serve` only (`package` access): a grid answers a cell at once with this.
    ///
    /// With `preferringJPEG`, a JPEG's EXIF thumbnail comes as its bytes, undecoded, when a
    /// browser can show them as they are (``ImmediateImage/degradedJPEG(_:)``): a server sends
    /// them on, 100 or more a second on one core, where decoding, shaping and encoding again
    /// would cost ten times as much.
    package func immediateImage(
        for asset: PHAsset, targetSize: CGSize, contentMode: PHImageContentMode, options: PHImageRequestOptions,
        preferringJPEG: Bool = false
    ) -> ImmediateImage? {
        // try?: nothing at once; the request that follows makes the plan again and reports its error.
        guard let plan = try? ImageRequestPlan(asset: asset, targetSize: targetSize, contentMode: contentMode, options: options) else {
            return nil
        }
        if let cached = plan.loader.cache.image(for: plan.key) { return .final(cached) }
        if preferringJPEG, let bytes = plan.embeddedDegradedJPEG() { return .degradedJPEG(bytes) }
        return plan.embeddedDegradedImage().map { .degraded($0) }
    }
}
