import Foundation
import PhotosStore

/// What a fetch result was made from, so the same fetch can run again later.
enum FetchQuery: Sendable {
    case assets(AssetQuery, options: ResolvedFetchOptions)
    case collections(CollectionQuery, entity: FetchEntity, options: ResolvedFetchOptions)
    /// Objects held in memory (transient collection lists holding transient collections).
    case objects(entity: FetchEntity, options: ResolvedFetchOptions)
    /// A fetch that can never match (a deprecated API, an object of another kind).
    case empty
}

extension PHPhotoLibrary {
    func fetchAssets(_ scope: AssetQuery.Scope, options: ResolvedFetchOptions) -> PHFetchResult<PHAsset> {
        var query = AssetQuery(
            scope: scope, filter: options.filter, sort: options.sort, includeHidden: options.includeHiddenAssets,
            includeAllBurstAssets: options.includeAllBurstAssets, sourceTypes: options.sourceTypes,
            limit: options.fetchLimit, owner: personID)
        // A person's fetch of their timeline, smart albums, searches, a partner's photos or
        // identifiers takes in the partners who share with them, read now.
        switch scope {
        case .library, .smartAlbum, .search, .uuids, .partner: query.partners = partnerSharesForFetch()
        default: break
        }
        let fetched: (ids: [Int64], position: Int64)
        var read: [AssetRecord]?
        var failure: PHPhotosError?
        do {
            if case .uuids(let uuids) = scope, uuids.count <= PHFetchResult<PHAsset>.batchSize,
               let (records, position) = try store.assetRecordsAndPosition(query) {
                // A few identifiers: their objects are read with the ids, in one statement.
                (fetched, read) = ((records.map(\.id), position), records)
            } else {
                fetched = try store.assetIDs(query)
            }
        } catch {
            failure = Self.reportFetchFailure(error)
            fetched = ([], -1)
        }
        let result = PHFetchResult<PHAsset>(
            storage: .assets(ids: fetched.ids, library: self), query: .assets(query, options: options),
            position: fetched.position, fetchError: failure)
        if let read { result.holdObjects(read.map { PHAsset(record: $0, library: self) }) }
        return result
    }

    func fetchCollections<T: AnyObject>(
        _ scope: CollectionQuery.Scope, entity: FetchEntity, options: ResolvedFetchOptions
    ) -> PHFetchResult<T> {
        let query = CollectionQuery(scope: scope, filter: options.filter, sort: options.sort, limit: options.fetchLimit, owner: personID)
        let fetched: (ids: [Int64], position: Int64)
        var failure: PHPhotosError?
        do {
            fetched = try store.collectionIDs(query)
        } catch {
            failure = Self.reportFetchFailure(error)
            fetched = ([], -1)
        }
        return PHFetchResult(
            storage: .collections(ids: fetched.ids, library: self),
            query: .collections(query, entity: entity, options: options), position: fetched.position, fetchError: failure)
    }

    /// Fetches never throw in PhotoKit; a database failure gives an empty result, a line on
    /// standard error and the result's ``PHFetchResult/fetchError``.
    private static func reportFetchFailure(_ error: StoreError) -> PHPhotosError {
        FileHandle.standardError.write(Data("PhotoKit: fetch failed: \(error.message)\n".utf8))
        return PHPhotosError(PHPhotosError(error).code, "The fetch failed: \(error.message)")
    }
}

extension PHFetchResult {
    /// A result that holds nothing.
    static func empty() -> PHFetchResult<ObjectType> {
        PHFetchResult(storage: .objects([]), query: .empty)
    }
}
