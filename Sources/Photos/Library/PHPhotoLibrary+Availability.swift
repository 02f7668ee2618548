public import Foundation
import PhotosLocking
import PhotosStore

/// An object told when a library becomes unavailable.
///
/// Linux: a library is unavailable when its folder is gone (its volume unmounted, the folder
/// moved) or its database doesn't answer within ``PHPhotoLibrary/availabilityTimeout`` (a
/// PostgreSQL server that stopped or can't be reached). While observers are registered the
/// library looks every two seconds, on a background queue that also calls the observers. Unlike
/// Apple's, a library that comes back is usable again: ``PHPhotoLibrary/unavailabilityReason``
/// clears, and observers are told again if it goes away again.
public protocol PHPhotoLibraryAvailabilityObserver: AnyObject {
    func photoLibraryDidBecomeUnavailable(_ photoLibrary: PHPhotoLibrary)
}

extension PHPhotoLibrary {
    /// How long the availability check waits for the database. Linux addition.
    public static let availabilityTimeout: TimeInterval = 2

    /// Starts telling `observer` when the library becomes unavailable.
    public func register(_ observer: any PHPhotoLibraryAvailabilityObserver) {
        availability.register(observer, library: self, interval: configuration.availabilityCheckInterval)
    }

    /// Stops telling `observer`.
    public func unregisterAvailabilityObserver(_ observer: any PHPhotoLibraryAvailabilityObserver) {
        availability.unregister(observer)
    }

    /// Why the library can't be used now (`PHPhotosError.libraryVolumeOffline` saying what is
    /// away), or nil while it can. Linux: without registered observers, the check runs when
    /// this is read (waiting at most ``availabilityTimeout`` for the database).
    public var unavailabilityReason: (any Error)? {
        availability.isWatching ? availability.reason : availabilityProblem()
    }

    /// What is away: the folder, or the database.
    func availabilityProblem() -> PHPhotosError? {
        let root = store.layout.root
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root.path, isDirectory: &isFolder), isFolder.boolValue else {
            return PHPhotosError(.libraryVolumeOffline, "The library's folder \(root.path) is gone (its volume unmounted or the folder moved)")
        }
        let outcome = Mutex<PHPhotosError??>(nil)
        let answered = DispatchSemaphore(value: 0)
        DispatchQueue.global(qos: .utility).async {
            do {
                _ = try self.currentPosition()
                outcome.withLock { $0 = .some(nil) }
            } catch {
                let reason = (error as? PHPhotosError)?.message ?? "\(error)"
                outcome.withLock { $0 = .some(PHPhotosError(.libraryVolumeOffline, "The library's database is away: \(reason)")) }
            }
            answered.signal()
        }
        guard answered.wait(timeout: .now() + Self.availabilityTimeout) == .success else {
            return PHPhotosError(.libraryVolumeOffline, "The library's database did not answer within \(Int(Self.availabilityTimeout)) s")
        }
        return outcome.withLock { $0 } ?? nil
    }
}

/// The availability observers of one library and the timer that looks while there are any.
final class AvailabilityMonitor: @unchecked Sendable {
    // @unchecked Sendable: the state is behind `state`'s lock; observers are called from
    // `queue` only.
    private struct Observer: @unchecked Sendable {
        // @unchecked Sendable: only read on `queue`, to call the observer.
        weak var observer: (any PHPhotoLibraryAvailabilityObserver)?
        let identifier: ObjectIdentifier
    }

    private struct State {
        var observers: [Observer] = []
        var reason: PHPhotosError?
        var timer: Timer?
    }

    /// The timer, held under the lock. @unchecked Sendable: a dispatch source is thread-safe.
    private struct Timer: @unchecked Sendable {
        let source: any DispatchSourceTimer
    }

    private let state = Mutex(State())
    private let queue = DispatchQueue(label: "PHPhotoLibrary.availability", qos: .utility)

    var isWatching: Bool { state.withLock { $0.timer != nil } }
    var reason: PHPhotosError? { state.withLock { $0.reason } }

    func register(_ observer: any PHPhotoLibraryAvailabilityObserver, library: PHPhotoLibrary, interval: DispatchTimeInterval) {
        let entry = Observer(observer: observer, identifier: ObjectIdentifier(observer))
        let timer = Timer(source: DispatchSource.makeTimerSource(queue: queue))
        timer.source.schedule(deadline: .now(), repeating: interval, leeway: .milliseconds(50))
        timer.source.setEventHandler { [weak self, weak library] in
            guard let self, let library else { return }
            self.look(at: library)
        }
        let started = state.withLock { state in
            state.observers.removeAll { $0.observer == nil || $0.identifier == entry.identifier }
            state.observers.append(entry)
            guard state.timer == nil else { return false }
            state.timer = timer
            return true
        }
        if started { timer.source.resume() }
    }

    func unregister(_ observer: any PHPhotoLibraryAvailabilityObserver) {
        let identifier = ObjectIdentifier(observer)
        state.withLock { state in
            state.observers.removeAll { $0.observer == nil || $0.identifier == identifier }
            if state.observers.isEmpty {
                state.timer?.source.cancel()
                state.timer = nil
                state.reason = nil
            }
        }
    }

    /// One look: records the reason, and tells the observers when the library just went away.
    private func look(at library: PHPhotoLibrary) {
        let problem = library.availabilityProblem()
        let (wentAway, observers) = state.withLock { state in
            let wasAvailable = state.reason == nil
            state.reason = problem
            return (wasAvailable && problem != nil, state.observers.compactMap(\.observer))
        }
        guard wentAway else { return }
        for observer in observers { observer.photoLibraryDidBecomeUnavailable(library) }
    }

    deinit {
        state.withLock { $0.timer?.source.cancel() }
    }
}
