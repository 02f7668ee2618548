import AVFoundation
import Foundation
import Imaging
import Logging
import PhotosStore
import PhotosLocking

extension PHAsset {
    private static let nextEditingRequestID = Atomic<Int>(1)
    private static let cancelledEditingRequests = Mutex<Set<Int>>([])

    /// Prepares the input for editing this asset and calls `completionHandler` once with it
    /// (or nil and ``PHContentEditingInputErrorKey``).
    ///
    /// Apple's resumable-editing rule: if the asset has an edit and `canHandleAdjustmentData`
    /// accepts its adjustment data, the input is the unedited original with that data, so the
    /// editor resumes the recipe; otherwise it is the current rendered version, without data.
    ///
    /// An original kept in a remote store is fetched into the library's cache of copies when
    /// the options allow network access, with `progressHandler` told the fraction received
    /// (setting its `stop` cancels, as ``cancelContentEditingInputRequest(_:)`` does); without,
    /// the handler gets nil with ``PHContentEditingInputResultIsInCloudKey`` and a
    /// `.networkAccessRequired` error.
    ///
    /// Linux: the handler runs on a background queue, not the main thread. A video's input
    /// carries its movie as ``PHContentEditingInput/audiovisualAsset``, a Live Photo's its
    /// still and movie as ``PHContentEditingInput/livePhoto``.
    @discardableResult
    public func requestContentEditingInput(
        with options: PHContentEditingInputRequestOptions?,
        completionHandler: @escaping (PHContentEditingInput?, [AnyHashable: Any]) -> Void
    ) -> PHContentEditingInputRequestID {
        let id = Self.nextEditingRequestID.wrappingAdd(1, ordering: .relaxed).oldValue
        // Apple declares both closures without @Sendable; each is called once, in order, on
        // the one background task below.
        let canHandle = UncheckedSendable(options?.canHandleAdjustmentData ?? { _ in false })
        let completion = UncheckedSendable(completionHandler)
        let network = EditingNetwork(
            allowed: options?.isNetworkAccessAllowed ?? false, progress: UncheckedSendable(options?.progressHandler), requestID: id)
        let asset = self
        DispatchQueue.global(qos: .userInitiated).async {
            let result: Result<PHContentEditingInput, PHPhotosError>
            do throws(PHPhotosError) {
                result = .success(try asset.makeEditingInput(canHandle: canHandle.value, network: network))
            } catch {
                result = .failure(error)
            }
            let cancelled = Self.cancelledEditingRequests.withLock { $0.remove(id) != nil }
            switch (cancelled, result) {
            case (true, _), (_, .failure(PHPhotosError.userCancelled)):
                completion.value(nil, [PHContentEditingInputCancelledKey: NSNumber(value: true)])
            case (false, .success(let input)): completion.value(input, [:])
            case (false, .failure(let error)) where error.code == .networkAccessRequired:
                completion.value(nil, [PHContentEditingInputResultIsInCloudKey: NSNumber(value: true), PHContentEditingInputErrorKey: error])
            case (false, .failure(let error)): completion.value(nil, [PHContentEditingInputErrorKey: error])
            }
        }
        return id
    }

    /// Cancels an input request that has not completed (its handler then reports
    /// ``PHContentEditingInputCancelledKey``).
    public func cancelContentEditingInputRequest(_ requestID: PHContentEditingInputRequestID) {
        _ = Self.cancelledEditingRequests.withLock { $0.insert(requestID) }
    }

    /// Whether an editing input may fetch a remote original, and whom to tell how far it got.
    struct EditingNetwork: Sendable {
        var allowed: Bool
        /// Apple's handler is not `@Sendable`; the download calls it from its serial delegate
        /// queue, one call at a time, while the request's task waits.
        var progress: UncheckedSendable<((Double, UnsafeMutablePointer<ObjCBool>) -> Void)?>
        var requestID: PHContentEditingInputRequestID
    }

    /// `url` as a local file: a remote original's copy in the library's cache (fetched first,
    /// when `network` allows); other files as they are.
    private func localFile(_ url: URL, resourceType: PHAssetResourceType, network: EditingNetwork) throws(PHPhotosError) -> URL {
        guard let library, let scheme = url.scheme?.lowercased(), scheme != "file" else { return url }
        var copy = library.store.layout.remoteCopy(of: url, assetUUID: uuid, resourceType: resourceType.rawValue)
        if library.isReadOnly, !FileManager.default.fileExists(atPath: copy.path) {
            // A read-only library keeps nothing: the download goes to this process's scratch folder.
            copy = library.readOnlyScratch.appendingPathComponent(copy.path.dropFirst(library.store.layout.root.path.count + 1).description)
        }
        if FileManager.default.fileExists(atPath: copy.path) { return copy }
        guard network.allowed else {
            throw PHPhotosError(
                .networkAccessRequired,
                "The original of \(localIdentifier) is in a remote store (\(url.absoluteString)); allow network access to edit it",
                localIdentifiers: [localIdentifier])
        }
        let (progress, id) = (network.progress, network.requestID)
        try RemoteOriginals.fetch(url, to: copy) { fraction in
            if Self.cancelledEditingRequests.withLock({ $0.contains(id) }) { return true }
            guard let handler = progress.value else { return false }
            var stop: ObjCBool = false
            handler(fraction, &stop)
            return stop.boolValue
        }
        return copy
    }

    /// The files of the asset's current edit, if any.
    struct EditFiles {
        var original: URL
        var originalType: String
        var rendered: URL?
        var renderedType: String?
        var adjustment: URL?
        /// A Live Photo's movie, and its edited render.
        var originalMovie: URL?
        var renderedMovie: URL?
        /// The asset's library's logger, for what reading the files goes on from.
        var logger: Logger
    }

    /// The files of the asset's current edit; throws `.missingResource` when the asset has no
    /// library, or its files can't be read (with the store's reason).
    func editFiles() throws(PHPhotosError) -> EditFiles {
        guard let library else {
            throw PHPhotosError(.missingResource, "\(localIdentifier) has no files")
        }
        let records: [ResourceRecord]
        do {
            records = try library.store.resources(assetID: rowID)
        } catch {
            throw PHPhotosError(.missingResource, "\(localIdentifier) has no files: \(error.message)")
        }
        let layout = library.store.layout
        func record(_ type: PHAssetResourceType) -> ResourceRecord? { records.first { $0.type == type.rawValue } }
        let isVideo = mediaType == .video
        guard let photo = record(isVideo ? .video : .photo) else {
            throw PHPhotosError(.requestNotSupportedForAsset, "\(localIdentifier) has no \(isVideo ? "movie" : "photo") to edit")
        }
        let rendered = record(isVideo ? .fullSizeVideo : .fullSizePhoto)
        let adjustment = record(.adjustmentData)
        return EditFiles(
            original: layout.url(forRelativePath: photo.path), originalType: photo.uniformTypeIdentifier,
            rendered: rendered.map { layout.url(forRelativePath: $0.path) }, renderedType: rendered?.uniformTypeIdentifier,
            adjustment: adjustment.map { layout.url(forRelativePath: $0.path) },
            originalMovie: isVideo ? nil : record(.pairedVideo).map { layout.url(forRelativePath: $0.path) },
            renderedMovie: isVideo ? nil : record(.fullSizePairedVideo).map { layout.url(forRelativePath: $0.path) },
            logger: library.logger)
    }

    /// The stored adjustment data of the current edit; nil when it has none, or it can't be
    /// read (logged: the editor then starts from the rendered version, as for an edit made
    /// elsewhere).
    func currentAdjustmentData() -> PHAdjustmentData? {
        guard hasAdjustments else { return nil }
        do {
            guard let stored = try editFiles().adjustment else { return nil }
            // In a bucket, it is fetched whatever the request allows: a few hundred bytes
            // that say what the edit was, as iCloud keeps them with the asset's record.
            let url = try localFile(
                stored, resourceType: .adjustmentData, network: EditingNetwork(allowed: true, progress: UncheckedSendable(nil), requestID: 0))
            return PHAdjustmentData(propertyList: try Data(contentsOf: url))
        } catch {
            library?.logger.failed(.warning, "read the adjustment data of \(localIdentifier)", error)
            return nil
        }
    }

    private func makeEditingInput(canHandle: (PHAdjustmentData) -> Bool, network: EditingNetwork) throws(PHPhotosError) -> PHContentEditingInput {
        let files = try editFiles()
        var adjustment: PHAdjustmentData?
        if let stored = currentAdjustmentData(), canHandle(stored) { adjustment = stored }
        let resumes = adjustment != nil || files.rendered == nil
        // An original, or in a library whose originals are in a bucket an edit too, may be remote.
        let image = resumes || files.rendered == nil
            ? try localFile(files.original, resourceType: mediaType == .video ? .video : .photo, network: network)
            : try localFile(files.rendered ?? files.original, resourceType: mediaType == .video ? .fullSizeVideo : .fullSizePhoto, network: network)
        let type = resumes ? files.originalType : files.renderedType ?? files.originalType
        guard FileManager.default.fileExists(atPath: image.path) else {
            throw PHPhotosError(.missingResource, "The \(mediaType == .video ? "movie" : "image") to edit, \(image.path), is missing")
        }
        if mediaType == .video {
            return PHContentEditingInput(
                asset: self, adjustmentData: adjustment, fullSizeImageURL: nil, orientation: 1, displaySizeImage: nil,
                uniformTypeIdentifier: type, audiovisualAsset: AVURLAsset(url: image))
        }
        // Unread (logged), the input has no display image and orientation 1; not drawn (logged),
        // no display image.
        let metadata = files.logger.attempt(.notice, "read \(image.path) for the editing input of \(localIdentifier)") {
            try MediaProbe.probe(fileAt: image)
        }
        let display: UIImage?
        if let metadata {
            let geometry = ImageGeometry.plan(
                sourceWidth: metadata.orientedPixelWidth, sourceHeight: metadata.orientedPixelHeight,
                target: CGSize(width: 1440, height: 1440), contentMode: .aspectFit, resizeMode: .fast, normalizedCrop: .zero)
            display = files.logger.attempt(.notice, "draw the display image of \(localIdentifier)'s editing input") {
                try ImageRenderer(
                    originalURL: image, sourceWidth: metadata.orientedPixelWidth, sourceHeight: metadata.orientedPixelHeight,
                    geometry: geometry, derivatives: nil
                ).render()
            }
        } else {
            display = nil
        }
        var livePhoto: PHLivePhoto?
        var pairedMovie = resumes ? files.originalMovie : files.renderedMovie ?? files.originalMovie
        if let movie = pairedMovie {
            pairedMovie = try localFile(movie, resourceType: movie == files.originalMovie ? .pairedVideo : .fullSizePairedVideo, network: network)
        }
        if let movie = pairedMovie {
            livePhoto = PHLivePhoto(
                size: CGSize(width: metadata?.orientedPixelWidth ?? pixelWidth, height: metadata?.orientedPixelHeight ?? pixelHeight),
                photoURL: image, videoURL: movie, assetLocalIdentifier: localIdentifier)
        }
        return PHContentEditingInput(
            asset: self, adjustmentData: adjustment, fullSizeImageURL: image, orientation: Int32(metadata?.orientation ?? 1),
            displaySizeImage: display, uniformTypeIdentifier: type, livePhoto: livePhoto)
    }

    /// The original movie's length, for a video (what a revert restores); nil for photos.
    /// Nil too when the movie can't be read (logged).
    func originalMovieDuration() -> Double? {
        guard mediaType == .video else { return nil }
        let files: EditFiles
        do {
            files = try editFiles()
        } catch {
            library?.logger.failed(.warning, "read the files of \(localIdentifier) for its original movie's length", error)
            return nil
        }
        // try?: the probe reads the length of some containers only; ffprobe, below, reads the rest.
        if let metadata = try? MediaProbe.probe(fileAt: files.original), metadata.duration > 0 { return metadata.duration }
        return files.logger.attempt(.notice, "read the length of \(files.original.path)") { try MovieDescription.of(files.original) }
            .map { $0.duration.seconds }
    }
}
