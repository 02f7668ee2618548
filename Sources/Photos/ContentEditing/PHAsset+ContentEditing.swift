import Foundation
import Imaging
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
    /// Linux: the handler runs on a background queue, not the main thread. Videos are not
    /// editable yet (the input has no image and no audiovisual asset).
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
        let asset = self
        DispatchQueue.global(qos: .userInitiated).async {
            let result: Result<PHContentEditingInput, PHPhotosError>
            do throws(PHPhotosError) {
                result = .success(try asset.makeEditingInput(canHandle: canHandle.value))
            } catch {
                result = .failure(error)
            }
            let cancelled = Self.cancelledEditingRequests.withLock { $0.remove(id) != nil }
            switch (cancelled, result) {
            case (true, _): completion.value(nil, [PHContentEditingInputCancelledKey: NSNumber(value: true)])
            case (false, .success(let input)): completion.value(input, [:])
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

    /// The files of the asset's current edit, if any.
    struct EditFiles {
        var original: URL
        var originalType: String
        var rendered: URL?
        var renderedType: String?
        var adjustment: URL?
    }

    func editFiles() throws(PHPhotosError) -> EditFiles {
        guard let library, let records = try? library.store.resources(assetID: rowID) else {
            throw PHPhotosError(.missingResource, "\(localIdentifier) has no files")
        }
        let layout = library.store.layout
        guard let photo = records.first(where: { $0.type == PHAssetResourceType.photo.rawValue }) else {
            throw PHPhotosError(.requestNotSupportedForAsset, "\(localIdentifier) is not a photo; videos are not editable yet")
        }
        let rendered = records.first { $0.type == PHAssetResourceType.fullSizePhoto.rawValue }
        let adjustment = records.first { $0.type == PHAssetResourceType.adjustmentData.rawValue }
        return EditFiles(
            original: layout.url(forRelativePath: photo.path), originalType: photo.uniformTypeIdentifier,
            rendered: rendered.map { layout.url(forRelativePath: $0.path) }, renderedType: rendered?.uniformTypeIdentifier,
            adjustment: adjustment.map { layout.url(forRelativePath: $0.path) })
    }

    /// The stored adjustment data of the current edit.
    func currentAdjustmentData() -> PHAdjustmentData? {
        guard hasAdjustments, let url = try? editFiles().adjustment, let data = try? Data(contentsOf: url) else { return nil }
        return PHAdjustmentData(propertyList: data)
    }

    private func makeEditingInput(canHandle: (PHAdjustmentData) -> Bool) throws(PHPhotosError) -> PHContentEditingInput {
        let files = try editFiles()
        var adjustment: PHAdjustmentData?
        if let stored = currentAdjustmentData(), canHandle(stored) { adjustment = stored }
        let resumes = adjustment != nil || files.rendered == nil
        let image = resumes ? files.original : files.rendered ?? files.original
        let type = resumes ? files.originalType : files.renderedType ?? files.originalType
        guard FileManager.default.fileExists(atPath: image.path) else {
            throw PHPhotosError(.missingResource, "The image to edit, \(image.path), is missing")
        }
        let metadata = try? MediaProbe.probe(fileAt: image)
        let display: UIImage?
        if let metadata {
            let geometry = ImageGeometry.plan(
                sourceWidth: metadata.orientedPixelWidth, sourceHeight: metadata.orientedPixelHeight,
                target: CGSize(width: 1440, height: 1440), contentMode: .aspectFit, resizeMode: .fast, normalizedCrop: .zero)
            display = try? ImageRenderer(
                originalURL: image, sourceWidth: metadata.orientedPixelWidth, sourceHeight: metadata.orientedPixelHeight,
                geometry: geometry, derivatives: nil
            ).render()
        } else {
            display = nil
        }
        return PHContentEditingInput(
            asset: self, adjustmentData: adjustment, fullSizeImageURL: image, orientation: Int32(metadata?.orientation ?? 1),
            displaySizeImage: display, uniformTypeIdentifier: type)
    }
}
