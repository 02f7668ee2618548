public import Foundation
import PhotosStore
import PhotosLocking

/// What one delivered change did to the library, asked about object by object and fetch
/// result by fetch result.
///
/// During the observers' callbacks every answer describes the same state of the library: the
/// change holds a snapshot taken when it was delivered, so details stay consistent however
/// many changes commit while the observer works.
///
/// Linux notes: once every observer's `photoLibraryDidChange` has returned, a `PHChange` lets
/// its snapshot go (an open snapshot keeps SQLite from recycling its log) and answers from the
/// library as it is then. Its details stay exact for the fetch result you pass, and may include the later
/// changes; the next change then reports only what is left.
public final class PHChange: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable apart from the snapshot and the details cache, which
    // are behind Mutexes.
    let library: PHPhotoLibrary
    private let heldSnapshot: Mutex<StoreSnapshot?>
    /// Folded journal entries by UUID, from the position delivered before to ``position``;
    /// `nil` when the history no longer reaches back that far.
    private let objects: [String: ObjectChange]?
    private let details = Mutex<[ObjectIdentifier: (result: AnyObject, details: AnyObject?)]>([:])

    init(library: PHPhotoLibrary, snapshot: StoreSnapshot, position: Int64, objectChanges: [ObjectChange]?) {
        self.library = library
        heldSnapshot = Mutex(snapshot)
        self.position = position
        objects = objectChanges.map { changes in
            Dictionary(changes.map { ($0.uuid, $0) }, uniquingKeysWith: { first, _ in first })
        }
        super.init()
    }

    /// The library position after this change.
    let position: Int64

    /// The snapshot to answer from: the change's own while it is the newest, else a new one.
    var snapshot: StoreSnapshot {
        get throws {
            if let held = heldSnapshot.withLock({ $0 }) { return held }
            return try library.store.makeSnapshot()
        }
    }

    /// Lets the snapshot go; called when a newer change is delivered.
    func releaseSnapshot() {
        let released = heldSnapshot.withLock { held in
            defer { held = nil }
            return held
        }
        _ = released  // closed here, outside the lock
    }

    // MARK: - Objects

    /// What the change did to `object`, or `nil` if the change didn't affect it.
    ///
    /// `objectAfterChanges` is the object as the change left it (`nil` when deleted; an
    /// asset moved to Recently Deleted counts as deleted). An asset that only joined or left
    /// an album is not affected: its own properties didn't change.
    public func changeDetails<T: PHObject>(for object: T) -> PHObjectChangeDetails<T>? {
        guard let (uuid, isAsset) = Self.uuid(of: object) else { return nil }
        let change: ObjectChange
        if let objects {
            guard let found = objects[uuid], found.kind != .touched else { return nil }
            change = found
        } else {
            // The history was pruned: compare with the library as it is.
            change = ObjectChange(
                entity: 0, objectID: 0, uuid: uuid, wasVisible: true, isVisible: true, flags: JournalFlags.updated)
        }
        guard let snapshot = answeringSnapshot(for: object.localIdentifier) else { return nil }
        // Unread (logged), the object reads as deleted (no object after the change).
        let after = library.logger.attempt(.warning, "read \(object.localIdentifier) for its change details") {
            try readObject(uuid: uuid, isAsset: isAsset, in: snapshot)
        }
        let visibleAfter = after.map { object in
            (object as? PHAsset).map { $0.record.trashedDate == nil } ?? true
        } ?? false
        let afterObject = visibleAfter ? after as? T : nil
        return PHObjectChangeDetails(
            before: object, after: afterObject, contentChanged: change.contentChanged,
            wasDeleted: afterObject == nil)
    }

    /// Linux addition: the local identifiers of every asset the change touched in any way
    /// (inserted, deleted, updated, hidden or not, or only moved between albums or moments),
    /// from the change's journal entries, so a cache keyed by asset can forget what changed
    /// without holding a fetch of every asset (O(changes), where that fetch and its details
    /// are O(library)). `nil` when the history no longer reaches back to the previous change:
    /// any asset may have changed.
    package var touchedAssetIdentifiers: Set<String>? {
        objects.map { objects in
            Set(objects.values.lazy.filter { $0.entity == JournalEntity.asset }.map { LocalIdentifier.asset($0.uuid) })
        }
    }

    /// Linux addition: whether the change may have given derived files work to do: an asset
    /// inserted (imported, restored, shown) or its pixels changed (edited, reverted), from
    /// the change's journal entries. `true` when the history no longer reaches back to the
    /// previous change. A favorite or a title is `false`: background workers woken by changes
    /// (video renditions) need not look for work then.
    package var mayAddAssetWork: Bool {
        guard let objects else { return true }
        return objects.values.contains { change in
            change.entity == JournalEntity.asset && (change.kind == .inserted || change.contentChanged)
        }
    }

    /// ``snapshot``, or nil when a new one can't be taken (logged: the details asked for are
    /// then nil, as for a change that didn't affect `subject`).
    private func answeringSnapshot(for subject: @autoclosure () -> String) -> StoreSnapshot? {
        library.logger.attempt(.warning, "take a snapshot for the change details of \(subject())") { try snapshot }
    }

    private static func uuid(of object: PHObject) -> (String, isAsset: Bool)? {
        if let uuid = LocalIdentifier.assetUUID(object.localIdentifier) { return (uuid, true) }
        if let uuid = LocalIdentifier.collectionUUID(object.localIdentifier, isList: nil) { return (uuid, false) }
        return nil
    }

    private func readObject(uuid: String, isAsset: Bool, in snapshot: StoreSnapshot) throws -> PHObject? {
        if isAsset {
            return try snapshot.assets(uuids: [uuid]).first.map { PHAsset(record: $0, library: library) }
        }
        return try snapshot.collections(uuids: [uuid]).first.map { record in
            record.isList
                ? PHCollectionList(record: record, library: library) as PHObject
                : PHAssetCollection(record: record, library: library)
        }
    }

    // MARK: - Fetch results

    /// How the change affects `fetchResult`, or `nil` if it doesn't.
    ///
    /// The details take the result you pass, however old, to the state of this change: pass
    /// the result you display, then keep `fetchResultAfterChanges` for the next change. Asking
    /// twice for one result returns the same details.
    public func changeDetails<T: PHObject>(for fetchResult: PHFetchResult<T>) -> PHFetchResultChangeDetails<T>? {
        let key = ObjectIdentifier(fetchResult)
        if let cached = details.withLock({ $0[key] }) {
            return cached.details as? PHFetchResultChangeDetails<T>
        }
        let computed = computeDetails(for: fetchResult)
        details.withLock { $0[key] = (fetchResult, computed) }
        return computed
    }

    private func computeDetails<T: PHObject>(for result: PHFetchResult<T>) -> PHFetchResultChangeDetails<T>? {
        guard let snapshot = answeringSnapshot(for: "a fetch result") else { return nil }
        let diff: FetchDiff?
        let after: FetchStorage
        switch (result.query, result.storage) {
        case (.assets(let query, _), .assets(let ids, let owner)) where owner === library:
            do { diff = try snapshot.diff(query, before: ids, since: result.diffBase) } catch { return detailsFailed(error) }
            after = .assets(ids: diff?.after ?? ids, library: library)
        case (.collections(let query, _, _), .collections(let ids, let owner)) where owner === library:
            do { diff = try snapshot.diff(query, before: ids, since: result.diffBase) } catch { return detailsFailed(error) }
            after = .collections(ids: diff?.after ?? ids, library: library)
        case (_, .objects(let held)):
            guard let (found, objects) = diffHeldObjects(held, in: snapshot) else { return nil }
            diff = found
            after = .objects(objects)
        default:
            return nil
        }
        let position: Int64
        do { position = try snapshot.position } catch { return detailsFailed(error) }
        guard let diff else {
            // Read without error and nothing changed: later changes can start from here.
            result.markUnchanged(through: position)
            return nil
        }
        let afterResult = PHFetchResult<T>(storage: after, query: result.query, position: position)
        return PHFetchResultChangeDetails(
            before: result, after: afterResult, diff: diff, wantsIncremental: result.query.wantsIncrementalChangeDetails)
    }

    /// No details for a fetch result whose diff can't be read: logged, and nil (as for a result
    /// the change didn't affect).
    private func detailsFailed<T: PHObject>(_ error: any Error) -> PHFetchResultChangeDetails<T>? {
        library.logger.failed(.warning, "compute the change details of a fetch result", error)
        return nil
    }

    /// Objects held in memory (transient collection lists): deleted ones go, changed ones are
    /// read again; nothing is inserted.
    private func diffHeldObjects(_ held: [PHObject], in snapshot: StoreSnapshot) -> (FetchDiff, [PHObject])? {
        guard let objects else { return nil }
        var diff = FetchDiff(after: [])
        var kept: [PHObject] = []
        for (index, object) in held.enumerated() {
            guard let (uuid, isAsset) = Self.uuid(of: object), let change = objects[uuid] else {
                kept.append(object)
                continue
            }
            switch change.kind {
            case .deleted:
                diff.removed.insert(index)
            case .updated:
                diff.changed.insert(kept.count)
                // Unread (logged), the object is kept as it was held.
                let read = library.logger.attempt(.warning, "read \(object.localIdentifier) for a fetch result's change details") {
                    try readObject(uuid: uuid, isAsset: isAsset, in: snapshot)
                }
                kept.append(read ?? object)
            case .inserted, .touched:
                kept.append(object)
            }
        }
        return diff.isEmpty ? nil : (diff, kept)
    }
}

extension FetchQuery {
    var wantsIncrementalChangeDetails: Bool {
        switch self {
        case .assets(_, let options), .collections(_, _, let options), .objects(_, let options):
            options.wantsIncrementalChangeDetails
        case .empty: true
        }
    }
}
