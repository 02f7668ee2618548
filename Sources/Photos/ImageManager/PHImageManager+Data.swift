public import Foundation
import Imaging
import PhotosStore

extension PHImageManager {
    /// Requests the bytes of an asset's image: the original file's data, its uniform type
    /// identifier (such as `public.jpeg`, `public.heic`) and EXIF orientation. Calls
    /// `resultHandler` exactly once; `deliveryMode` and the size options don't apply.
    ///
    /// `.current` delivers an edited asset's rendered version; `.unadjusted` and `.original` the
    /// original file.
    @discardableResult
    public func requestImageDataAndOrientation(
        for asset: PHAsset, options: PHImageRequestOptions?,
        resultHandler: @escaping (Data?, String?, CGImagePropertyOrientation, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        requestData(for: asset, options: options) { result in
            resultHandler(result.data, result.type, result.orientation, result.info.value)
        }
    }

    /// Requests the bytes of an asset's image with its orientation as UIKit's
    /// `UIImage.Orientation`; otherwise as
    /// ``requestImageDataAndOrientation(for:options:resultHandler:)``, which replaces it.
    ///
    /// Deprecated on Apple's platforms since iOS 13, and still called by apps that support
    /// older systems.
    @available(*, deprecated, renamed: "requestImageDataAndOrientation(for:options:resultHandler:)")
    @discardableResult
    public func requestImageData(
        for asset: PHAsset, options: PHImageRequestOptions?,
        resultHandler: @escaping (Data?, String?, UIImage.Orientation, [AnyHashable: Any]?) -> Void
    ) -> PHImageRequestID {
        requestData(for: asset, options: options) { result in
            resultHandler(result.data, result.type, UIImage.Orientation(result.orientation), result.info.value)
        }
    }

    /// Reads off the delivery queue (or on the caller's thread when synchronous), then calls
    /// `deliver` once on the delivery queue.
    private func requestData(
        for asset: PHAsset, options: PHImageRequestOptions?, deliver: @escaping (DataResult) -> Void
    ) -> PHImageRequestID {
        let options = (options?.copy() as? PHImageRequestOptions) ?? PHImageRequestOptions()
        let requestID = Self.makeRequestID()
        if options.isSynchronous {
            deliver(Self.readResult(of: asset, options: options, requestID: requestID))
        } else {
            // Apple's handler is not @Sendable; it is called once, on the delivery queue.
            let deliver = UncheckedSendable(deliver)
            Self.dataQueue.async { [deliveryQueue] in
                let result = Self.readResult(of: asset, options: options, requestID: requestID)
                deliveryQueue.async { deliver.value(result) }
            }
        }
        return requestID
    }

    private static let dataQueue = DispatchQueue(label: "PHImageManager.data", qos: .userInitiated, attributes: .concurrent)

    private struct DataResult: Sendable {
        var data: Data?
        var type: String?
        var orientation: CGImagePropertyOrientation
        var info: UncheckedInfo
    }

    private static func readResult(of asset: PHAsset, options: PHImageRequestOptions, requestID: PHImageRequestID) -> DataResult {
        let version = options.version
        do throws(PHPhotosError) {
            let (data, type, orientation) = try imageData(of: asset, version: version, options: options)
            return DataResult(data: data, type: type, orientation: orientation, info: UncheckedInfo(value: info(requestID, degraded: false)))
        } catch {
            return DataResult(data: nil, type: nil, orientation: .up, info: UncheckedInfo(value: info(requestID, degraded: false, error: error)))
        }
    }

    static func imageData(
        of asset: PHAsset, version: PHImageRequestOptionsVersion, options: PHImageRequestOptions
    ) throws(PHPhotosError) -> (Data, String, CGImagePropertyOrientation) {
        guard let library = asset.library, let sources = library.imageSources.sources(of: asset, in: library),
            sources.photo.type == PHAssetResourceType.photo.rawValue
        else {
            throw PHPhotosError(.missingResource, "\(asset.localIdentifier) has no photo file")
        }
        let photo = sources.source(current: version == .current).record
        let (url, fetch) = try ImageRequestPlan.localFile(
            of: photo, asset: asset, layout: library.store.layout, networkAllowed: options.isNetworkAccessAllowed,
            progress: options.progressHandler)
        try fetch?.run(to: url)
        let data: Data
        do {
            data = try Data(contentsOf: url, options: .mappedIfSafe)
        } catch {
            throw PHPhotosError(.missingResource, "Can't read \(url.path): \(error.localizedDescription)")
        }
        // Unread (logged), the bytes still go to the caller, reported upright.
        let metadata = library.logger.attempt(.notice, "read the orientation of \(asset.localIdentifier)'s image data") {
            try MediaProbe.probe(data: data)
        }
        let orientation = metadata.flatMap { CGImagePropertyOrientation(rawValue: UInt32($0.orientation)) } ?? .up
        return (data, photo.uniformTypeIdentifier, orientation)
    }
}
