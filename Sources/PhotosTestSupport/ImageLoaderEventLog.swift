import Foundation
package import Photos
import PhotosLocking

/// Keeps an image loader's events (a library's delegate's) and lets a test wait for
/// the ones it means, instead of sleeping.
package final class ImageLoaderEventLog: Sendable {
    private let events = Mutex<[ImageLoaderEvent]>([])
    private let arrived = DispatchSemaphore(value: 0)

    package init() {}

    /// The hook to put in a configuration.
    package var hook: @Sendable (ImageLoaderEvent) -> Void {
        { [self] event in
            events.withLock { $0.append(event) }
            arrived.signal()
        }
    }

    /// A configuration whose loader reports here (and, given, with that many decode workers).
    package func configuration(maximumConcurrentDecodes: Int? = nil) -> PHPhotoLibrary.Configuration {
        var configuration = PHPhotoLibrary.Configuration()
        configuration.delegate = EventDelegate(imageLoader: hook)
        if let maximumConcurrentDecodes { configuration.maximumConcurrentDecodes = maximumConcurrentDecodes }
        return configuration
    }

    /// Every event so far, in order.
    package var all: [ImageLoaderEvent] { events.withLock { $0 } }

    /// Waits until the events so far satisfy `condition`; false after `timeout` seconds.
    @discardableResult
    package func wait(timeout: TimeInterval = 30, until condition: ([ImageLoaderEvent]) -> Bool) -> Bool {
        let deadline = DispatchTime.now() + timeout
        while !condition(all) {
            guard arrived.wait(timeout: deadline) == .success else { return condition(all) }
        }
        return true
    }

    /// How many events match `event`.
    package func count(where match: (ImageLoaderEvent) -> Bool) -> Int {
        all.filter(match).count
    }
}

extension ImageLoaderEvent {
    /// Whether this is a render ending.
    package var isFinish: Bool {
        if case .finished = self { return true }
        return false
    }

    /// Whether this is a queued render dropped before it began.
    package var isDrop: Bool {
        if case .dropped = self { return true }
        return false
    }
}
