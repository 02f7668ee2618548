import Foundation
import GRDB
import PhotosLocking

/// The read-only connections ``StoreSnapshot``s hold their read transaction on, kept between
/// snapshots.
///
/// A change observed in this process takes a snapshot per commit. GRDB's `makeSnapshot()`
/// opens a connection for each and closes it after: at a few hundred commits a second that
/// was an open, a fresh statement cache (every query parsed again) and an unmapping of the
/// database file per commit (measured: a quarter of a favorite toggle's server time). These
/// connections end their transaction when the snapshot goes and wait, statements prepared,
/// for the next one.
final class SnapshotConnections: Sendable {
    private let path: String
    private let idle = Mutex<[DatabaseQueue]>([])
    /// Connections kept open when idle; more are opened while many snapshots are held, and
    /// closed when they are let go.
    static let keptIdle = 4

    /// Each connection's `mmap_size`.
    private let memoryMap: Int

    init(path: String, memoryMap: Int) {
        self.path = path
        self.memoryMap = memoryMap
    }

    /// A connection outside any transaction, for one snapshot.
    func take() throws -> DatabaseQueue {
        if let reused = idle.withLock({ $0.popLast() }) { return reused }
        var config = Configuration()
        config.readonly = true
        // The snapshot's transaction stays open between accesses, by design.
        config.allowsUnsafeTransactions = true
        config.busyMode = .timeout(LibraryDatabase.busyTimeout)
        config.label = "PhotosLibrary.snapshot"
        let memoryMap = memoryMap
        config.prepareDatabase { db in
            try ConnectionFunctions.register(in: db)
            try db.execute(sql: "PRAGMA mmap_size = \(memoryMap)")
        }
        return try DatabaseQueue(path: path, configuration: config)
    }

    /// Takes back a connection whose snapshot ended its transaction.
    func giveBack(_ connection: DatabaseQueue) {
        let closing = idle.withLock { connections -> DatabaseQueue? in
            guard connections.count < Self.keptIdle else { return connection }
            connections.append(connection)
            return nil
        }
        _ = closing  // closed here, outside the lock
    }
}
