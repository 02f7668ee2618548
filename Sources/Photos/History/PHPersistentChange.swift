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
    ///
    /// - Note: Linux: in a person's library (``PHPhotoLibrary/library(forPerson:)``) the
    ///   details hold that person's own objects, and the objects of others that the person
    ///   sees when the details are read (the shared albums they are a member of and those
    ///   albums' photos, the photos a partner shares with them), as updated when they only
    ///   joined an album. Another person's object that the person no longer sees (deleted,
    ///   removed from a shared album, an album they left) is not listed: the shared album it
    ///   left is listed as updated. Nothing of what others keep to themselves is listed.
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
        let ofThisType = objects.filter { $0.entity == objectType.rawValue }
        return try library.personID == nil ? details(ofThisType, objectType) : personDetails(ofThisType, objectType)
    }

    /// The details of the whole library's change.
    private func details(_ objects: [ObjectChange], _ objectType: PHObjectType) -> PHPersistentObjectChangeDetails {
        var details = PHPersistentObjectChangeDetails(objectType: objectType)
        for object in objects {
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

    /// The details a person's library gives: their own objects' changes, and the changes of
    /// others' objects they see now.
    private func personDetails(_ objects: [ObjectChange], _ objectType: PHObjectType) throws -> PHPersistentObjectChangeDetails {
        let person = library.personID
        let libraryOwner: Int64?
        do { libraryOwner = try library.store.people.ownerID() } catch { throw PHPhotosError(error) }
        let isMine = { (object: ObjectChange) in object.ownerID.map { $0 == person } ?? (person == libraryOwner) }
        var details = self.details(objects.filter(isMine), objectType)
        let others = objects.filter { !isMine($0) && $0.isVisible }
        guard !others.isEmpty, objectType != .collectionList else { return details }
        let identifier = { (object: ObjectChange) in
            objectType == .asset ? LocalIdentifier.asset(object.uuid) : LocalIdentifier.collection(object.uuid, isList: false)
        }
        let identifiers = others.map(identifier)
        let seen: Set<String> = library.withCurrent {
            if objectType == .asset {
                let options = PHFetchOptions()
                options.includeHiddenAssets = true
                return Set(PHAsset.fetchAssets(withLocalIdentifiers: identifiers, options: options).map(\.localIdentifier))
            }
            return Set(PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: identifiers, options: nil).map(\.localIdentifier))
        }
        for object in others where seen.contains(identifier(object)) {
            switch object.kind {
            case .inserted: details.insertedLocalIdentifiers.insert(identifier(object))
            // Another's photo that joined an album: it may have just come into view.
            case .updated, .touched: details.updatedLocalIdentifiers.insert(identifier(object))
            case .deleted: break
            }
        }
        return details
    }

    /// Whether the change holds anything for its library (a person's library skips the changes
    /// of others' objects they don't see).
    var isEmpty: Bool {
        get throws {
            try [PHObjectType.asset, .assetCollection, .collectionList].allSatisfy { type in
                let details = try changeDetails(for: type)
                return details.insertedLocalIdentifiers.isEmpty && details.updatedLocalIdentifiers.isEmpty
                    && details.deletedLocalIdentifiers.isEmpty
            }
        }
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
