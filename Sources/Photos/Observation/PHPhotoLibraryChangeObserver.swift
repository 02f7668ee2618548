/// An object told about every change committed to a library.
///
/// `photoLibraryDidChange(_:)` is called once per delivered change, one call at a time, on a
/// background queue (never the main thread), after the change is visible to fetches.
///
/// Linux notes: the protocol asks for `AnyObject`, not `NSObjectProtocol`, so any class can
/// observe. Changes this process commits are delivered one per transaction; changes other
/// processes commit are delivered within about a millisecond of their commit (the library
/// watches a signal file with `inotify`, and looks every second besides), and transactions
/// another process commits between two deliveries arrive together in one `PHChange`. When
/// observers fall more than eight of this process's commits behind (a server taking hundreds
/// of changes a second), later commits arrive together too, so waiting changes never pile up.
/// A `PHChange` answers from the state it was delivered with while observers' callbacks run;
/// read what you need there (see ``PHChange``).
public protocol PHPhotoLibraryChangeObserver: AnyObject {
    func photoLibraryDidChange(_ changeInstance: PHChange)
}

/// Holds an observer without keeping it alive, as PhotoKit does.
struct WeakObserver: @unchecked Sendable {
    // @unchecked Sendable: the reference is only read to call the observer, which PhotoKit
    // does from its own queue by contract.
    weak var observer: (any PHPhotoLibraryChangeObserver)?
    let identifier: ObjectIdentifier
}

/// Keeps an observer alive (the ones behind async sequences).
struct StrongObserver: @unchecked Sendable {
    // @unchecked Sendable: as for WeakObserver.
    let observer: any PHPhotoLibraryChangeObserver
}

/// The observer behind ``PHPhotoLibrary/changes``: yields each change into a stream.
final class StreamObserver: PHPhotoLibraryChangeObserver, Sendable {
    let continuation: AsyncStream<PHChange>.Continuation

    init(_ continuation: AsyncStream<PHChange>.Continuation) {
        self.continuation = continuation
    }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        continuation.yield(changeInstance)
    }
}
