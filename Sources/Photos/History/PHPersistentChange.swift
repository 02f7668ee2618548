public import Foundation
import PhotosStore

/// The kinds of object persistent history reports.
public enum PHObjectType: Int, Sendable {
    case asset = 1
    case assetCollection = 2
    case collectionList = 3
}

/// The changes after a token, oldest first.
public final class PHPersistentChangeFetchResult: NSObject, Sequence, @unchecked Sendable {
    // @unchecked Sendable: immutable.
    private let changes: [PHPersistentChange]

    init(changes: [PHPersistentChange]) {
        self.changes = changes
        super.init()
    }

    /// Calls `block` with each change in order until it sets `stop`.
    public func enumerateChanges(_ block: (PHPersistentChange, UnsafeMutablePointer<ObjCBool>) -> Void) {
        var stop: ObjCBool = false
        for change in changes {
            block(change, &stop)
            if stop.boolValue { return }
        }
    }

    public func makeIterator() -> IndexingIterator<[PHPersistentChange]> {
        changes.makeIterator()
    }
}

/// One committed change in the history.
public final class PHPersistentChange: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable.

    /// The token just after this change: fetch from it to get the changes that follow.
    public let changeToken: PHPersistentChangeToken
    let library: PHPhotoLibrary

    init(changeToken: PHPersistentChangeToken, library: PHPhotoLibrary) {
        self.changeToken = changeToken
        self.library = library
        super.init()
    }

    /// The objects of one kind this change inserted, updated and deleted.
    ///
    /// Throws ``PHPhotosError/Code/persistentChangeDetailsUnavailable`` when the change has
    /// since left the bounded history.
    public func changeDetails(for objectType: PHObjectType) throws -> PHPersistentObjectChangeDetails {
        let objects: [ObjectChange]?
        do {
            objects = try library.store.objectChanges(inChange: changeToken.position)
        } catch {
            throw PHPhotosError(error)
        }
        guard let objects else {
            throw PHPhotosError(
                .persistentChangeDetailsUnavailable,
                "Change \(changeToken.position) is no longer in the library's history")
        }
        var details = PHPersistentObjectChangeDetails(objectType: objectType)
        for object in objects where object.entity == objectType.rawValue {
            let identifier =
                objectType == .asset
                ? LocalIdentifier.asset(object.uuid)
                : LocalIdentifier.collection(object.uuid, isList: objectType == .collectionList)
            switch object.kind {
            case .inserted: details.insertedLocalIdentifiers.insert(identifier)
            case .updated: details.updatedLocalIdentifiers.insert(identifier)
            case .deleted: details.deletedLocalIdentifiers.insert(identifier)
            case .touched:
                // A collection whose members changed was updated; an asset that only joined or
                // left an album was not.
                if objectType != .asset && object.wasVisible && object.isVisible {
                    details.updatedLocalIdentifiers.insert(identifier)
                }
            }
        }
        return details
    }

    public override var description: String { "<PHPersistentChange: \(changeToken.position)>" }
}

/// What one change did to the objects of one kind, by local identifier.
public struct PHPersistentObjectChangeDetails: Sendable {
    public let objectType: PHObjectType
    public internal(set) var insertedLocalIdentifiers: Set<String> = []
    public internal(set) var updatedLocalIdentifiers: Set<String> = []
    public internal(set) var deletedLocalIdentifiers: Set<String> = []

    init(objectType: PHObjectType) {
        self.objectType = objectType
    }
}
