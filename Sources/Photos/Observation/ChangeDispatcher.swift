import Foundation
import PhotosStore
import Synchronization

/// Delivers a library's changes to its observers: one per library, made on first use.
///
/// Whenever the library may have changed (this process committed, the signal file of another
/// process's commit was written, or a second passed), it compares the journal's position with
/// the last one delivered; if it moved, it takes a snapshot, reads what changed in between
/// and calls each observer with one ``PHChange``, serially on its own queue.
final class ChangeDispatcher: Sendable {
    private struct State {
        var observers: [WeakObserver] = []
        /// Observers kept alive by the dispatcher (async streams).
        var retained: [ObjectIdentifier: StrongObserver] = [:]
        var position: Int64
        var watcher: ChangeSignalWatcher?
        var checkScheduled = false
        /// The newest change delivered: the only one keeping its snapshot.
        var newest: PHChange?
    }

    private let queue = DispatchQueue(label: "PHPhotoLibrary.observers")
    private let state: Mutex<State>
    private weak let library: PHPhotoLibrary?
    private let store: LibraryDatabase

    init(library: PHPhotoLibrary) {
        self.library = library
        store = library.store
        state = Mutex(State(position: (try? library.store.currentPosition()) ?? 0))
    }

    func register(_ observer: any PHPhotoLibraryChangeObserver, retain: Bool = false) {
        let identifier = ObjectIdentifier(observer)
        let weak = WeakObserver(observer: observer, identifier: identifier)
        let strong = retain ? StrongObserver(observer: observer) : nil
        state.withLock { state in
            state.observers.removeAll { $0.observer == nil || $0.identifier == identifier }
            if state.observers.isEmpty && state.watcher == nil {
                // Start from now: changes committed before the first observer aren't news.
                state.position = (try? store.currentPosition()) ?? state.position
                state.watcher = ChangeSignalWatcher(store.changeSignal, queue: queue) { [weak self] in
                    self?.check()
                }
            }
            state.observers.append(weak)
            if let strong { state.retained[identifier] = strong }
        }
    }

    func unregister(_ observer: any PHPhotoLibraryChangeObserver) {
        let identifier = ObjectIdentifier(observer)
        let watcher = state.withLock { state -> ChangeSignalWatcher? in
            state.observers.removeAll { $0.observer == nil || $0.identifier == identifier }
            state.retained[identifier] = nil
            guard state.observers.isEmpty else { return nil }
            // The newest change holds the library; let both go.
            state.newest = nil
            defer { state.watcher = nil }
            return state.watcher
        }
        watcher?.cancel()
    }

    /// Looks for new changes soon; calls made before the look runs share it.
    func poke() {
        let schedule = state.withLock { state in
            guard !state.checkScheduled && state.watcher != nil else { return false }
            state.checkScheduled = true
            return true
        }
        if schedule { queue.async { self.check() } }
    }

    /// On `queue`: delivers the changes after the last delivered position, if any.
    private func check() {
        state.withLock { $0.checkScheduled = false }
        guard let library, let position = try? store.currentPosition() else { return }
        let start = state.withLock { $0.position }
        guard position > start, let snapshot = try? store.makeSnapshot() else { return }
        // `nil`: the history was pruned past what we delivered; details can't be exact.
        let changes = try? snapshot.objectChanges(after: start)
        state.withLock { $0.position = snapshot.position }
        if let changes, changes.isEmpty { return }
        let change = PHChange(library: library, snapshot: snapshot, start: start, objectChanges: changes)
        let (observers, previous) = state.withLock { state in
            state.observers.removeAll { $0.observer == nil }
            defer { state.newest = change }
            return (state.observers.compactMap(\.observer), state.newest)
        }
        previous?.releaseSnapshot()
        for observer in observers {
            observer.photoLibraryDidChange(change)
        }
    }
}
