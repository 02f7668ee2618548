public import Foundation
import PhotosStore

/// A request to create, delete, rename or re-order a user album, made inside a change block.
///
/// Index-based methods take indexes into the album's assets as the `assets` fetch result
/// given to ``init(for:assets:)`` shows them, else as `PHAsset.fetchAssets(in:options: nil)`
/// does. Out-of-range indexes make the change block fail with
/// ``PHPhotosError/Code/changeNotSupported`` (Apple raises `NSRangeException` at the call).
public final class PHAssetCollectionChangeRequest: PHChangeRequest, ChangeContributing {
    private let uuid: String
    private let isNew: Bool
    private let view: [String]?
    private var newTitle: String?
    private var operations: [MembershipEdit.Operation] = []
    private let originalTitle: String
    /// A new album's subtype: regular, or shared (``PHAssetCollectionSubtype/albumCloudShared``).
    private var subtype = PHAssetCollectionSubtype.albumRegular
    /// Changes to who a shared album is shared with, in order.
    private var sharing: [SharingEdit.Action] = []

    private init(context: ChangeContext, uuid: String, isNew: Bool, title: String, view: [String]?) {
        self.uuid = uuid
        self.isNew = isNew
        self.view = view
        self.originalTitle = title
        super.init(context: context)
        if isNew { newTitle = title }
        context.register(self)
    }

    /// A request to create an album with this title.
    public class func creationRequestForAssetCollection(withTitle title: String) -> PHAssetCollectionChangeRequest {
        let context = ChangeContext.require("creationRequestForAssetCollection(withTitle:)")
        return PHAssetCollectionChangeRequest(context: context, uuid: UUID().uuidString, isNew: true, title: title, view: [])
    }

    /// A request to create a shared album (``PHAssetCollectionSubtype/albumCloudShared``) with
    /// this title, owned by the library's person; ``addMember(_:role:)`` shares it.
    ///
    /// - Note: Linux addition: on Apple's platforms shared albums are made in the Photos app and
    ///   live in iCloud. Here they join the people of one library (``PHLibraryPerson``): its
    ///   members see it and its photos in their own libraries; contributors add their own
    ///   photos, which stay theirs; only its owner renames it, shares it or ends it
    ///   (``deleteAssetCollections(_:)``), and only the owner of a photo, or of the album,
    ///   removes it from the album.
    public class func creationRequestForSharedAlbum(withTitle title: String) -> PHAssetCollectionChangeRequest {
        let context = ChangeContext.require("creationRequestForSharedAlbum(withTitle:)")
        let request = PHAssetCollectionChangeRequest(context: context, uuid: UUID().uuidString, isNew: true, title: title, view: [])
        request.subtype = .albumCloudShared
        return request
    }

    /// Shares the album (a shared one the library's person owns) with a person, by name or
    /// `pe_` identifier, as a viewer or a contributor; a member already gets the new role. The
    /// block fails with ``PHPhotosError/Code/changeNotSupported`` for an album that isn't
    /// shared or isn't theirs.
    ///
    /// - Note: Linux addition.
    public func addMember(_ person: String, role: PHSharedAlbumRole) {
        requireOpen("addMember(_:role:)")
        sharing.append(.share(person: person, role: role.storedValue))
    }

    /// Ends a person's membership of the album (its owner only).
    ///
    /// - Note: Linux addition.
    public func removeMember(_ person: String) {
        requireOpen("removeMember(_:)")
        sharing.append(.unshare(person: person))
    }

    /// The library's person leaves the album, shared with them; the photos they added stay in
    /// it, theirs.
    ///
    /// - Note: Linux addition.
    public func leaveSharedAlbum() {
        requireOpen("leaveSharedAlbum()")
        sharing.append(.leave)
    }

    /// A placeholder for the album a creation request makes.
    public var placeholderForCreatedAssetCollection: PHObjectPlaceholder {
        PHObjectPlaceholder(localIdentifier: LocalIdentifier.collection(uuid, isList: false))
    }

    /// Deletes albums (their assets stay in the library). Smart albums and moments can't be
    /// deleted: the block fails with `.changeNotSupported`.
    public class func deleteAssetCollections(_ assetCollections: any NSFastEnumeration) {
        let context = ChangeContext.require("deleteAssetCollections(_:)")
        let uuids = assetCollections.photoObjects("deleteAssetCollections(_:)").map { object in
            guard let uuid = LocalIdentifier.collectionUUID(object.localIdentifier, isList: false) else {
                fatalError("deleteAssetCollections(_:): \(object) is not an asset collection")
            }
            return uuid
        }
        context.register(CollectionDeletion(uuids: uuids))
    }

    /// A request to change an album; `nil` for smart albums, moments and transient collections.
    public convenience init?(for assetCollection: PHAssetCollection) {
        self.init(for: assetCollection, assets: nil)
    }

    /// A request to change an album whose index-based edits refer to `assets`, the album's
    /// contents as the caller shows them; `nil` for albums that can't be edited.
    public convenience init?(for assetCollection: PHAssetCollection, assets: PHFetchResult<PHAsset>?) {
        let context = ChangeContext.require("PHAssetCollectionChangeRequest(for:)")
        guard assetCollection.isUserAlbum, let record = assetCollection.record else { return nil }
        let view = assets.map { result in result.objects(at: IndexSet(integersIn: 0..<result.count)).map(\.uuid) }
        self.init(context: context, uuid: record.uuid, isNew: false, title: record.title ?? "", view: view)
    }

    /// The title to save.
    public var title: String {
        get { newTitle ?? originalTitle }
        set {
            requireOpen("PHAssetCollectionChangeRequest.title")
            newTitle = newValue
        }
    }

    /// Appends assets (or placeholders of assets created in this block) to the album.
    public func addAssets(_ assets: any NSFastEnumeration) {
        requireOpen("addAssets(_:)")
        operations.append(.add(Self.uuids(assets, "addAssets(_:)")))
    }

    /// Inserts assets so that each lands at its index.
    public func insertAssets(_ assets: any NSFastEnumeration, at indexes: IndexSet) {
        requireOpen("insertAssets(_:at:)")
        operations.append(.insert(Self.uuids(assets, "insertAssets(_:at:)"), at: Array(indexes)))
    }

    /// Removes assets from the album; they stay in the library.
    public func removeAssets(_ assets: any NSFastEnumeration) {
        requireOpen("removeAssets(_:)")
        operations.append(.remove(Self.uuids(assets, "removeAssets(_:)")))
    }

    public func removeAssets(at indexes: IndexSet) {
        requireOpen("removeAssets(at:)")
        operations.append(.removeAt(Array(indexes)))
    }

    public func replaceAssets(at indexes: IndexSet, withAssets assets: any NSFastEnumeration) {
        requireOpen("replaceAssets(at:withAssets:)")
        operations.append(.replace(at: Array(indexes), with: Self.uuids(assets, "replaceAssets(at:withAssets:)")))
    }

    /// Moves the assets at `fromIndexes` so they start at `toIndex` of the list without them.
    public func moveAssets(at fromIndexes: IndexSet, to toIndex: Int) {
        requireOpen("moveAssets(at:to:)")
        operations.append(.move(from: Array(fromIndexes), to: toIndex))
    }

    private static func uuids(_ assets: any NSFastEnumeration, _ api: String) -> [String] {
        PHAssetChangeRequest.assetUUIDs(assets, api: api)
    }

    func contribute(to changes: inout StoreChangeSet, staging: StagingArea) throws(PHPhotosError) {
        if isNew {
            changes.newCollections.append(
                NewCollection(
                    uuid: uuid, isList: false, type: PHAssetCollectionType.album.rawValue,
                    subtype: subtype.rawValue, title: newTitle ?? originalTitle))
        } else if let newTitle, newTitle != originalTitle {
            changes.collectionEdits[uuid] = CollectionEdit(title: newTitle)
        }
        if !operations.isEmpty {
            changes.membershipEdits.append(MembershipEdit(container: .album(uuid), view: isNew ? nil : view, operations: operations))
        }
        changes.sharingEdits += sharing.map { SharingEdit(album: uuid, action: $0) }
    }
}

/// `deleteAssetCollections(_:)` and `deleteCollectionLists(_:)`.
final class CollectionDeletion: ChangeContributing {
    let uuids: [String]

    init(uuids: [String]) {
        self.uuids = uuids
    }

    func contribute(to changes: inout StoreChangeSet, staging: StagingArea) throws(PHPhotosError) {
        changes.deletedCollections += uuids
    }
}
