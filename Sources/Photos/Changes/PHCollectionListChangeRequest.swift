public import Foundation
import PhotosStore

/// A request to create, delete, rename or re-order a folder (or the top level of the user's
/// albums and folders), made inside a change block.
///
/// A collection sits in at most one folder: adding it to a folder moves it there, and
/// removing it from a folder moves it to the top level. Putting a folder inside itself makes
/// the block fail with `.changeNotSupported`.
public final class PHCollectionListChangeRequest: PHChangeRequest, ChangeContributing {
    private enum Target {
        case folder(uuid: String, isNew: Bool)
        case topLevel
    }

    private let target: Target
    private let view: [String]?
    private var newTitle: String?
    private let originalTitle: String
    private var operations: [MembershipEdit.Operation] = []

    private init(context: ChangeContext, target: Target, title: String, view: [String]?) {
        self.target = target
        self.view = view
        self.originalTitle = title
        super.init(context: context)
        if case .folder(_, true) = target { newTitle = title }
        context.register(self)
    }

    /// A request to create a folder with this title.
    public class func creationRequestForCollectionList(withTitle title: String) -> PHCollectionListChangeRequest {
        let context = ChangeContext.require("creationRequestForCollectionList(withTitle:)")
        return PHCollectionListChangeRequest(
            context: context, target: .folder(uuid: UUID().uuidString, isNew: true), title: title, view: [])
    }

    /// A placeholder for the folder a creation request makes.
    public var placeholderForCreatedCollectionList: PHObjectPlaceholder {
        guard case .folder(let uuid, _) = target else {
            fatalError("placeholderForCreatedCollectionList: this request changes the top level")
        }
        return PHObjectPlaceholder(localIdentifier: LocalIdentifier.collection(uuid, isList: true))
    }

    /// Deletes folders and everything in them, as Photos does.
    public class func deleteCollectionLists(_ collectionLists: any NSFastEnumeration) {
        let context = ChangeContext.require("deleteCollectionLists(_:)")
        let uuids = collectionLists.photoObjects("deleteCollectionLists(_:)").map { object in
            guard let uuid = LocalIdentifier.collectionUUID(object.localIdentifier, isList: true) else {
                fatalError("deleteCollectionLists(_:): \(object) is not a collection list")
            }
            return uuid
        }
        context.register(CollectionDeletion(uuids: uuids))
    }

    /// A request to change a folder; `nil` for moment lists and transient lists.
    public convenience init?(for collectionList: PHCollectionList) {
        self.init(for: collectionList, childCollections: nil)
    }

    /// A request whose index-based edits refer to `childCollections`, the folder's children
    /// as the caller shows them.
    public convenience init?(for collectionList: PHCollectionList, childCollections: PHFetchResult<PHCollection>?) {
        let context = ChangeContext.require("PHCollectionListChangeRequest(for:)")
        guard collectionList.isUserFolder, let record = collectionList.record else { return nil }
        let view = childCollections.map { Self.uuids(of: $0) }
        self.init(context: context, target: .folder(uuid: record.uuid, isNew: false), title: record.title ?? "", view: view)
    }

    /// A request to re-order or change the top level of the user's albums and folders.
    public convenience init?(forTopLevelCollectionListUserCollections childCollections: PHFetchResult<PHCollection>?) {
        let context = ChangeContext.require("PHCollectionListChangeRequest(forTopLevelCollectionListUserCollections:)")
        self.init(context: context, target: .topLevel, title: "", view: childCollections.map { Self.uuids(of: $0) })
    }

    private static func uuids(of result: PHFetchResult<PHCollection>) -> [String] {
        result.objects(at: IndexSet(integersIn: 0..<result.count)).compactMap { $0.record?.uuid }
    }

    public var title: String {
        get { newTitle ?? originalTitle }
        set {
            requireOpen("PHCollectionListChangeRequest.title")
            newTitle = newValue
        }
    }

    public func addChildCollections(_ collections: any NSFastEnumeration) {
        requireOpen("addChildCollections(_:)")
        operations.append(.add(Self.uuids(collections, "addChildCollections(_:)")))
    }

    public func insertChildCollections(_ collections: any NSFastEnumeration, at indexes: IndexSet) {
        requireOpen("insertChildCollections(_:at:)")
        operations.append(.insert(Self.uuids(collections, "insertChildCollections(_:at:)"), at: Array(indexes)))
    }

    public func removeChildCollections(_ collections: any NSFastEnumeration) {
        requireOpen("removeChildCollections(_:)")
        operations.append(.remove(Self.uuids(collections, "removeChildCollections(_:)")))
    }

    public func removeChildCollections(at indexes: IndexSet) {
        requireOpen("removeChildCollections(at:)")
        operations.append(.removeAt(Array(indexes)))
    }

    public func replaceChildCollections(at indexes: IndexSet, withChildCollections collections: any NSFastEnumeration) {
        requireOpen("replaceChildCollections(at:withChildCollections:)")
        operations.append(
            .replace(at: Array(indexes), with: Self.uuids(collections, "replaceChildCollections(at:withChildCollections:)")))
    }

    public func moveChildCollections(at indexes: IndexSet, to toIndex: Int) {
        requireOpen("moveChildCollections(at:to:)")
        operations.append(.move(from: Array(indexes), to: toIndex))
    }

    private static func uuids(_ collections: any NSFastEnumeration, _ api: String) -> [String] {
        collections.photoObjects(api).map { object in
            guard let uuid = LocalIdentifier.collectionUUID(object.localIdentifier, isList: nil) else {
                fatalError("\(api): \(object) is not a collection")
            }
            return uuid
        }
    }

    func contribute(to changes: inout StoreChangeSet, staging: StagingArea) throws(PHPhotosError) {
        switch target {
        case .folder(let uuid, let isNew):
            if isNew {
                changes.newCollections.append(
                    NewCollection(
                        uuid: uuid, isList: true, type: PHCollectionListType.folder.rawValue,
                        subtype: PHCollectionListSubtype.regularFolder.rawValue, title: newTitle ?? originalTitle))
            } else if let newTitle, newTitle != originalTitle {
                changes.collectionEdits[uuid] = CollectionEdit(title: newTitle)
            }
            if !operations.isEmpty {
                changes.membershipEdits.append(
                    MembershipEdit(container: .folder(uuid), view: isNew ? nil : view, operations: operations))
            }
        case .topLevel:
            if !operations.isEmpty {
                changes.membershipEdits.append(MembershipEdit(container: .topLevel, view: view, operations: operations))
            }
        }
    }
}
