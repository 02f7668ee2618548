import PhotosLocking

/// How a library's collaborators (``ChangeDispatcher``, ``ImportBatches``) reach the library
/// that owns them: weakly, as the library owns them, and given once, when the library has
/// finished its initialization. Before that, and after the library is gone, it is `nil`.
final class LibraryReference: Sendable {
    private struct Weak: @unchecked Sendable {
        // @unchecked Sendable: a weak reference to a Sendable class, read and written under
        // the mutex below.
        weak var library: PHPhotoLibrary?
    }

    private let reference = Mutex(Weak())

    /// The library, while it exists.
    var library: PHPhotoLibrary? { reference.withLock { $0.library } }

    /// Called once, at the end of the library's initialization.
    func attach(_ library: PHPhotoLibrary) {
        reference.withLock { $0.library = library }
    }
}
