import Photos
import UIKit

/// A cell of the grid: the asset it shows and its thumbnail.
final class GridViewCell: UICollectionViewCell {
    let imageView = UIImageView()
    var representedAssetIdentifier: String!

    var thumbnailImage: UIImage! {
        didSet { imageView.image = thumbnailImage }
    }

    override func prepareForReuse() {
        super.prepareForReuse()
        imageView.image = nil
    }
}

/// A grid of every photo, oldest first: thumbnails from a caching image manager that preheats
/// around the visible items, kept in step with the library by change details.
final class AssetGridViewController: UICollectionViewController {
    var fetchResult: PHFetchResult<PHAsset>!
    var assetCollection: PHAssetCollection!

    fileprivate let imageManager = PHCachingImageManager()
    fileprivate var thumbnailSize: CGSize!
    fileprivate var previousPreheatItems = 0..<0
    /// Change details applied so far (for the checks).
    private(set) var changesApplied = 0

    override func viewDidLoad() {
        super.viewDidLoad()
        // Linux: result handlers on the main queue, as on Apple's platforms.
        imageManager.deliveryQueue = .main
        collectionView.register(GridViewCell.self, forCellWithReuseIdentifier: String(describing: GridViewCell.self))
        resetCachedAssets()
        PHPhotoLibrary.shared().register(self)

        // If we get here without a segue, it's because we're visible at app launch,
        // so match the behavior of segue from the default "All Photos" view.
        if fetchResult == nil {
            let allPhotosOptions = PHFetchOptions()
            allPhotosOptions.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
            fetchResult = PHAsset.fetchAssets(with: allPhotosOptions)
        }
        let scale: CGFloat = 2
        thumbnailSize = CGSize(width: 80 * scale, height: 80 * scale)
        collectionView.visibleItems = 0..<6
        collectionView.reloadData()
        updateCachedAssets()
    }

    deinit {
        PHPhotoLibrary.shared().unregisterChangeObserver(self)
    }

    // MARK: UICollectionView

    override func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        fetchResult.count
    }

    override func collectionView(_ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath) -> UICollectionViewCell {
        let asset = fetchResult.object(at: indexPath.item)
        // Dequeue a GridViewCell.
        guard let cell = collectionView.dequeueReusableCell(
            withReuseIdentifier: String(describing: GridViewCell.self), for: indexPath) as? GridViewCell
        else { fatalError("Unexpected cell in collection view") }

        // Request an image for the asset from the PHCachingImageManager.
        cell.representedAssetIdentifier = asset.localIdentifier
        imageManager.requestImage(for: asset, targetSize: thumbnailSize, contentMode: .aspectFill, options: nil, resultHandler: { image, _ in
            // UIKit may have recycled this cell by the handler's activation time.
            // Set the cell's thumbnail image only if it's still showing the same asset.
            if cell.representedAssetIdentifier == asset.localIdentifier {
                cell.thumbnailImage = image
            }
        })
        return cell
    }

    /// What a scroll does: new items on screen, the preheat window follows.
    func scroll(to items: Range<Int>) {
        collectionView.visibleItems = items
        updateCachedAssets()
    }

    // MARK: Asset Caching

    fileprivate func resetCachedAssets() {
        imageManager.stopCachingImagesForAllAssets()
        previousPreheatItems = 0..<0
    }

    /// Preheats half a screen before and after the visible items.
    fileprivate func updateCachedAssets() {
        guard isViewLoaded else { return }
        let visible = collectionView.visibleItems
        let margin = visible.count / 2
        let preheat = max(0, visible.lowerBound - margin)..<min(fetchResult.count, visible.upperBound + margin)
        let added = IndexSet(integersIn: preheat).subtracting(IndexSet(integersIn: previousPreheatItems))
        let removed = IndexSet(integersIn: previousPreheatItems).subtracting(IndexSet(integersIn: preheat))
        let addedAssets = fetchResult.objects(at: added)
        let removedAssets = fetchResult.objects(at: IndexSet(removed.filter { $0 < fetchResult.count }))
        imageManager.startCachingImages(for: addedAssets, targetSize: thumbnailSize, contentMode: .aspectFill, options: nil)
        imageManager.stopCachingImages(for: removedAssets, targetSize: thumbnailSize, contentMode: .aspectFill, options: nil)
        previousPreheatItems = preheat
    }
}

// MARK: PHPhotoLibraryChangeObserver
extension AssetGridViewController: PHPhotoLibraryChangeObserver {
    nonisolated func photoLibraryDidChange(_ changeInstance: PHChange) {
        // Change notifications may originate from a background queue.
        // As such, re-dispatch execution to the main queue before acting on the change.
        DispatchQueue.main.sync {
            guard let changes = changeInstance.changeDetails(for: fetchResult) else { return }
            // Hang on to the new fetch result.
            fetchResult = changes.fetchResultAfterChanges
            // If we have incremental changes, animate them in the collection view.
            if changes.hasIncrementalChanges {
                guard let collectionView = self.collectionView else { fatalError() }
                // Handle removals, insertions, and moves in a batch update.
                collectionView.performBatchUpdates({
                    if let removed = changes.removedIndexes, !removed.isEmpty {
                        collectionView.deleteItems(at: removed.map({ IndexPath(item: $0, section: 0) }))
                    }
                    if let inserted = changes.insertedIndexes, !inserted.isEmpty {
                        collectionView.insertItems(at: inserted.map({ IndexPath(item: $0, section: 0) }))
                    }
                    changes.enumerateMoves { fromIndex, toIndex in
                        collectionView.moveItem(at: IndexPath(item: fromIndex, section: 0), to: IndexPath(item: toIndex, section: 0))
                    }
                })
                // We are reloading items after the batch update since `PHFetchResultChangeDetails.changedIndexes`
                // refers to items in the *after* state and not the *before* state as expected by
                // `performBatchUpdates(_:completion:)`.
                if let changed = changes.changedIndexes, !changed.isEmpty {
                    collectionView.reloadItems(at: changed.map({ IndexPath(item: $0, section: 0) }))
                }
            } else {
                // Reload the collection view if incremental changes are not available.
                collectionView.reloadData()
            }
            changesApplied += 1
            resetCachedAssets()
        }
    }
}
