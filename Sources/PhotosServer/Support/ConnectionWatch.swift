import NIOCore
import PhotosLocking

/// Cancels work done for a client whose connection closed before the answer: a browser
/// aborts the image requests of grid cells that scrolled away by closing their connections,
/// and their renders, queued behind the visible cells', would otherwise still run.
///
/// One close callback per connection (registered with its first watched request, removed
/// when it closes), so a long-lived connection's many requests don't pile callbacks up.
final class ConnectionWatch: Sendable {
    private struct State {
        var next = 0
        /// The cancel closures of the watched work, by connection.
        var connections: [ObjectIdentifier: [Int: @Sendable () -> Void]] = [:]
    }

    private let state = Mutex(State())

    /// Runs `work`, cancelled when `channel` closes first (or when the caller's task is).
    func run<T: Sendable>(on channel: any Channel, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await work() }
        let connection = ObjectIdentifier(channel)
        let (id, first) = state.withLock { state -> (Int, Bool) in
            state.next += 1
            let first = state.connections[connection] == nil
            state.connections[connection, default: [:]][state.next] = { task.cancel() }
            return (state.next, first)
        }
        if first {
            channel.closeFuture.whenComplete { [weak self] _ in self?.closed(connection) }
        }
        defer { state.withLock { _ = $0.connections[connection]?.removeValue(forKey: id) } }
        return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
    }

    /// How many connections are watched (for tests).
    var watchedConnections: Int { state.withLock { $0.connections.count } }

    private func closed(_ connection: ObjectIdentifier) {
        let cancels = state.withLock { $0.connections.removeValue(forKey: connection) } ?? [:]
        for cancel in cancels.values { cancel() }
    }
}
