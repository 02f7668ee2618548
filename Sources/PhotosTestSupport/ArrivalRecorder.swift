public import Dispatch
public import Photos
import PhotosLocking

/// An observer that keeps every change it is given and signals each arrival, for tests that
/// wait for a change made elsewhere (another process, another handle on the library).
public final class ArrivalRecorder: PHPhotoLibraryChangeObserver, Sendable {
    private let changes = Mutex<[PHChange]>([])
    /// Signalled once per change received.
    public let arrived = DispatchSemaphore(value: 0)

    public init() {}

    public func photoLibraryDidChange(_ changeInstance: PHChange) {
        changes.withLock { $0.append(changeInstance) }
        arrived.signal()
    }

    /// The changes received so far, oldest first.
    public var received: [PHChange] { changes.withLock { $0 } }
}
