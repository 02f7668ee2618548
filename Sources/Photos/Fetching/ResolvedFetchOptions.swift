import Foundation
import PhotosStore

/// Fetch options checked against the fetched class and frozen: what a fetch result keeps.
struct ResolvedFetchOptions: Sendable, Equatable {
    var filter: StoreFilter?
    var sort: [StoreSort] = []
    /// The parsed predicate, for evaluating in memory (transient collections).
    var predicate: PredicateNode?
    var sortKeys: [SortKey] = []
    var includeHiddenAssets = false
    var includeAllBurstAssets = false
    var sourceTypes = 0
    var fetchLimit = 0
    var wantsIncrementalChangeDetails = true

    static let defaults = ResolvedFetchOptions()
}

extension PHFetchOptions {
    func resolve(for entity: FetchEntity) throws(PHPredicateError) -> ResolvedFetchOptions {
        var resolved = ResolvedFetchOptions()
        if let predicate {
            let node = try predicate.photosPredicateNode()
            resolved.predicate = node
            let format = predicate.photosPredicateFormat ?? node.description
            resolved.filter = try PredicateKeyBinding(entity: entity, format: format).bind(node)
        }
        for descriptor in sortDescriptors ?? [] {
            guard let sortKey = descriptor.photosSortKey(keyPathNames: SortKeyPaths.names) else {
                throw PHPredicateError(
                    message: "Unsupported sort descriptor in fetch options for \(entity.className): it has no key",
                    token: "\(descriptor)", position: 0, format: "\(descriptor)")
            }
            guard case .field(let field, _)? = entity.key(sortKey.key) else {
                throw PHPredicateError(
                    message: "Unsupported sort descriptor in fetch options for \(entity.className): unsupported key",
                    token: sortKey.key, position: 0, format: sortKey.key)
            }
            resolved.sort.append(StoreSort(field, ascending: sortKey.ascending))
            resolved.sortKeys.append(sortKey)
        }
        resolved.includeHiddenAssets = includeHiddenAssets
        resolved.includeAllBurstAssets = includeAllBurstAssets
        resolved.sourceTypes = Int(includeAssetSourceTypes.rawValue)
        resolved.fetchLimit = max(0, fetchLimit)
        resolved.wantsIncrementalChangeDetails = wantsIncrementalChangeDetails
        return resolved
    }
}

/// Resolves fetch options, stopping the process on an unsupported key as Apple's fetches
/// raise `NSInvalidArgumentException`.
func resolveOrTrap(_ options: PHFetchOptions?, for entity: FetchEntity) -> ResolvedFetchOptions {
    guard let options else { return .defaults }
    do {
        return try options.resolve(for: entity)
    } catch {
        fatalError(error.description)
    }
}

/// Key paths clients sort by (`NSSortDescriptor(keyPath: \PHAsset.creationDate, ...)`).
enum SortKeyPaths {
    nonisolated(unsafe) static let names: [AnyKeyPath: String] = [
        \PHAsset.creationDate: "creationDate",
        \PHAsset.modificationDate: "modificationDate",
        \PHAsset.mediaType: "mediaType",
        \PHAsset.mediaSubtypes: "mediaSubtypes",
        \PHAsset.duration: "duration",
        \PHAsset.pixelWidth: "pixelWidth",
        \PHAsset.pixelHeight: "pixelHeight",
        \PHAsset.isFavorite: "isFavorite",
        \PHAsset.isHidden: "isHidden",
        \PHAsset.burstIdentifier: "burstIdentifier",
        \PHObject.localIdentifier: "localIdentifier",
        \PHAsset.localIdentifier: "localIdentifier",
        \PHCollection.localizedTitle: "localizedTitle",
        \PHAssetCollection.localizedTitle: "localizedTitle",
        \PHCollectionList.localizedTitle: "localizedTitle",
        \PHAssetCollection.startDate: "startDate",
        \PHAssetCollection.endDate: "endDate",
        \PHAssetCollection.estimatedAssetCount: "estimatedAssetCount",
        \PHCollectionList.startDate: "startDate",
        \PHCollectionList.endDate: "endDate",
    ]
}
