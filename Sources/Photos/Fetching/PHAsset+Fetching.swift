public import Foundation
import PhotosStore

extension PHAsset {
    /// Every asset in the library that the options let through (by default: not hidden, not
    /// non-picked burst frames, from the user's library), in creation-date order unless the
    /// options sort otherwise.
    public class func fetchAssets(with options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        PHPhotoLibrary.current.fetchAssets(.library, options: resolveOrTrap(options, for: .asset))
    }

    /// Every asset of one media type.
    public class func fetchAssets(with mediaType: PHAssetMediaType, options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        var resolved = resolveOrTrap(options, for: .asset)
        let byType = StoreFilter.compare(.field(.mediaType), .equal, .value(.integer(Int64(mediaType.rawValue))))
        resolved.filter = resolved.filter.map { .and([byType, $0]) } ?? byType
        return PHPhotoLibrary.current.fetchAssets(.library, options: resolved)
    }

    /// The assets of an album (in the album's order), smart album, moment or transient
    /// collection (in its order).
    public class func fetchAssets(in assetCollection: PHAssetCollection, options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        let resolved = resolveOrTrap(options, for: .asset)
        let library = assetCollection.library ?? PHPhotoLibrary.current
        if let assets = assetCollection.transientAssets {
            return library.fetchAssets(.ordered(assets.filter { $0.library === library }.map(\.rowID)), options: resolved)
        }
        guard let record = assetCollection.record else { return .empty() }
        switch assetCollection.assetCollectionType {
        case .album: return library.fetchAssets(.album(record.id), options: resolved)
        case .smartAlbum: return library.fetchAssets(.smartAlbum(subtype: record.subtype), options: resolved)
        case .moment: return library.fetchAssets(.moment(record.id), options: resolved)
        }
    }

    /// Assets by local identifier, hidden ones included; unknown identifiers are skipped. The
    /// order is creation date unless the options sort otherwise (Apple doesn't promise the
    /// input order either).
    public class func fetchAssets(withLocalIdentifiers identifiers: [String], options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        var resolved = resolveOrTrap(options, for: .asset)
        resolved.includeHiddenAssets = true
        return PHPhotoLibrary.current.fetchAssets(.uuids(identifiers.compactMap(LocalIdentifier.assetUUID)), options: resolved)
    }

    /// The assets that stand for a collection (its key photos): the first asset of an album
    /// or smart album, up to three of a moment (favorites first); `nil` when there are none.
    public class func fetchKeyAssets(in assetCollection: PHAssetCollection, options: PHFetchOptions?) -> PHFetchResult<PHAsset>? {
        let keyOptions = (options?.copy() as? PHFetchOptions) ?? PHFetchOptions()
        let limit = assetCollection.assetCollectionType == .moment ? 3 : 1
        keyOptions.fetchLimit = keyOptions.fetchLimit > 0 ? min(keyOptions.fetchLimit, limit) : limit
        if assetCollection.assetCollectionType == .moment, keyOptions.sortDescriptors == nil {
            keyOptions.sortDescriptors = [
                NSSortDescriptor(key: "isFavorite", ascending: false), NSSortDescriptor(key: "creationDate", ascending: true),
            ]
        }
        let result = fetchAssets(in: assetCollection, options: keyOptions)
        return result.count > 0 ? result : nil
    }

    /// The photos of a burst. As for any fetch, only the representative and user-picked
    /// photos unless `includeAllBurstAssets` is set.
    public class func fetchAssets(withBurstIdentifier burstIdentifier: String, options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        PHPhotoLibrary.current.fetchAssets(.burst(burstIdentifier), options: resolveOrTrap(options, for: .asset))
    }

    /// Linux: asset-library URLs don't exist here; the result is always empty.
    @available(*, deprecated, message: "Use fetchAssets(withLocalIdentifiers:options:)")
    public class func fetchAssets(withALAssetURLs assetURLs: [URL], options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        .empty()
    }

    /// The assets in Recently Deleted, most recently deleted first; read ``trashedDate``.
    ///
    /// Linux addition. Recover them with `PHAssetChangeRequest.recoverAssets(_:)`.
    public class func fetchRecentlyDeletedAssets(with options: PHFetchOptions?) -> PHFetchResult<PHAsset> {
        var resolved = resolveOrTrap(options, for: .asset)
        resolved.includeHiddenAssets = true
        resolved.includeAllBurstAssets = true
        return PHPhotoLibrary.current.fetchAssets(.recentlyDeleted, options: resolved)
    }
}
