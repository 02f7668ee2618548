import Foundation
import Logging
import PhotosStore
import PhotosLocking

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
        var watcher: (any ChangeWatch)?
        /// The newest change delivered: the only one keeping its snapshot.
        var newest: PHChange?
        /// Commits of this library not yet delivered; while any is in flight, wake-ups from
        /// the signal file wait, so each local transaction arrives as its own change.
        var localCommitsInFlight = 0
        /// Snapshots taken after local commits and not yet delivered.
        var snapshotsWaiting = 0
        /// The snapshot the last local commit took, until the next commit has seen it taken.
        weak var lastSnapshot: StoreSnapshot?
        /// The position that snapshot saw, once the next commit has seen it taken: where the
        /// next delivery starts if it hasn't been delivered yet.
        var lastSnapshotPosition: Int64 = 0
    }

    /// At most this many local commits wait for delivery with a snapshot of their own; past
    /// it, a commit is delivered with whatever committed after it (see ``didCommit(_:)``).
    static let maximumSnapshotsWaiting = 8

    private let queue = DispatchQueue(label: "PHPhotoLibrary.observers")
    private let state: Mutex<State>
    /// The library whose changes these are (it owns the dispatcher).
    private let owner: LibraryReference
    private let store: LibraryDatabase
    /// How often the journal is looked at without a wake-up.
    private let checkInterval: DispatchTimeInterval
    /// Where a read that delays or coarsens a delivery is reported (the library's logger).
    private let logger: Logger
    /// The reads of every wake-up, which fail at each one while the database is gone.
    private let positionReads = RecurringFailure(), snapshotReads = RecurringFailure()

    init(owner: LibraryReference, store: LibraryDatabase, checkInterval: DispatchTimeInterval, logger: Logger) {
        self.owner = owner
        self.store = store
        self.checkInterval = checkInterval
        self.logger = logger
        state = Mutex(State(position: 0))
    }

    func register(_ observer: any PHPhotoLibraryChangeObserver, retain: Bool = false) {
        let identifier = ObjectIdentifier(observer)
        let weak = WeakObserver(observer: observer, identifier: identifier)
        let strong = retain ? StrongObserver(observer: observer) : nil
        // Unread (logged), the observers start from the last position delivered.
        let now = logger.attempt(.notice, "read the library's position for a new observer") { try store.currentPosition() }
        state.withLock { state in
            state.observers.removeAll { $0.observer == nil || $0.identifier == identifier }
            if state.observers.isEmpty && state.watcher == nil {
                // Start from now: changes committed before the first observer aren't news.
                state.position = now ?? state.position
                state.watcher = store.watchChanges(queue: queue, fallback: checkInterval) { [weak self] in
                    self?.check()
                }
            }
            state.observers.append(weak)
            if let strong { state.retained[identifier] = strong }
        }
    }

    func unregister(_ observer: any PHPhotoLibraryChangeObserver) {
        let identifier = ObjectIdentifier(observer)
        let watcher = state.withLock { state -> (any ChangeWatch)? in
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

    /// Called on the change queue before this library commits.
    func willCommit() {
        state.withLock { $0.localCommitsInFlight += 1 }
    }

    /// Called on the change queue after this library's commit (`committed` false when it
    /// failed). The snapshot is taken before the next local commit commits (on PostgreSQL its
    /// first read is sent here and the next commit waits for its answer: ``awaitLastSnapshot()``),
    /// so the change delivered covers this transaction alone (plus any another process
    /// committed in between).
    ///
    /// Each snapshot waiting is an open connection and keeps SQLite from starting its log
    /// over, so when observers fall behind (more than ``maximumSnapshotsWaiting`` commits
    /// waiting) a commit takes none: its delivery reads the library as it is then, together
    /// with the commits after it.
    ///
    /// With a `gate`, the delivery waits (on the observers' queue) until the gate is opened:
    /// `performChanges` opens it when its completion handler returns, so observers always hear
    /// of a change after the code that made it.
    func didCommit(_ committed: Bool, gate: DeliveryGate? = nil) {
        let observed = state.withLock { $0.watcher != nil }
        var snapshot: StoreSnapshot?
        if committed && observed && state.withLock({ $0.snapshotsWaiting < Self.maximumSnapshotsWaiting }) {
            // Without one (logged), the commit is delivered with what commits after it. Its
            // delivery will start where the one before ends: the journal from there is sent
            // with the snapshot.
            let start = state.withLock { max($0.position, $0.lastSnapshotPosition) }
            snapshot = logger.attempt(.notice, "take a snapshot after a commit") {
                try store.makeSnapshot(sentAhead: true, journalAfter: start)
            }
            if let snapshot {
                state.withLock { state in
                    state.snapshotsWaiting += 1
                    state.lastSnapshot = snapshot
                }
            }
        }
        let coalesced = committed && observed && snapshot == nil
        queue.async { [snapshot] in
            if snapshot != nil || coalesced { gate?.wait() }
            if let snapshot {
                self.state.withLock { $0.snapshotsWaiting -= 1 }
                self.deliver(snapshot)
            } else if coalesced {
                let now = self.logger.attempt(.notice, "take a snapshot for commits delivered together") { try self.store.makeSnapshot() }
                if let now { self.deliver(now) }
            }
            self.state.withLock { $0.localCommitsInFlight -= 1 }
        }
    }

    /// Called inside the next local commit's transaction, right before it commits: waits
    /// until the last commit's snapshot is taken. On PostgreSQL a snapshot's first read is sent
    /// without waiting (``StoreSnapshot/opened()``), so the commit that took it goes on at once;
    /// its answer has usually come in by the time the next commit's first read has. Waiting
    /// here keeps each snapshot from seeing the commit after its own. A failed read is reported
    /// by the delivery.
    func awaitLastSnapshot() {
        let last = state.withLock { state in
            defer { state.lastSnapshot = nil }
            return state.lastSnapshot
        }
        guard let opened = try? last?.opened() else { return }
        state.withLock { $0.lastSnapshotPosition = max($0.lastSnapshotPosition, opened.position) }
    }

    /// Runs `body` on the observers' queue after the deliveries queued there now: each local
    /// commit queues its delivery before `performChanges` returns, so `body` runs once the
    /// observers have heard of every change this process committed before the call.
    func afterQueuedDeliveries(_ body: @escaping @Sendable () -> Void) {
        queue.async(execute: body)
    }

    /// Delivers, before returning, what other processes committed up to now that this one
    /// hasn't delivered yet (with observers registered; without, there is nothing to move).
    /// One position read when there is nothing new. Never called on `queue` (an observer's
    /// callback): it waits for it.
    func deliverCommittedElsewhere() throws(StoreError) {
        guard let delivered = state.withLock({ $0.watcher == nil ? nil : $0.position }) else { return }
        guard try store.currentPosition() > delivered else { return }
        queue.sync { check() }
    }

    /// On `queue`: a wake-up from the signal file or the timer. A read that fails is logged,
    /// and the next wake-up looks again.
    private func check() {
        guard state.withLock({ $0.localCommitsInFlight == 0 }) else { return }
        let position = logger.attempt(.notice, "read the library's position", recurring: positionReads) { try store.currentPosition() }
        guard let position, position > state.withLock({ $0.position }) else { return }
        let snapshot = logger.attempt(.notice, "take a snapshot of changes made elsewhere", recurring: snapshotReads) {
            try store.makeSnapshot()
        }
        guard let snapshot, state.withLock({ $0.localCommitsInFlight == 0 }) else { return }
        deliver(snapshot)
    }

    /// On `queue`: delivers the changes between the last delivered position and `snapshot`.
    private func deliver(_ snapshot: StoreSnapshot) {
        guard let library = owner.library else { return }
        let start = state.withLock { $0.position }
        // Unread (logged), the changes are delivered with the next snapshot that reads.
        guard let newest = logger.attempt(.notice, "read the position of a snapshot", { try snapshot.position }),
            newest > start
        else { return }
        // `nil`: the history was pruned past what we delivered, or can't be read (logged);
        // details are then computed from the library as it is.
        let changes = logger.attempt(.notice, "read the changes after position \(start)") { try snapshot.objectChanges(after: start) }
        state.withLock { $0.position = newest }
        if let changes, changes.isEmpty { return }
        // A person's library hears only of changes that concern them (unread: told).
        if let changes, let person = library.personID {
            let concerns = logger.attempt(.notice, "read whether the changes after position \(start) concern person \(person)") {
                try snapshot.concerns(changes, person: person, libraryOwner: try library.store.people.ownerID())
            }
            if concerns == false { return }
        }
        let change = PHChange(library: library, snapshot: snapshot, position: newest, objectChanges: changes)
        let (observers, previous) = state.withLock { state in
            state.observers.removeAll { $0.observer == nil }
            defer { state.newest = change }
            return (state.observers.compactMap(\.observer), state.newest)
        }
        previous?.releaseSnapshot()
        for observer in observers {
            observer.photoLibraryDidChange(change)
        }
        // The snapshot is a read transaction: kept open until the next change, it would keep
        // SQLite from ever starting its log over while changes keep coming. Observers read
        // what they need in their callbacks (as StarGallery does); details asked for later
        // are computed from the library as it is then.
        change.releaseSnapshot()
    }
}
