import Foundation
import PhotosStore

/// The engine's connections: at most ``maximum`` open at once (a caller past it waits for one
/// to come back, up to the connect timeout, then fails as unavailable), up to ``keptIdle`` kept
/// open between uses, each closed once idle for ``idleTimeout``. A connection the server
/// closed (a restart) is dropped when next taken, and its place freed at once.
///
/// The URL's `pool_max` (default 20), `pool_idle` (sessions kept idle, default 4) and
/// `pool_idle_timeout` (seconds, default 60) set them (Linux additions beside libpq's
/// parameters).
final class PostgresSessionPool: @unchecked Sendable {
    // @unchecked Sendable: every field is read and written under `condition`.
    private let condition = NSCondition()
    private var idle: [(session: PostgresSession, since: Date)] = []
    private var open = 0
    let maximum: Int
    let keptIdle: Int
    let idleTimeout: TimeInterval

    init(maximum: Int, keptIdle: Int, idleTimeout: TimeInterval) {
        self.maximum = max(1, maximum)
        self.keptIdle = max(0, min(keptIdle, maximum))
        self.idleTimeout = idleTimeout
    }

    /// An idle session, a new one (`connect`) while fewer than ``maximum`` are open, else the
    /// first to come back within `timeout`.
    func take(timeout: TimeInterval, connect: () throws(StoreError) -> PostgresSession) throws(StoreError) -> PostgresSession {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            var stale: [PostgresSession] = []
            condition.lock()
            let now = Date()
            while let oldest = idle.first, now.timeIntervalSince(oldest.since) > idleTimeout { stale.append(idle.removeFirst().session) }
            if let found = idle.popLast()?.session {
                condition.unlock()
                for session in stale { session.close() }
                if found.isClosed { continue }  // the server ended it while idle
                return found
            }
            if open < maximum {
                open += 1
                condition.unlock()
                for session in stale { session.close() }
                do {
                    let session = try connect()
                    session.whenClosed { [weak self] in self?.closed() }
                    return session
                } catch {
                    closed()
                    throw error
                }
            }
            if !stale.isEmpty {
                // Their places free up as they close: look again then.
                condition.unlock()
                for session in stale { session.close() }
                continue
            }
            let woken = condition.wait(until: deadline)
            condition.unlock()
            if !woken {
                throw StoreError(.unavailable, "all \(maximum) connections to the database are in use (pool_max); none came back within \(Int(timeout)) s")
            }
        }
    }

    /// Takes a session back: kept idle when there is room, else closed.
    func giveBack(_ session: PostgresSession) {
        guard !session.isClosed else { return }
        condition.lock()
        if idle.count < keptIdle {
            idle.append((session, Date()))
            condition.signal()
            condition.unlock()
            return
        }
        condition.unlock()
        session.close()
    }

    /// How many connections are open (idle or in use).
    var openCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return open
    }

    /// Closes every idle session.
    func closeIdle() {
        condition.lock()
        let sessions = idle.map(\.session)
        idle.removeAll()
        condition.unlock()
        for session in sessions { session.close() }
    }

    /// A session's connection closed, for whatever reason: its place is free.
    private func closed() {
        condition.lock()
        open -= 1
        condition.signal()
        condition.unlock()
    }
}
