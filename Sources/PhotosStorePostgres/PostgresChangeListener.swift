import Foundation
import PhotosLocking
import PhotosStore

/// One `LISTEN` connection per engine, shared by every watcher of the library: each
/// notification (a commit on any instance) wakes the watchers of its topic (a journal
/// commit's payload is its position, an access change's `ChangeJournal.postgresAccessPayload`). A notification is only a
/// wake-up: it is lost when nobody listens and sent only at commit, so watchers read the
/// history after the last position they saw. When the connection drops, it reconnects (after
/// 0.1 s, doubling to 5 s) and wakes every watcher, which catches up on what was missed.
final class PostgresChangeListener: Sendable {

    private let url: URL
    private let channel: String

    private struct State {
        /// Held weakly: a watch released without `cancel()` stops, as SQLite's does.
        var watchers: [Int: Weak] = [:]
        var nextID = 0
        var session: PostgresSession?
        var connecting = false
        var stopped = false
        var retryDelay: Double = 0.1
    }

    private let state = Mutex(State())

    private struct Weak {
        weak var watch: PostgresChangeWatch?
    }

    init(url: URL, channel: String) {
        self.url = url
        self.channel = channel
    }

    func watch(
        queue: DispatchQueue, fallback: DispatchTimeInterval, topic: ChangeTopic, handler: @escaping @Sendable () -> Void
    ) -> PostgresChangeWatch {
        let watch = state.withLock { state -> PostgresChangeWatch in
            let watch = PostgresChangeWatch(id: state.nextID, queue: queue, fallback: fallback, topic: topic, handler: handler) { [weak self] id in
                self?.remove(id)
            }
            state.watchers[state.nextID] = Weak(watch: watch)
            state.nextID += 1
            return watch
        }
        connectIfNeeded()
        return watch
    }

    private func remove(_ id: Int) {
        let idle = state.withLock { state -> PostgresSession? in
            state.watchers[id] = nil
            guard state.watchers.isEmpty, let session = state.session else { return nil }
            state.session = nil
            return session
        }
        idle?.close()
    }

    func stop() {
        let session = state.withLock { state -> PostgresSession? in
            state.stopped = true
            defer { state.session = nil }
            return state.session
        }
        session?.close()
    }

    /// Wakes the watchers of `topic`, or every watcher (`nil`: after a reconnect, when
    /// anything may have been missed).
    private func wake(_ topic: ChangeTopic?) {
        let watchers = state.withLock { $0.watchers.values.compactMap(\.watch) }
        for watcher in watchers where topic == nil || watcher.topic == topic { watcher.wake() }
    }

    /// Opens the `LISTEN` connection off the caller's thread, unless one is open or opening.
    private func connectIfNeeded() {
        let start = state.withLock { state -> Bool in
            guard !state.stopped, state.session == nil, !state.connecting, !state.watchers.isEmpty else { return false }
            state.connecting = true
            return true
        }
        guard start else { return }
        DispatchQueue.global(qos: .utility).async { self.connect() }
    }

    private func connect() {
        do {
            let session = try PostgresSession.connect(to: url)
            try session.listen(channel) { [weak self] payload in
                self?.wake(payload == ChangeJournal.postgresAccessPayload ? .access : .journal)
            }
            let keep = state.withLock { state -> Bool in
                state.connecting = false
                guard !state.stopped, !state.watchers.isEmpty else { return false }
                state.session = session
                state.retryDelay = 0.1
                return true
            }
            guard keep else {
                session.close()
                return
            }
            session.whenClosed { [weak self] in self?.connectionClosed(session) }
            // Whatever committed before LISTEN took effect was not announced to this instance.
            wake(nil)
        } catch {
            let delay = state.withLock { state -> Double in
                state.connecting = false
                defer { state.retryDelay = min(state.retryDelay * 2, 5) }
                return state.retryDelay
            }
            DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) { [weak self] in self?.connectIfNeeded() }
        }
    }

    private func connectionClosed(_ session: PostgresSession) {
        let reconnect = state.withLock { state -> Bool in
            guard state.session === session else { return false }
            state.session = nil
            return !state.stopped
        }
        if reconnect { connectIfNeeded() }
    }
}

/// One watcher of a PostgreSQL library's commits: its handler runs on its queue at each
/// wake-up and every `fallback`.
final class PostgresChangeWatch: ChangeWatch, @unchecked Sendable {
    // @unchecked Sendable: `timer` is set in init and cancelled in cancel(); dispatch orders
    // its handler; `cancelled` is behind a lock.
    private let id: Int
    /// What its wake-ups are about.
    let topic: ChangeTopic
    private let queue: DispatchQueue
    private let handler: @Sendable () -> Void
    private let timer: any DispatchSourceTimer
    private let cancelled = Mutex(false)
    private let onCancel: @Sendable (Int) -> Void

    init(
        id: Int, queue: DispatchQueue, fallback: DispatchTimeInterval, topic: ChangeTopic, handler: @escaping @Sendable () -> Void,
        onCancel: @escaping @Sendable (Int) -> Void
    ) {
        self.id = id
        self.topic = topic
        self.queue = queue
        self.handler = handler
        self.onCancel = onCancel
        timer = ChangeSignalWatcher.fallbackTimer(queue: queue, every: fallback, handler: handler)
    }

    func wake() {
        queue.async { [self] in
            if !cancelled.withLock({ $0 }) { handler() }
        }
    }

    func cancel() {
        let first = cancelled.withLock { cancelled -> Bool in
            defer { cancelled = true }
            return !cancelled
        }
        guard first else { return }
        timer.cancel()
        onCancel(id)
    }

    deinit { cancel() }
}
