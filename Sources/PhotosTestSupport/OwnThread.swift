import Foundation

/// Runs blocking work (a child process, a synchronous call that waits) on a thread of its own
/// and awaits it, so a test doesn't hold one of Swift concurrency's threads (as many as cores:
/// two on CI) while it waits; tests that held both stalled every other test past its time limit.
public func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
