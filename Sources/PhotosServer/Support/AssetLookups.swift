import Foundation
import Photos
import PhotosLocking

/// Finds the assets concurrent requests name, together: the read-side twin of
/// ``ChangeCommitter``'s group commit.
///
/// A `POST /api/changes` looks its assets up before its plan joins the committer's queue
/// (``ChangePlan``): a statement each on PostgreSQL, a round trip and a server's parse and
/// execution. One read is in flight at a time per library; the requests that arrive meanwhile
/// wait here, and the next read takes all their identifiers (``batchLimit`` at most) in one
/// fetch, so a burst of toggles costs a read or two, not one each. A lone request is read at
/// once, as before. The reads run on ``WorkPool/reads``, off the event loops, alongside the
/// commits (which they don't wait for).
final class AssetLookups: Sendable {
    /// The most identifiers one read takes (one statement on PostgreSQL up to a fetch
    /// result's batch size).
    static let batchLimit = 200

    private struct Waiting {
        let identifiers: [String]
        let continuation: CheckedContinuation<[String: PHAsset], any Error>
    }

    private struct State {
        var waiting: [Waiting] = []
        /// Whether a read is in flight (it takes what arrives meanwhile when done).
        var reading = false
        /// Reads made, and the requests they answered (for tests).
        var reads = 0
        var answered = 0
    }

    private let state = Mutex(State())

    /// The assets with these local identifiers that `service`'s library holds, by identifier,
    /// hidden and burst ones included (``LibraryService/assets(identifiers:)``), read with
    /// those of the other requests waiting at the same time.
    func assets(_ identifiers: [String], on service: LibraryService) async throws -> [String: PHAsset] {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[String: PHAsset], any Error>) in
            let start = state.withLock { state -> Bool in
                state.waiting.append(Waiting(identifiers: identifiers, continuation: continuation))
                defer { state.reading = true }
                return !state.reading
            }
            if start { Task { await self.drain(service) } }
        }
    }

    /// How many reads were made, and how many requests they answered.
    var counts: (reads: Int, answered: Int) {
        state.withLock { ($0.reads, $0.answered) }
    }

    /// Whether a read is in flight, and how many requests wait for the next (for tests).
    var pending: (reading: Bool, waiting: Int) {
        state.withLock { ($0.reading, $0.waiting.count) }
    }

    /// Reads until nothing waits.
    private func drain(_ service: LibraryService) async {
        while let batch = nextBatch() {
            let wanted = Array(Set(batch.flatMap(\.identifiers))).sorted()
            let outcome: Result<[String: PHAsset], any Error>
            do {
                outcome = .success(try await service.quickly("asset lookups") { try service.assets(identifiers: wanted) })
            } catch {
                outcome = .failure(error)
            }
            state.withLock { state in
                state.reads += 1
                state.answered += batch.count
            }
            for waiting in batch {
                let asked = Set(waiting.identifiers)
                waiting.continuation.resume(with: outcome.map { found in found.filter { asked.contains($0.key) } })
            }
        }
    }

    /// The requests the next read answers, in arrival order, up to ``batchLimit`` identifiers
    /// (one request's at least); nil (and the drain ends) when none waits.
    private func nextBatch() -> [Waiting]? {
        state.withLock { state in
            guard !state.waiting.isEmpty else {
                state.reading = false
                return nil
            }
            var count = 0
            var taken = 0
            for waiting in state.waiting {
                if taken > 0 && count + waiting.identifiers.count > Self.batchLimit { break }
                count += waiting.identifiers.count
                taken += 1
            }
            defer { state.waiting.removeFirst(taken) }
            return Array(state.waiting.prefix(taken))
        }
    }
}
