package import Photos

/// A library delegate for tests: each event goes to the closure given for its kind, so a test
/// waits for the event it means (``PHPhotoLibrary/Delegate``).
package struct EventDelegate: PHPhotoLibrary.Delegate {
    package var onImageLoader: (@Sendable (ImageLoaderEvent) -> Void)?
    package var onVideoRenditions: (@Sendable (VideoRenditionEvent) -> Void)?
    package var onImportBatches: (@Sendable (ImportBatchEvent) -> Void)?
    package var onWorkWillRun: (@Sendable (String) -> Void)?

    package init(
        imageLoader: (@Sendable (ImageLoaderEvent) -> Void)? = nil, videoRenditions: (@Sendable (VideoRenditionEvent) -> Void)? = nil,
        importBatches: (@Sendable (ImportBatchEvent) -> Void)? = nil, workWillRun: (@Sendable (String) -> Void)? = nil
    ) {
        onImageLoader = imageLoader
        onVideoRenditions = videoRenditions
        onImportBatches = importBatches
        onWorkWillRun = workWillRun
    }

    package func imageLoader(didReport event: ImageLoaderEvent) { onImageLoader?(event) }
    package func videoRenditions(didReport event: VideoRenditionEvent) { onVideoRenditions?(event) }
    package func importBatches(didReport event: ImportBatchEvent) { onImportBatches?(event) }
    package func workWillRun(_ job: String) { onWorkWillRun?(job) }
}
