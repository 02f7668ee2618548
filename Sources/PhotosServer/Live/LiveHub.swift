import Foundation
import Photos
import PhotosLocking

/// Keeps every live connection's fetches current: one change observer for the server, and for
/// each subscription the `PHFetchResultChangeDetails` of its fetch, sent in Apple's order.
/// Changes from other processes (`photos import`) arrive the same way, through the library's
/// change signal.
final class LiveHub: NSObject, PHPhotoLibraryChangeObserver, Sendable {
    private let library: PHPhotoLibrary
    private let connections = Mutex<[ObjectIdentifier: LiveConnection]>([:])
    private let registered = Mutex(false)

    init(library: PHPhotoLibrary) {
        self.library = library
    }

    func add(_ connection: LiveConnection) {
        connections.withLock { $0[ObjectIdentifier(connection)] = connection }
        let first = registered.withLock { registered in
            defer { registered = true }
            return !registered
        }
        if first { library.register(self) }
    }

    func remove(_ connection: LiveConnection) {
        connections.withLock { $0[ObjectIdentifier(connection)] = nil }
    }

    var connectionCount: Int { connections.withLock { $0.count } }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        for connection in connections.withLock({ Array($0.values) }) {
            connection.apply(changeInstance)
        }
    }

    /// Tokens or allow-lists changed: limited connections re-run their fetches.
    func accessChanged(gate: AccessGate) {
        for connection in connections.withLock({ Array($0.values) }) {
            connection.refreshAccess(gate: gate)
        }
    }
}
