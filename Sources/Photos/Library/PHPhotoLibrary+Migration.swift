package import PhotosStore

extension PHPhotoLibrary {
    /// Copies this library, rows, history position and files, into `destination`, a new
    /// library on either engine, and checks the copy (``LibraryDatabase/copyLibrary(to:)``).
    /// For `photos migrate`. Linux addition.
    package func copyLibrary(to destination: PHPhotoLibrary) throws(PHPhotosError) -> LibraryCopyReport {
        do {
            return try store.copyLibrary(to: destination.store)
        } catch {
            throw PHPhotosError(error)
        }
    }
}
