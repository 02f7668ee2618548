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

    /// Reads made, and the requests they answered (for tests).
    private let made = Mutex((reads: 0, answered: 0))
    private let batcher = RequestBatcher<[String], [String: PHAsset]>(choose: AssetLookups.batch)

    /// The assets with these local identifiers that `service`'s library holds, by identifier,
    /// hidden and burst ones included (``LibraryService/assets(identifiers:)``), read with
    /// those of the other requests waiting at the same time.
    func assets(_ identifiers: [String], on service: LibraryService) async throws -> [String: PHAsset] {
        try await batcher.submit(identifiers) { [made] requests in
            let wanted = Array(Set(requests.joined())).sorted()
            let outcome: Result<[String: PHAsset], any Error>
            do {
                outcome = .success(try await service.quickly("asset lookups") { try service.assets(identifiers: wanted) })
            } catch {
                outcome = .failure(error)
            }
            made.withLock { $0 = ($0.reads + 1, $0.answered + requests.count) }
            return requests.map { asked in
                let asked = Set(asked)
                return outcome.map { found in found.filter { asked.contains($0.key) } }
            }
        }
    }

    /// How many reads were made, and how many requests they answered.
    var counts: (reads: Int, answered: Int) {
        made.withLock { $0 }
    }

    /// Whether a read is in flight, and how many requests wait for the next (for tests).
    var pending: (reading: Bool, waiting: Int) {
        let pending = batcher.pending
        return (pending.draining, pending.waiting)
    }

    /// The requests the next read answers, in arrival order, up to ``batchLimit`` identifiers
    /// (one request's at least).
    private static func batch(of waiting: [[String]]) -> IndexSet {
        var count = 0
        var taken = 0
        for identifiers in waiting {
            if taken > 0 && count + identifiers.count > batchLimit { break }
            count += identifiers.count
            taken += 1
        }
        return IndexSet(integersIn: 0..<taken)
    }
}
