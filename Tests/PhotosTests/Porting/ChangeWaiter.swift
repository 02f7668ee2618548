import Foundation
import Photos
import PhotosLocking

/// An observer that hands over each change as it arrives: `next()` waits (up to a timeout) for
/// the next one, so a test waits for the delivery it means, not for a fixed time.
final class ChangeWaiter: PHPhotoLibraryChangeObserver, Sendable {
    private let received = Mutex<[PHChange]>([])
    private let arrived = DispatchSemaphore(value: 0)

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        received.withLock { $0.append(changeInstance) }
        arrived.signal()
    }

    /// The next change not yet taken, or nil when none arrives within `timeout` seconds.
    func next(timeout: TimeInterval = 10) -> PHChange? {
        guard arrived.wait(timeout: .now() + timeout) == .success else { return nil }
        return received.withLock { $0.removeFirst() }
    }
}
