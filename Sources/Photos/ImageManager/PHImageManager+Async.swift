public import Foundation

extension PHImageManager {
    /// One delivery of an image request: the image (nil on failure) and whether a better one
    /// follows. Linux addition, for the async forms below.
    public struct ImageDelivery: Sendable {
        public let image: UIImage?
        public let isDegraded: Bool
        /// The error from ``PHImageErrorKey``, if the request failed.
        public let error: PHPhotosError?
    }

    /// The final image of a request (opportunistic degraded images are skipped). Linux addition:
    /// the async form of ``requestImage(for:targetSize:contentMode:options:resultHandler:)``.
    /// Cancelling the calling task cancels the request.
    /// - Throws: the request's ``PHPhotosError``, or `CancellationError`.
    public func image(
        for asset: PHAsset, targetSize: CGSize, contentMode: PHImageContentMode = .default, options: PHImageRequestOptions? = nil
    ) async throws -> UIImage {
        let options = (options?.copy() as? PHImageRequestOptions) ?? PHImageRequestOptions()
        if options.deliveryMode == .opportunistic { options.deliveryMode = .highQualityFormat }
        return try await Self.finalImage(
            of: images(for: asset, targetSize: targetSize, contentMode: contentMode, options: options),
            acceptingDegraded: options.deliveryMode == .fastFormat)
    }

    /// The first image of `deliveries` that isn't degraded (or the first, `acceptingDegraded`):
    /// what ``image(for:targetSize:contentMode:options:)`` waits for, for a caller that made
    /// the request elsewhere (``images(for:targetSize:contentMode:options:)``).
    /// - Throws: the request's ``PHPhotosError``, or `CancellationError`.
    package static func finalImage(
        of deliveries: AsyncThrowingStream<ImageDelivery, any Error>, acceptingDegraded: Bool = false
    ) async throws -> UIImage {
        for try await delivery in deliveries where !delivery.isDegraded || acceptingDegraded {
            if let error = delivery.error { throw error }
            if let image = delivery.image { return image }
        }
        throw CancellationError()
    }

    /// Every delivery of a request, in order: with `.opportunistic`, a degraded image when one
    /// is at hand, then the final one. Linux addition. Ending the iteration (or cancelling the
    /// task) cancels the request.
    public func images(
        for asset: PHAsset, targetSize: CGSize, contentMode: PHImageContentMode = .default, options: PHImageRequestOptions? = nil
    ) -> AsyncThrowingStream<ImageDelivery, any Error> {
        let options = (options?.copy() as? PHImageRequestOptions) ?? PHImageRequestOptions()
        options.isSynchronous = false
        let onlyOne = options.deliveryMode != .opportunistic
        return AsyncThrowingStream { continuation in
            let requestID = requestImage(for: asset, targetSize: targetSize, contentMode: contentMode, options: options) {
                image, info in
                let degraded = (info?[PHImageResultIsDegradedKey] as? NSNumber)?.boolValue ?? false
                let cancelled = (info?[PHImageCancelledKey] as? NSNumber)?.boolValue ?? false
                if cancelled {
                    continuation.finish(throwing: CancellationError())
                    return
                }
                continuation.yield(ImageDelivery(image: image, isDegraded: degraded, error: info?[PHImageErrorKey] as? PHPhotosError))
                if !degraded || onlyOne { continuation.finish() }
            }
            continuation.onTermination = { [weak self] termination in
                if case .cancelled = termination { self?.cancelImageRequest(requestID) }
            }
        }
    }
}
