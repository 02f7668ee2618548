public import Foundation
import PhotosLocking

extension PHImageManager {
    /// The movie of a video asset. Linux addition: the async form of
    /// ``requestAVAsset(forVideo:options:resultHandler:)``; cancelling the task cancels the
    /// request.
    /// - Throws: the request's ``PHPhotosError``, or `CancellationError`.
    public func avAsset(forVideo asset: PHAsset, options: PHVideoRequestOptions? = nil) async throws -> AVAsset {
        let delivered = try await awaitRequest { deliver in
            requestAVAsset(forVideo: asset, options: options) { avAsset, _, info in deliver(avAsset.map(UncheckedSendable.init), info ?? [:]) }
        }
        return delivered.value
    }

    /// A ready-to-play item for a video asset. Linux addition: the async form of
    /// ``requestPlayerItem(forVideo:options:resultHandler:)``.
    public func playerItem(forVideo asset: PHAsset, options: PHVideoRequestOptions? = nil) async throws -> AVPlayerItem {
        let delivered = try await awaitRequest { deliver in
            requestPlayerItem(forVideo: asset, options: options) { item, info in deliver(item.map(UncheckedSendable.init), info ?? [:]) }
        }
        return delivered.value
    }

    /// An export session for a video asset. Linux addition: the async form of
    /// ``requestExportSession(forVideo:options:exportPreset:resultHandler:)``.
    public func exportSession(
        forVideo asset: PHAsset, options: PHVideoRequestOptions? = nil, exportPreset: String
    ) async throws -> AVAssetExportSession {
        let delivered = try await awaitRequest { deliver in
            requestExportSession(forVideo: asset, options: options, exportPreset: exportPreset) { session, info in
                deliver(session.map(UncheckedSendable.init), info ?? [:])
            }
        }
        return delivered.value
    }

    /// A Live Photo asset's still and movie. Linux addition: the async form of
    /// ``requestLivePhoto(for:targetSize:contentMode:options:resultHandler:)``.
    public func livePhoto(
        for asset: PHAsset, targetSize: CGSize = PHImageManagerMaximumSize, contentMode: PHImageContentMode = .default,
        options: PHLivePhotoRequestOptions? = nil
    ) async throws -> PHLivePhoto {
        let delivered = try await awaitRequest { deliver in
            requestLivePhoto(for: asset, targetSize: targetSize, contentMode: contentMode, options: options) { livePhoto, info in
                deliver(livePhoto.map(UncheckedSendable.init), info ?? [:])
            }
        }
        return delivered.value
    }

    /// Bridges a one-delivery request to async/await, cancelling it with the task.
    private func awaitRequest<T>(
        _ start: (@escaping @Sendable (UncheckedSendable<T>?, [AnyHashable: Any]) -> Void) -> PHImageRequestID
    ) async throws -> UncheckedSendable<T> {
        let requestID = Mutex<PHImageRequestID?>(nil)
        let cancelledEarly = Atomic(false)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<UncheckedSendable<T>, any Error>) in
                let id = start { value, info in
                    if (info[PHImageCancelledKey] as? NSNumber)?.boolValue == true {
                        continuation.resume(throwing: CancellationError())
                    } else if let value {
                        continuation.resume(returning: value)
                    } else {
                        continuation.resume(
                            throwing: info[PHImageErrorKey] as? PHPhotosError ?? PHPhotosError(.invalidResource, "The request delivered nothing"))
                    }
                }
                requestID.withLock { $0 = id }
                if cancelledEarly.load(ordering: .acquiring) { cancelImageRequest(id) }
            }
        } onCancel: {
            cancelledEarly.store(true, ordering: .releasing)
            if let id = requestID.withLock({ $0 }) { cancelImageRequest(id) }
        }
    }
}
