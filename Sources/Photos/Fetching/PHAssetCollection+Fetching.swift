public import Foundation
import PhotosStore

extension PHAssetCollection {
    /// Albums, smart albums or moments of a subtype (`.any` for all), in creation order
    /// (moments: by date).
    public class func fetchAssetCollections(
        with type: PHAssetCollectionType, subtype: PHAssetCollectionSubtype, options: PHFetchOptions?
    ) -> PHFetchResult<PHAssetCollection> {
        PHPhotoLibrary.current.fetchCollections(
            .assetCollections(type: type.rawValue, subtype: subtype.rawValue), entity: .assetCollection,
            options: resolveOrTrap(options, for: .assetCollection))
    }

    /// Asset collections by local identifier; unknown identifiers are skipped.
    public class func fetchAssetCollections(
        withLocalIdentifiers identifiers: [String], options: PHFetchOptions?
    ) -> PHFetchResult<PHAssetCollection> {
        PHPhotoLibrary.current.fetchCollections(
            .uuids(identifiers.compactMap { LocalIdentifier.collectionUUID($0, isList: false) }, lists: false),
            entity: .assetCollection, options: resolveOrTrap(options, for: .assetCollection))
    }

    /// The albums (or moments) an asset belongs to. As on Apple's platforms, smart albums
    /// aren't supported: asking for them gives an empty result.
    public class func fetchAssetCollectionsContaining(
        _ asset: PHAsset, with type: PHAssetCollectionType, options: PHFetchOptions?
    ) -> PHFetchResult<PHAssetCollection> {
        let resolved = resolveOrTrap(options, for: .assetCollection)
        guard type != .smartAlbum, let library = asset.library else { return .empty() }
        return library.fetchCollections(
            .containingAsset(asset.rowID, type: type.rawValue), entity: .assetCollection, options: resolved)
    }

    /// The moments of a moment cluster or year.
    @available(*, deprecated, message: "Moments are deprecated on Apple's platforms")
    public class func fetchMoments(inMomentList momentList: PHCollectionList, options: PHFetchOptions?) -> PHFetchResult<PHAssetCollection> {
        guard let library = momentList.library, let id = momentList.rowID else { return .empty() }
        return library.fetchCollections(.children(of: id), entity: .assetCollection, options: resolveOrTrap(options, for: .assetCollection))
    }

    /// Every moment, by date.
    @available(*, deprecated, message: "Moments are deprecated on Apple's platforms")
    public class func fetchMoments(with options: PHFetchOptions?) -> PHFetchResult<PHAssetCollection> {
        fetchAssetCollections(with: .moment, subtype: .any, options: options)
    }

    /// Linux: asset-library group URLs don't exist here; the result is always empty.
    @available(*, deprecated, message: "Use fetchAssetCollections(withLocalIdentifiers:options:)")
    public class func fetchAssetCollections(withALAssetGroupURLs assetGroupURLs: [URL], options: PHFetchOptions?) -> PHFetchResult<PHAssetCollection> {
        .empty()
    }

    /// A collection of these assets, in this order, that is never saved; fetch its assets
    /// with `PHAsset.fetchAssets(in:options:)` like any other collection's.
    public class func transientAssetCollection(with assets: [PHAsset], title: String?) -> PHAssetCollection {
        PHAssetCollection(transientAssets: assets, title: title)
    }

    /// A transient collection of the assets of a fetch result.
    public class func transientAssetCollection(withAssetFetchResult fetchResult: PHFetchResult<PHAsset>, title: String?) -> PHAssetCollection {
        PHAssetCollection(transientAssets: Array(fetchResult), title: title)
    }
}
