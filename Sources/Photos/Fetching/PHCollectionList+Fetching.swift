import Foundation
import PhotosStore

extension PHCollectionList {
    /// Folders, or moment clusters and years, of a subtype (`.any` for all).
    public class func fetchCollectionLists(
        with type: PHCollectionListType, subtype: PHCollectionListSubtype, options: PHFetchOptions?
    ) -> PHFetchResult<PHCollectionList> {
        PHPhotoLibrary.current.fetchCollections(
            .collectionLists(type: type.rawValue, subtype: subtype.rawValue), entity: .collectionList,
            options: resolveOrTrap(options, for: .collectionList))
    }

    /// Collection lists by local identifier; unknown identifiers are skipped.
    public class func fetchCollectionLists(
        withLocalIdentifiers identifiers: [String], options: PHFetchOptions?
    ) -> PHFetchResult<PHCollectionList> {
        PHPhotoLibrary.current.fetchCollections(
            .uuids(identifiers.compactMap { LocalIdentifier.collectionUUID($0, isList: true) }, lists: true),
            entity: .collectionList, options: resolveOrTrap(options, for: .collectionList))
    }

    /// The folder holding a collection (at most one), or the cluster and year holding a moment.
    public class func fetchCollectionListsContaining(
        _ collection: PHCollection, options: PHFetchOptions?
    ) -> PHFetchResult<PHCollectionList> {
        guard let library = collection.library, let id = collection.rowID else { return .empty() }
        return library.fetchCollections(
            .containingCollection(id, listSubtype: nil), entity: .collectionList,
            options: resolveOrTrap(options, for: .collectionList))
    }

    /// The moment cluster or year holding a moment.
    @available(*, deprecated, message: "Moments are deprecated on Apple's platforms")
    public class func fetchMomentLists(
        with momentListSubtype: PHCollectionListSubtype, containingMoment moment: PHAssetCollection, options: PHFetchOptions?
    ) -> PHFetchResult<PHCollectionList> {
        guard let library = moment.library, let id = moment.rowID else { return .empty() }
        let subtype = momentListSubtype == .any ? nil : momentListSubtype.rawValue
        return library.fetchCollections(
            .containingCollection(id, listSubtype: subtype), entity: .collectionList,
            options: resolveOrTrap(options, for: .collectionList))
    }

    /// Every moment cluster, or every year.
    @available(*, deprecated, message: "Moments are deprecated on Apple's platforms")
    public class func fetchMomentLists(
        with momentListSubtype: PHCollectionListSubtype, options: PHFetchOptions?
    ) -> PHFetchResult<PHCollectionList> {
        fetchCollectionLists(with: .momentList, subtype: momentListSubtype, options: options)
    }

    /// A list of these collections, in this order, that is never saved.
    public class func transientCollectionList(with collections: [PHCollection], title: String?) -> PHCollectionList {
        PHCollectionList(transientCollections: collections, title: title)
    }

    /// A transient list of the collections of a fetch result.
    public class func transientCollectionList(
        withCollectionsFetchResult fetchResult: PHFetchResult<PHCollection>, title: String?
    ) -> PHCollectionList {
        PHCollectionList(transientCollections: Array(fetchResult), title: title)
    }
}

extension PHCollection {
    /// The user's albums and folders at the top level, in the user's order.
    public class func fetchTopLevelUserCollections(with options: PHFetchOptions?) -> PHFetchResult<PHCollection> {
        PHPhotoLibrary.current.fetchCollections(
            .topLevelUserCollections, entity: .collection, options: resolveOrTrap(options, for: .collection))
    }

    /// The children of a folder in the folder's order, the moments of a moment list, or the
    /// collections of a transient list.
    public class func fetchCollections(in collectionList: PHCollectionList, options: PHFetchOptions?) -> PHFetchResult<PHCollection> {
        let resolved = resolveOrTrap(options, for: .collection)
        if let collections = collectionList.transientCollections {
            return transientFetch(collections, options: resolved)
        }
        guard let library = collectionList.library, let id = collectionList.rowID else { return .empty() }
        return library.fetchCollections(.children(of: id), entity: .collection, options: resolved)
    }

    private static func transientFetch(_ collections: [PHCollection], options: ResolvedFetchOptions) -> PHFetchResult<PHCollection> {
        if let library = collections.first?.library,
            collections.allSatisfy({ $0.library === library && $0.rowID != nil })
        {
            return library.fetchCollections(
                .ordered(collections.compactMap(\.rowID)), entity: .collection, options: options)
        }
        let kept = InMemoryFetch.apply(options, to: collections)
        return PHFetchResult(storage: .objects(kept), query: .objects(entity: .collection, options: options))
    }
}
