import Foundation

extension PHPhotoLibrary {
    /// Starts telling `observer` about every change committed to this library, by this
    /// process or another. The library doesn't keep the observer alive; unregister it (in
    /// `deinit`, for instance) when done.
    public func register(_ observer: any PHPhotoLibraryChangeObserver) {
        dispatcher.register(observer)
    }

    /// Stops telling `observer` about changes.
    public func unregisterChangeObserver(_ observer: any PHPhotoLibraryChangeObserver) {
        dispatcher.unregister(observer)
    }

    /// Returns once the observers have been told of every change this process committed before
    /// the call (their `photoLibraryDidChange` has returned), and of any other process's
    /// change delivered with them.
    ///
    /// Linux addition, for servers: a client that changed the library and then reads what
    /// observers keep up to date (a kept fetch result moved forward by the change's details)
    /// sees its own write, without the kept state being dropped and fetched again.
    package func changesDelivered() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            dispatcher.afterQueuedDeliveries { continuation.resume() }
        }
    }

    /// Returns once the observers have been told of every change other processes committed
    /// before the call: one read of the library's position when there is none. Blocks the
    /// caller; never call it from an observer's `photoLibraryDidChange`.
    ///
    /// Linux addition, for servers sharing a database: a client whose change another instance
    /// answered, reading next from this one, sees it, though this instance's wake-up (the
    /// `NOTIFY`, the signal file) may not have come yet.
    package func deliverChangesCommittedElsewhere() throws(PHPhotosError) {
        do { try dispatcher.deliverCommittedElsewhere() } catch { throw PHPhotosError(error) }
    }

    /// Every change committed to the library from now on, for Swift concurrency.
    ///
    /// Linux addition. Each access starts a new sequence, registered at once; it ends when
    /// the iterating task is cancelled or the sequence is released. The changes are those an
    /// observer gets, in the same order.
    ///
    /// ```swift
    /// for await change in library.changes {
    ///     if let details = change.changeDetails(for: assets) { assets = details.fetchResultAfterChanges }
    /// }
    /// ```
    public var changes: AsyncStream<PHChange> {
        let (stream, continuation) = AsyncStream<PHChange>.makeStream()
        let observer = StreamObserver(continuation)
        dispatcher.register(observer, retain: true)
        continuation.onTermination = { [weak dispatcher] _ in
            dispatcher?.unregister(observer)
        }
        return stream
    }
}
