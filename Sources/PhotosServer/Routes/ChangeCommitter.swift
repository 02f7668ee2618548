import Foundation
import Photos
import PhotosLocking

/// Commits the change plans of concurrent `POST /api/changes` requests together: group commit.
///
/// A library runs one change block at a time, and on PostgreSQL each costs a transaction of
/// round trips and a delivery to observers (a snapshot, the journal, the kept results'
/// diffs). While one commits, the plans that arrive wait here; the next transaction takes
/// them all (up to ``batchLimit``) in one change block, so the transaction, its delivery and
/// the observers' reads are paid once for the batch. Each request is still answered only after
/// its own change committed, with the change token after it.
///
/// Only plans of asset-level steps whose assets no other plan of the batch touches go together
/// (``ChangePlan/batchableAssets``): favorites, hiding, deleting, recovering. An album's edits,
/// a creation, an edit or a share commit alone, in arrival order. When a batch fails (one
/// plan's asset deleted meanwhile, a database that is away), nothing of it was committed, and
/// each plan is committed again on its own, so each request gets its own answer, as without
/// batching. A batch is one change in the persistent history.
final class ChangeCommitter: Sendable {
    /// The most plans one transaction takes.
    static let batchLimit = 64

    /// Batches of more than one plan committed, and the plans in them (for tests).
    private let batched = Mutex((batches: 0, plans: 0))
    private let batcher = RequestBatcher<ChangePlan, String>(choose: ChangeCommitter.batch)

    /// Commits `plan`'s block, alone or with others waiting at the same time, on the writes
    /// pool; returns the change token after the commit that had it.
    func commit(_ plan: ChangePlan, on service: LibraryService) async throws -> String {
        try await batcher.submit(plan) { [batched] plans in
            let library = service.library
            let outcomes: [Result<String, any Error>]
            do {
                outcomes = try await service.writing("commit") { Self.commit(plans, to: library) }
            } catch {
                outcomes = plans.map { _ in .failure(error) }
            }
            if plans.count > 1, case .success = outcomes.first {
                batched.withLock { $0 = ($0.batches + 1, $0.plans + plans.count) }
            }
            return outcomes
        }
    }

    /// How many batches of more than one plan committed, and how many plans they held.
    var batchCounts: (batches: Int, plans: Int) {
        batched.withLock { $0 }
    }

    /// Whether a drain is committing, and how many plans wait for the next batch (for tests).
    var pending: (draining: Bool, waiting: Int) {
        batcher.pending
    }

    /// The waiting plans to commit together, in arrival order: the first, and after it
    /// (``batchLimit`` in all) those touching none of the assets of the plans taken or passed
    /// over (a plan that isn't batchable ends the batch).
    private static func batch(of waiting: [ChangePlan]) -> IndexSet {
        guard var touched = waiting.first?.batchableAssets else { return [0] }
        // Concurrent requests have no order of their own: a plan may go ahead of one that
        // waits for a later batch, unless they touch an asset in common (or the one left
        // is not batchable: it may touch anything).
        var taken: IndexSet = [0]
        var passedOver = Set<String>()
        for (index, plan) in waiting.enumerated().dropFirst() {
            guard taken.count < batchLimit, let assets = plan.batchableAssets else { break }
            if touched.isDisjoint(with: assets) && passedOver.isDisjoint(with: assets) {
                touched.formUnion(assets)
                taken.insert(index)
            } else {
                passedOver.formUnion(assets)
            }
        }
        return taken
    }

    /// Commits `plans` in one change block; when that fails, each on its own.
    private static func commit(_ plans: [ChangePlan], to library: PHPhotoLibrary) -> [Result<String, any Error>] {
        if plans.count > 1 {
            let blocks = plans.map(\.block)
            do {
                let token = try library.performChangesAndWaitForToken { for block in blocks { block() } }.stringValue
                return plans.map { _ in .success(token) }
            } catch {
                // Nothing of the batch committed: each plan again, for its own answer.
            }
        }
        return plans.map { plan in
            Result { try library.performChangesAndWaitForToken(plan.block).stringValue }
        }
    }
}
