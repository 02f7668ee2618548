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
    /// `seen` ones.
    func wait(forPosition position: Int64, after seen: Int, timeout: TimeInterval = 5) -> [PHChange] {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let all = changes
            if let last = all.last, last.position >= position { return Array(all.dropFirst(seen)) }
            usleep(200)
        }
        return Array(changes.dropFirst(seen))
    }
}
