import Foundation
import PhotosLocking

/// Requests served a batch at a time by one worker: the shape ``ChangeCommitter`` (group
/// commit) and ``AssetLookups`` (reads together) share.
///
/// The first request starts a worker; requests that arrive while it serves a batch wait here,
/// and when it is done it takes the next batch from them (`choose` picks which, in arrival
/// order), until none waits. Each request is answered with its own outcome of its batch.
final class RequestBatcher<Request: Sendable, Answer: Sendable>: Sendable {
    private struct Waiting {
        let request: Request
        let continuation: CheckedContinuation<Answer, any Error>
    }

    private struct State {
        var waiting: [Waiting] = []
        /// Whether a worker is serving batches (it takes what arrives meanwhile).
        var draining = false
    }

    private let state = Mutex(State())
    /// The waiting requests the next batch takes (the first among them at least).
    private let choose: @Sendable ([Request]) -> IndexSet

    init(choose: @escaping @Sendable ([Request]) -> IndexSet) {
        self.choose = choose
    }

    /// Answers `request` with its outcome of the batch it joins; `serve` answers a batch (one
    /// outcome a request, in order), the first waiting request's running for everyone's.
    func submit(_ request: Request, serve: @escaping @Sendable ([Request]) async -> [Result<Answer, any Error>]) async throws -> Answer {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Answer, any Error>) in
            let start = state.withLock { state -> Bool in
                state.waiting.append(Waiting(request: request, continuation: continuation))
                defer { state.draining = true }
                return !state.draining
            }
            if start { Task { await self.drain(serve) } }
        }
    }

    /// Whether a worker is serving, and how many requests wait for the next batch (for tests).
    var pending: (draining: Bool, waiting: Int) {
        state.withLock { ($0.draining, $0.waiting.count) }
    }

    /// Serves batches until nothing waits.
    private func drain(_ serve: @Sendable ([Request]) async -> [Result<Answer, any Error>]) async {
        while let batch = nextBatch() {
            let outcomes = await serve(batch.map(\.request))
            for (waiting, outcome) in zip(batch, outcomes) {
                waiting.continuation.resume(with: outcome)
            }
        }
    }

    /// The next batch, taken out of the waiting requests; nil (and the worker ends) when none waits.
    private func nextBatch() -> [Waiting]? {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.draining = false
                return nil
            }
            var taken = choose(state.waiting.map(\.request))
            taken.insert(0)
            let batch = taken.map { state.waiting[$0] }
            state.waiting = state.waiting.enumerated().filter { !taken.contains($0.offset) }.map(\.element)
            return batch
        }
    }
}
