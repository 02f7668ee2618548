import Foundation
import Imaging
import Logging
import PhotosStore
import PhotosLocking

/// One request resolved against its asset: the key, the file, the geometry.
struct ImageRequestPlan: Sendable {
    let key: ImageKey
    /// The asset's library's loader: its memory cache and decode pool.
    let loader: ImageLoader
    let fileURL: URL
    let sourceWidth: Int
    let sourceHeight: Int
    let derivatives: ImageRenderer.Derivatives?
    /// A remote original to fetch before rendering (into `fileURL`, or for a video into
    /// `posterSource`), unless a derivative already answers the request.
    let remoteFetch: RemoteFetch?
    /// Whether `fileURL` is the local copy of a remote original, already here: its use is
    /// stamped when a render reads it (not for every request: most are memory-cache hits).
    let readsRemoteCopy: Bool
    /// For a video: the movie whose poster frame (`fileURL`) is made before rendering.
    let posterSource: URL?
    /// Where a failure to render the asset's current version is recorded (nil for other
    /// versions): see ``PHLibraryCheckReport/Problem/Kind/unrenderable``.
    let failures: RenderFailureLog?
    /// The asset's library's logger.
    let logger: Logger

    struct RemoteFetch: Sendable {
        let url: URL
        /// The request's progress handler (Apple's is not `@Sendable`; it is called from the
        /// download's serial delegate queue, one call at a time).
        let progress: UncheckedSendable<PHAssetImageProgressHandler?>
        /// False: the request doesn't allow network access, so needing the original fails
        /// with 3164 (a thumbnail or preview already made is shown all the same, as iCloud
        /// libraries show theirs).
        var networkAllowed = true
        /// The asset's identifier, for that error.
        var assetIdentifier = ""

        /// Fetches into `destination` unless a copy is there already.
        func run(to destination: URL) throws(PHPhotosError) {
            guard !FileManager.default.fileExists(atPath: destination.path) else { return }
            guard networkAllowed else { throw Self.networkRequired(assetIdentifier, url) }
            let progress = progress
            try RemoteOriginals.fetch(url, to: destination) { fraction in
                guard let handler = progress.value else { return false }
                var stop: ObjCBool = false
                handler(fraction, nil, &stop, nil)
                return stop.boolValue
            }
        }

        static func networkRequired(_ identifier: String, _ url: URL) -> PHPhotosError {
            PHPhotosError(
                .networkAccessRequired,
                "The original of \(identifier) is in a remote store (\(url.absoluteString)); allow network access to fetch it")
        }
    }

    /// Where a resource's bytes are read from: its file, or for a remote original its local
    /// copy (fetched first when allowed).
    /// `deferringNetworkCheck`: without network access, return the fetch (which fails when
    /// run) instead of failing now, for a request a derivative may answer. `notingUse`: stamp a
    /// local copy found as used now (its caller reads it).
    static func localFile(
        of resource: ResourceRecord, asset: PHAsset, layout: LibraryLayout, networkAllowed: Bool, progress: PHAssetImageProgressHandler?,
        deferringNetworkCheck: Bool = false, notingUse: Bool = true
    ) throws(PHPhotosError) -> (URL, RemoteFetch?) {
        let url = layout.url(forRelativePath: resource.path)
        guard LibraryLayout.isRemote(path: resource.path) else { return (url, nil) }
        let copy = layout.remoteCopy(of: url, assetUUID: asset.uuid, resourceType: resource.type)
        if FileManager.default.fileExists(atPath: copy.path) {
            if notingUse { OriginalsCache.noteUsed(copy) }
            return (copy, nil)
        }
        guard networkAllowed || deferringNetworkCheck else { throw RemoteFetch.networkRequired(asset.localIdentifier, url) }
        return (
            copy,
            RemoteFetch(url: url, progress: UncheckedSendable(progress), networkAllowed: networkAllowed, assetIdentifier: asset.localIdentifier)
        )
    }

    init(asset: PHAsset, targetSize: CGSize, contentMode: PHImageContentMode, options: PHImageRequestOptions) throws(PHPhotosError) {
        guard let library = asset.library, let sources = library.imageSources.sources(of: asset, in: library) else {
            throw PHPhotosError(.missingResource, "\(asset.localIdentifier) has no photo or video file")
        }
        loader = library.imageLoader
        logger = library.logger
        // `.current` is the edit's rendered version when there is one; the others the original.
        let (source, sourceIdentity) = sources.source(current: options.version == .current)
        let layout = library.store.layout
        var (file, fetch) = try Self.localFile(
            of: source, asset: asset, layout: layout, networkAllowed: options.isNetworkAccessAllowed, progress: options.progressHandler,
            deferringNetworkCheck: true, notingUse: false)
        if library.isReadOnly, fetch != nil {
            // A read-only library keeps nothing: the download goes to this process's scratch folder.
            file = library.readOnlyScratch.appendingPathComponent(file.path.dropFirst(layout.root.path.count + 1).description)
            if FileManager.default.fileExists(atPath: file.path) { fetch = nil }
        }
        if asset.mediaType == .video {
            // Videos are drawn from their poster frame, kept among the derivatives (a remote
            // movie is fetched only when its poster frame is still to make).
            posterSource = file
            let isOriginal = source.type == PHAssetResourceType.video.rawValue
            let relativePath = VideoPosterFrame.relativePath(assetUUID: asset.uuid, sourcePath: source.path, isOriginal: isOriginal)
            file = layout.url(forRelativePath: relativePath)
            if library.isReadOnly, !FileManager.default.fileExists(atPath: file.path) {
                file = library.readOnlyScratch.appendingPathComponent(relativePath)
            }
        } else {
            posterSource = nil
        }
        (fileURL, remoteFetch) = (file, fetch)
        readsRemoteCopy = fetch == nil && posterSource == nil && LibraryLayout.isRemote(path: source.path)
        let isCurrent = source.id == sources.source(current: true).record.id
        sourceWidth = isCurrent && asset.pixelWidth > 0 ? asset.pixelWidth : source.pixelWidth
        sourceHeight = isCurrent && asset.pixelHeight > 0 ? asset.pixelHeight : source.pixelHeight
        // Derivatives show the current version.
        derivatives = isCurrent
            ? ImageRenderer.Derivatives(
                assetUUID: asset.uuid, layout: layout, budget: library.derivatives.previewBudget, writable: !library.isReadOnly,
                store: library.store, logger: library.logger)
            : nil
        failures =
            isCurrent && !library.isReadOnly ? RenderFailureLog(store: library.store, assetUUID: asset.uuid, logger: library.logger) : nil
        let geometry = ImageGeometry.plan(
            sourceWidth: sourceWidth, sourceHeight: sourceHeight, target: targetSize, contentMode: contentMode,
            resizeMode: options.resizeMode, normalizedCrop: options.normalizedCropRect)
        key = ImageKey(
            assetUUID: asset.uuid, version: options.version, geometry: geometry, library: library.instanceNumber, sourceID: sourceIdentity)
    }

    /// Renders the image (on whichever thread calls it).
    var render: @Sendable () throws(PHPhotosError) -> UIImage {
        let renderer = ImageRenderer(
            originalURL: fileURL, sourceWidth: sourceWidth, sourceHeight: sourceHeight, geometry: key.geometry,
            derivatives: derivatives)
        let (fetch, copy, poster, failures, logger) = (remoteFetch, fileURL, posterSource, failures, logger)
        let readsRemoteCopy = readsRemoteCopy
        return { () throws(PHPhotosError) -> UIImage in
            if readsRemoteCopy { OriginalsCache.noteUsed(copy) }
            if let fetch {
                if let poster {
                    if !FileManager.default.fileExists(atPath: copy.path) { try fetch.run(to: poster) }
                } else if !renderer.isAnsweredByDerivative {
                    try fetch.run(to: copy)
                }
            }
            do throws(PHPhotosError) {
                if let poster { try VideoPosterFrame.make(from: poster, at: copy, logger: logger) }
                let image = try renderer.render()
                failures?.rendered()
                return image
            } catch {
                // A file that can't be decoded (not a missing one, nor a cancelled download).
                if error.code == .invalidResource { failures?.failed(error.message) }
                throw error
            }
        }
    }

    /// A smaller image of the same asset and version already in memory, to show meanwhile.
    func degradedImage() -> UIImage? {
        let wanted = key.geometry.width * key.geometry.height
        return loader.cache.images(ofAsset: key.assetUUID, version: key.version).first {
            Int($0.size.width * $0.size.height) < wanted
        }
    }

    /// Whether ``embeddedDegradedImage()`` may find something: a local photo file (not a remote
    /// original still to fetch, nor a video's poster frame), the whole image asked for (a
    /// `normalizedCropRect` region of a 160 px thumbnail would be a few pixels).
    var mayHaveEmbeddedThumbnail: Bool {
        remoteFetch == nil && posterSource == nil && key.geometry.isWhole(sourceWidth, sourceHeight)
    }

    /// The file's EXIF thumbnail as JPEG bytes, undecoded (upright through an EXIF orientation
    /// segment), when it is one a browser can show as it is; see `EmbeddedThumbnail.jpegData`.
    func embeddedDegradedJPEG() -> Data? {
        guard mayHaveEmbeddedThumbnail else { return nil }
        return EmbeddedThumbnail.jpegData(fileAt: fileURL, uprightSize: (sourceWidth, sourceHeight))?.data
    }

    /// The thumbnail the file carries (``EmbeddedThumbnail``: EXIF IFD1, a HEIF `thmb` item, a
    /// RAW's preview), upright, as the request's shape: centre-cropped to the target's aspect
    /// for `aspectFill`, scaled down to the target when larger, never up (Apple's degraded
    /// image may be smaller than asked). Reads a few KiB of the file and decodes ~20,000
    /// pixels: well under a millisecond on a warm disk. `nil` when the file has none.
    func embeddedDegradedImage() -> UIImage? {
        guard mayHaveEmbeddedThumbnail,
            let found = EmbeddedThumbnail.read(fileAt: fileURL, uprightSize: (sourceWidth, sourceHeight))
        else { return nil }
        let image = found.image
        let geometry = key.geometry
        do throws(ImagingError) {
            let shaped: VipsImage
            if geometry.cropsAfterScaling {
                // The largest box of the target's aspect inside the thumbnail, at most the target.
                let aspect = Double(geometry.width) / Double(geometry.height)
                var width = min(image.width, Int((Double(image.height) * aspect).rounded()))
                var height = min(image.height, Int((Double(width) / aspect).rounded()))
                if width > geometry.width || height > geometry.height { (width, height) = (geometry.width, geometry.height) }
                shaped = try image.resized(toFit: max(1, width), height: max(1, height), crop: true).materialized()
            } else if image.width > geometry.width || image.height > geometry.height {
                shaped = try image.resized(toFit: geometry.width, height: geometry.height, upscale: false).materialized()
            } else {
                shaped = image
            }
            return UIImage(decoded: shaped)
        } catch {
            return nil
        }
    }
}

/// The photo and rendered-edit resources of assets, remembered per asset snapshot (its library,
/// UUID and modification date, which every edit and revert changes), so a request served from
/// the memory cache reads no database rows.
final class ImageSourceCache: Sendable {
    /// An asset's files, and for each an identity that image keys use (``ImageKey/sourceID``).
    struct Sources: Sendable {
        let photo: ResourceRecord
        let rendered: ResourceRecord?
        let photoIdentity: Int64
        let renderedIdentity: Int64?

        /// The current version's file (the edit's render when there is one) or the original's.
        func source(current: Bool) -> (record: ResourceRecord, identity: Int64) {
            if current, let rendered, let renderedIdentity { return (rendered, renderedIdentity) }
            return (photo, photoIdentity)
        }
    }

    private struct Key: Hashable {
        /// ``PHPhotoLibrary/instanceNumber`` (an object address could be reused).
        var library: Int
        var assetID: Int64
        var modified: Date?
    }

    private let entries = Mutex<[Key: Sources]>([:])
    private static let limit = 20_000

    func sources(of asset: PHAsset, in library: PHPhotoLibrary) -> Sources? {
        let key = Key(library: library.instanceNumber, assetID: asset.rowID, modified: asset.modificationDate)
        if let found = entries.withLock({ $0[key] }) { return found }
        let read = library.logger.attempt(.warning, "read the files of \(asset.localIdentifier) for an image request") {
            try library.store.resources(assetID: asset.rowID)
        }
        guard let records = read,
            let photo = records.first(where: { $0.type == PHAssetResourceType.photo.rawValue })
                ?? records.first(where: { $0.type == PHAssetResourceType.video.rawValue })
        else { return nil }
        let rendered =
            records.first { $0.type == PHAssetResourceType.fullSizePhoto.rawValue }
            ?? records.first { $0.type == PHAssetResourceType.fullSizeVideo.rawValue }
        let value = Sources(
            photo: photo, rendered: rendered, photoIdentity: Self.identity(of: photo), renderedIdentity: rendered.map(Self.identity(of:)))
        entries.withLock { entries in
            if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
        }
        return value
    }

    /// The hash of a resource's path (keys live in memory only, so the process's seeded hash
    /// serves): every edit's render has a path of its own (`renders/…_<ms>`). Row ids can't
    /// serve: SQLite gives a new row the highest id plus one, so an edit's render row, inserted
    /// after the previous render's row was deleted, can take that row's id, and its images
    /// would answer for the new version.
    static func identity(of resource: ResourceRecord) -> Int64 {
        Int64(resource.path.hashValue)
    }
}

/// Records (and forgets) render failures of one asset's current version in its library, for
/// `photos check` and a gallery's "can't display" mark. A failure to record is logged, not
/// thrown: the request's own error is what its caller needs.
struct RenderFailureLog: Sendable {
    let store: LibraryDatabase
    let assetUUID: String
    let logger: Logger

    func failed(_ reason: String) {
        logger.attempt(.warning, "record that \(assetUUID) can't be rendered (\(reason))") {
            try store.renderFailures.record(assetUUID: assetUUID, reason: reason)
        }
    }

    func rendered() {
        logger.attempt(.warning, "forget the render failure of \(assetUUID)") { try store.renderFailures.clear(assetUUID: assetUUID) }
    }
}
