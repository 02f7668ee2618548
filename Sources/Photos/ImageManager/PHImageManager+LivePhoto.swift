public import Foundation
import Imaging
import PhotosStore

extension PHImageManager {
    /// Requests a Live Photo asset as a ``PHLivePhoto``: its still and its paired movie, in
    /// the version asked for (`.current` pairs the edited still with the edited movie when
    /// the asset has been edited). `resultHandler` runs on the ``deliveryQueue`` with the
    /// Live Photo, or `nil` and ``PHImageErrorKey`` (for an asset that is not a Live Photo,
    /// `PHPhotosError.Code.requestNotSupportedForAsset`).
    ///
    /// Linux: delivered once, not degraded, in every delivery mode (Apple may deliver a
    /// low-quality Live Photo first). The Live Photo's ``PHLivePhoto/size`` is the still's
    /// upright size fitted to `targetSize` with `contentMode`, never enlarged
    /// (``PHImageManagerMaximumSize`` for the full size); its files are the library's own.
    @discardableResult
    public func requestLivePhoto(
        for asset: PHAsset, targetSize: CGSize, contentMode: PHImageContentMode, options: PHLivePhotoRequestOptions?,
        resultHandler: @escaping (PHLivePhoto?, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        let options = (options?.copy() as? PHLivePhotoRequestOptions) ?? PHLivePhotoRequestOptions()
        let handler = UncheckedSendable(resultHandler)
        let requestID = Self.makeRequestID()
        let queue = deliveryQueue
        let request = mediaRequests.start(requestID) {
            var info = Self.info(requestID, degraded: false)
            info[PHImageCancelledKey] = NSNumber(value: true)
            let cancelled = UncheckedInfo(value: info)
            queue.async { handler.value(nil, cancelled.value) }
        }
        let settings = UncheckedSendable(options)
        MediaRequests.queue.async { [mediaRequests] in
            defer { mediaRequests.finish(requestID) }
            guard !request.isSettled else { return }
            let result: Result<PHLivePhoto, PHPhotosError>
            do throws(PHPhotosError) {
                result = .success(try Self.livePhoto(of: asset, targetSize: targetSize, contentMode: contentMode, options: settings.value, request: request))
            } catch {
                result = .failure(error)
            }
            guard request.settle() else { return }
            switch result {
            case .success(let livePhoto):
                let info = UncheckedInfo(value: Self.info(requestID, degraded: false))
                queue.async { handler.value(livePhoto, info.value) }
            case .failure(let error):
                let info = UncheckedInfo(value: Self.info(requestID, degraded: false, error: error))
                queue.async { handler.value(nil, info.value) }
            }
        }
        return requestID
    }

    static func livePhoto(
        of asset: PHAsset, targetSize: CGSize, contentMode: PHImageContentMode, options: PHLivePhotoRequestOptions,
        request: MediaRequests.Request
    ) throws(PHPhotosError) -> PHLivePhoto {
        guard asset.mediaType == .image, asset.mediaSubtypes.contains(.photoLive) else {
            throw PHPhotosError(.requestNotSupportedForAsset, "\(asset.localIdentifier) is not a Live Photo")
        }
        let current = options.version == .current
        let progress = request.stopping(options.progressHandler)
        let still = try AssetFiles.local(
            current ? [.fullSizePhoto, .photo] : [.photo], of: asset, networkAllowed: options.isNetworkAccessAllowed, progress: progress)
        let movie = try AssetFiles.local(
            AssetFiles.movieTypes(of: asset, current: current), of: asset, networkAllowed: options.isNetworkAccessAllowed,
            progress: progress)
        var width = Double(still.record.pixelWidth)
        var height = Double(still.record.pixelHeight)
        if current, asset.pixelWidth > 0, asset.pixelHeight > 0 {
            (width, height) = (Double(asset.pixelWidth), Double(asset.pixelHeight))
        } else if
            // try?: a still the probe can't read keeps the size its record holds (read at import).
            let metadata = try? MediaProbe.probe(fileAt: still.url)
        {
            (width, height) = (Double(metadata.orientedPixelWidth), Double(metadata.orientedPixelHeight))
        }
        let size = fitted(CGSize(width: width, height: height), to: targetSize, contentMode: contentMode)
        return PHLivePhoto(size: size, photoURL: still.url, videoURL: movie.url, assetLocalIdentifier: asset.localIdentifier)
    }

    /// `size` scaled to fit (or fill) `target`, never enlarged; the full size for
    /// ``PHImageManagerMaximumSize`` or an empty target.
    static func fitted(_ size: CGSize, to target: CGSize, contentMode: PHImageContentMode) -> CGSize {
        guard target.width > 0, target.height > 0, size.width > 0, size.height > 0 else { return size }
        let (x, y) = (target.width / size.width, target.height / size.height)
        let scale = min(1, contentMode == .aspectFill ? max(x, y) : min(x, y))
        return CGSize(width: (size.width * scale).rounded(), height: (size.height * scale).rounded())
    }
}
