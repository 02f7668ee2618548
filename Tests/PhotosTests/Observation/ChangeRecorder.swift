import Foundation
import PhotosLocking
import Testing

@testable import Photos

/// An observer that keeps every change it is given, and on which thread.
final class ChangeRecorder: PHPhotoLibraryChangeObserver, Sendable {
    private let received = Mutex<[PHChange]>([])
    private let mainThreadCalls = Mutex(0)

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        if Thread.isMainThread { mainThreadCalls.withLock { $0 += 1 } }
        received.withLock { $0.append(changeInstance) }
    }

    var changes: [PHChange] { received.withLock { $0 } }
    var callsOnMainThread: Int { mainThreadCalls.withLock { $0 } }

    /// Waits until a change reaching `position` arrived; returns the changes after the first
    /// `seen` ones. The timeout only ends a failed test: 30 s, as a whole suite on two cores
    /// has stalled past 5 s (a CI failure, 12-02).
    func wait(forPosition position: Int64, after seen: Int, timeout: TimeInterval = 30) -> [PHChange] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let all = changes
            if let last = all.last, last.position >= position { return Array(all.dropFirst(seen)) }
            usleep(200)
        }
        return Array(changes.dropFirst(seen))
    }
}
