import BenchmarkSupport
import Foundation
import Photos
import Synchronization

/// The observer under measure: it holds one fetch result, and on each change computes the
/// details for it through the public API, keeps the after-result, and records when.
final class ChangeProbe: PHPhotoLibraryChangeObserver, Sendable {
    /// One call of `photoLibraryDidChange(_:)`.
    struct Delivery: Sendable {
        /// Monotonic ns when the call began and when the details were in hand.
        var arrived: UInt64
        var done: UInt64
        /// `done - arrived`: the diff itself.
        var detailsNanos: UInt64 { done - arrived }
        var removed = 0, inserted = 0, changed = 0, moves = 0
        var incremental = true
        var countAfter = 0
        var affected = false
    }

    private struct State {
        var held: PHFetchResult<PHAsset>
        var deliveries: [Delivery] = []
    }

    private let state: Mutex<State>
    private let signal = DispatchSemaphore(value: 0)

    init(holding result: PHFetchResult<PHAsset>) {
        state = Mutex(State(held: result))
    }

    var held: PHFetchResult<PHAsset> { state.withLock { $0.held } }

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        let arrived = monotonicNanos()
        let held = state.withLock { $0.held }
        let details = changeInstance.changeDetails(for: held)
        var delivery = Delivery(arrived: arrived, done: monotonicNanos())
        if let details {
            delivery.affected = true
            delivery.incremental = details.hasIncrementalChanges
            delivery.removed = details.removedIndexes?.count ?? 0
            delivery.inserted = details.insertedIndexes?.count ?? 0
            delivery.changed = details.changedIndexes?.count ?? 0
            var moves = 0
            details.enumerateMoves { _, _ in moves += 1 }
            delivery.moves = moves
            delivery.countAfter = details.fetchResultAfterChanges.count
        }
        state.withLock { state in
            if let details { state.held = details.fetchResultAfterChanges }
            state.deliveries.append(delivery)
        }
        signal.signal()
    }

    /// The next delivery, waiting up to `timeout` seconds.
    func next(timeout: TimeInterval = 10) throws -> Delivery {
        guard signal.wait(timeout: .now() + timeout) == .success else {
            throw BenchmarkFailure("no change delivered within \(timeout) s")
        }
        return state.withLock { $0.deliveries.removeFirst() }
    }
}
