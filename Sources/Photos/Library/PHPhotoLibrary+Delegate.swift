package import Logging

extension PHPhotoLibrary {
    /// What a library tells its owner as it works, in one place, as Nuke's
    /// `ImagePipeline.Delegate` does for a pipeline: the image loader's steps, the video
    /// renditions' and the import batches', and the heavy work a host runs for the library off
    /// its event loops. Every method has a default that does nothing, so an owner implements
    /// only what it follows. `photos serve` logs renditions and import batches through it;
    /// tests wait on the events they mean instead of sleeping.
    ///
    /// A library's delegate is its ``Configuration/delegate``, fixed when it opens. Methods are
    /// called on the thread doing the work; they must return quickly.
    ///
    /// Linux addition (`package`): Apple's PhotoKit has no such hooks.
    package protocol Delegate: Sendable {
        /// A step of the image loader's work (queued, started, finished, cancelled), in order.
        func imageLoader(didReport event: ImageLoaderEvent)
        /// A step of the video rendition work.
        func videoRenditions(didReport event: VideoRenditionEvent)
        /// A step of the import-batch work.
        func importBatches(didReport event: ImportBatchEvent)
        /// Called first in every job of CPU-heavy or blocking work a host runs for the library
        /// off its event loops (`photos serve`'s work pools: "encode", "edit", "commit",
        /// "fetch", ...), with the job's name, on the thread that runs it.
        func workWillRun(_ job: String)
    }
}

extension PHPhotoLibrary.Delegate {
    package func imageLoader(didReport event: ImageLoaderEvent) {}
    package func videoRenditions(didReport event: VideoRenditionEvent) {}
    package func importBatches(didReport event: ImportBatchEvent) {}
    package func workWillRun(_ job: String) {}
}

/// The delegate of a library whose configuration names none: it follows nothing.
package struct QuietLibraryDelegate: PHPhotoLibrary.Delegate {
    package init() {}
}

extension PHPhotoLibrary {
    /// Where the library reports what it handled and went on from: an error a background job
    /// recovers from, a file it could not remove, a cache it could not fill. Its
    /// ``Configuration/logger``.
    package var logger: Logger { configuration.logger }
}
