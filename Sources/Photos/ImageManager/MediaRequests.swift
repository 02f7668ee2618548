import Foundation
import PhotosStore
import PhotosLocking

/// Video and Live Photo requests in flight, so ``PHImageManager/cancelImageRequest(_:)``
/// stops them as it stops image requests: each delivers exactly once, its result or its
/// cancellation, whichever comes first.
final class MediaRequests: Sendable {
    final class Request: Sendable {
        private let settled = Atomic(false)
        /// Work to stop when cancelled (an export's process, a download).
        let onCancel = Mutex<(@Sendable () -> Void)?>(nil)

        /// True for the first caller only: the one that delivers.
        func settle() -> Bool {
            !settled.exchange(true, ordering: .acquiringAndReleasing)
        }

        var isSettled: Bool { settled.load(ordering: .acquiring) }

        /// The request's progress handler, also telling a download to stop once the request
        /// is settled (cancelled).
        func stopping(_ handler: PHAssetImageProgressHandler?) -> PHAssetImageProgressHandler? {
            handler.map { handler in
                { fraction, error, stop, info in
                    handler(fraction, error, stop, info)
                    if self.isSettled { stop.pointee = true }
                }
            }
        }
    }

    private struct Entry {
        var request: Request
        var deliverCancellation: @Sendable () -> Void
    }

    private let entries = Mutex<[PHImageRequestID: Entry]>([:])

    /// Registers a request; `deliverCancellation` calls its handler with `PHImageCancelledKey`.
    func start(_ id: PHImageRequestID, deliverCancellation: @escaping @Sendable () -> Void) -> Request {
        let request = Request()
        entries.withLock { $0[id] = Entry(request: request, deliverCancellation: deliverCancellation) }
        return request
    }

    func finish(_ id: PHImageRequestID) {
        _ = entries.withLock { $0.removeValue(forKey: id) }
    }

    /// Cancels a request still in flight; false when `id` is not one of these.
    func cancel(_ id: PHImageRequestID) -> Bool {
        guard let entry = entries.withLock({ $0.removeValue(forKey: id) }) else { return false }
        if entry.request.settle() { entry.deliverCancellation() }
        entry.request.onCancel.withLock { $0 }?()
        return true
    }

    /// Where video work runs: the machine's cores, off the image decode pool.
    static let queue = DispatchQueue(label: "PHImageManager.video", qos: .userInitiated, attributes: .concurrent)
}

/// The files of an asset's movie and still, by version, fetched from a remote store when
/// allowed.
enum AssetFiles {
    /// The first of `types` the asset has, as a local file.
    static func local(
        _ types: [PHAssetResourceType], of asset: PHAsset, networkAllowed: Bool, progress: PHAssetImageProgressHandler?
    ) throws(PHPhotosError) -> (url: URL, record: ResourceRecord) {
        guard let library = asset.library else {
            throw PHPhotosError(.missingResource, "\(asset.localIdentifier) belongs to no open library")
        }
        let records: [ResourceRecord]
        do {
            records = try library.store.resources(assetID: asset.rowID)
        } catch {
            throw PHPhotosError(.missingResource, "Can't read the files of \(asset.localIdentifier): \(error)")
        }
        guard let record = types.lazy.compactMap({ type in records.first { $0.type == type.rawValue } }).first else {
            throw PHPhotosError(
                .requestNotSupportedForAsset,
                "\(asset.localIdentifier) has no \(types.map { "\($0)" }.joined(separator: " or ")) resource")
        }
        let (url, fetch) = try ImageRequestPlan.localFile(
            of: record, asset: asset, layout: library.store.layout, networkAllowed: networkAllowed, progress: progress)
        try fetch?.run(to: url)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw PHPhotosError(.missingResource, "The file of \(asset.localIdentifier) is missing from the library (\(url.path))")
        }
        return (url, record)
    }

    /// The movie of a video asset, or of a Live Photo, in the version asked for.
    static func movieTypes(of asset: PHAsset, current: Bool) -> [PHAssetResourceType] {
        if asset.mediaType == .video { return current ? [.fullSizeVideo, .video] : [.video] }
        return current ? [.fullSizePairedVideo, .pairedVideo] : [.pairedVideo]
    }
}
