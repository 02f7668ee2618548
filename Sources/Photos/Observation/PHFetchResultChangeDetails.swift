public import Foundation
import PhotosStore

/// How a change affected a fetch result, in the form a collection view's batch update takes.
///
/// Apply it in Apple's documented order, the one that can't crash:
///
/// ```swift
/// collectionView.performBatchUpdates {
///     if let removed = details.removedIndexes { collectionView.deleteItems(at: paths(removed)) }
///     if let inserted = details.insertedIndexes { collectionView.insertItems(at: paths(inserted)) }
///     details.enumerateMoves { from, to in collectionView.moveItem(at: path(from), to: path(to)) }
/// }
/// if let changed = details.changedIndexes { collectionView.reloadItems(at: paths(changed)) }
/// ```
///
/// ``removedIndexes`` and the `fromIndex` of moves are indexes into
/// ``fetchResultBeforeChanges``; ``insertedIndexes``, ``changedIndexes`` and the `toIndex` of
/// moves are indexes into ``fetchResultAfterChanges``. Reloading the changed indexes inside
/// the batch (the "RICE" order some tutorials teach) mixes the two states and crashes when
/// a change also removes or inserts.
///
/// Linux notes: ``hasIncrementalChanges`` is false when the fetch options set
/// `wantsIncrementalChangeDetails` to false, when more than ``maximumIncrementalChanges``
/// indexes would be reported (reload instead), or when the change history no longer reaches
/// back to when the result was fetched.
public final class PHFetchResultChangeDetails<ObjectType: PHObject>: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable.

    /// Above this many removed, inserted, changed and moved indexes together, details are not
    /// incremental: reloading is cheaper than animating.
    public static var maximumIncrementalChanges: Int { 50_000 }

    public let fetchResultBeforeChanges: PHFetchResult<ObjectType>
    public let fetchResultAfterChanges: PHFetchResult<ObjectType>
    public let hasIncrementalChanges: Bool
    private let diff: FetchDiff

    init(
        before: PHFetchResult<ObjectType>, after: PHFetchResult<ObjectType>, diff: FetchDiff,
        wantsIncremental: Bool
    ) {
        fetchResultBeforeChanges = before
        fetchResultAfterChanges = after
        self.diff = diff
        hasIncrementalChanges =
            wantsIncremental && diff.isIncremental && diff.size <= Self.maximumIncrementalChanges
        super.init()
    }

    /// Diffs two fetch results: removals and insertions by identifier, the fewest moves, and
    /// `changedObjects` (those in both results) as changed.
    public convenience init(
        from fromResult: PHFetchResult<ObjectType>, to toResult: PHFetchResult<ObjectType>,
        changedObjects: [ObjectType]
    ) {
        let changedIdentifiers = Set(changedObjects.map(\.localIdentifier))
        var diff: FetchDiff
        switch (fromResult.storage, toResult.storage) {
        case (.assets(let before, let a), .assets(let after, let b)) where a === b,
            (.collections(let before, let a), .collections(let after, let b)) where a === b:
            let changedIDs = Set(
                changedObjects.compactMap { ($0 as? PHAsset)?.rowID ?? ($0 as? PHCollection)?.rowID })
            diff = FetchDiff(after: after)
            (diff.removed, diff.inserted, diff.changed, diff.moves) = IdentifierDiff.diff(
                before: before, after: after, isChanged: changedIDs.contains)
        default:
            let before = (0..<fromResult.count).map { (fromResult.object(at: $0) as PHObject).localIdentifier }
            let after = (0..<toResult.count).map { (toResult.object(at: $0) as PHObject).localIdentifier }
            diff = FetchDiff(after: [])
            (diff.removed, diff.inserted, diff.changed, diff.moves) = IdentifierDiff.diff(
                before: before, after: after, isChanged: changedIdentifiers.contains)
        }
        self.init(before: fromResult, after: toResult, diff: diff, wantsIncremental: true)
    }

    /// Indexes, in the old result, of the objects no longer in the result.
    public var removedIndexes: IndexSet? { hasIncrementalChanges ? diff.removed : nil }
    public var removedObjects: [ObjectType] {
        guard let removedIndexes else { return [] }
        return fetchResultBeforeChanges.objects(at: removedIndexes)
    }

    /// Indexes, in the new result, of the objects new to the result.
    public var insertedIndexes: IndexSet? { hasIncrementalChanges ? diff.inserted : nil }
    public var insertedObjects: [ObjectType] {
        guard let insertedIndexes else { return [] }
        return fetchResultAfterChanges.objects(at: insertedIndexes)
    }

    /// Indexes, in the new result, of objects whose properties changed. Reload them after
    /// the batch update, not inside it.
    public var changedIndexes: IndexSet? { hasIncrementalChanges ? diff.changed : nil }
    public var changedObjects: [ObjectType] {
        guard let changedIndexes else { return [] }
        return fetchResultAfterChanges.objects(at: changedIndexes)
    }

    /// Whether objects changed places.
    public var hasMoves: Bool { hasIncrementalChanges && !diff.moves.isEmpty }

    /// Calls `handler` with each move: the object's index in the old result and its index in
    /// the new one, in order of new index.
    public func enumerateMoves(_ handler: (Int, Int) -> Void) {
        guard hasIncrementalChanges else { return }
        for move in diff.moves { handler(move.from, move.to) }
    }

    public override var description: String {
        "<PHFetchResultChangeDetails: \(fetchResultBeforeChanges.count) → \(fetchResultAfterChanges.count), "
            + "removed \(diff.removed.count), inserted \(diff.inserted.count), changed \(diff.changed.count), "
            + "moves \(diff.moves.count)\(hasIncrementalChanges ? "" : ", not incremental")>"
    }
}
