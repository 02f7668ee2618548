import Photos
import UIKit

/// One asset, full screen: its image, a favorite button, and delete.
final class AssetViewController: UIViewController {
    var asset: PHAsset!
    var assetCollection: PHAssetCollection!

    let imageView = UIImageView()
    let favoriteButton = UIBarButtonItem(title: nil)
    /// Times the observer was called (for the checks).
    private(set) var changesSeen = 0

    var targetSize: CGSize { CGSize(width: 1024, height: 1024) }

    override func viewDidLoad() {
        super.viewDidLoad()
        PHPhotoLibrary.shared().register(self)
        updateContent()
    }

    deinit {
        PHPhotoLibrary.shared().unregisterChangeObserver(self)
    }

    func updateContent() {
        updateStaticImage()
        favoriteButton.title = asset.isFavorite ? "♥︎" : "♡"
    }

    func updateStaticImage() {
        // Prepare the options to pass when fetching the (photo, or video preview) image.
        let options = PHImageRequestOptions()
        options.deliveryMode = .highQualityFormat
        options.isNetworkAccessAllowed = true
        PHImageManager.default().requestImage(for: asset, targetSize: targetSize, contentMode: .aspectFit, options: options,
            resultHandler: { image, _ in
                // If successful, show the image view and display the image.
                guard let image = image else { return }
                self.imageView.image = image
            })
    }

    // MARK: Actions

    func toggleFavorite() {
        PHPhotoLibrary.shared().performChanges({
            let request = PHAssetChangeRequest(for: self.asset)
            request.isFavorite = !self.asset.isFavorite
        }, completionHandler: { success, error in
            if success {
                DispatchQueue.main.sync {
                    self.favoriteButton.title = self.asset.isFavorite ? "♥︎" : "♡"
                }
            } else {
                print("Can't mark the asset as a favorite: \(String(describing: error)).")
            }
        })
    }

    func removeAsset() {
        let completion = { (success: Bool, error: Error?) -> Void in
            if success {
                PHPhotoLibrary.shared().unregisterChangeObserver(self)
                DispatchQueue.main.sync {
                    _ = self.navigationController!.popViewController(animated: true)
                }
            } else {
                print("Can't remove the asset: \(String(describing: error)).")
            }
        }
        if assetCollection != nil {
            // Remove the asset from the selected album.
            PHPhotoLibrary.shared().performChanges({
                let request = PHAssetCollectionChangeRequest(for: self.assetCollection)!
                request.removeAssets([self.asset!] as NSArray)
            }, completionHandler: completion)
        } else {
            // Delete the asset from the photo library.
            PHPhotoLibrary.shared().performChanges({
                PHAssetChangeRequest.deleteAssets([self.asset!] as NSArray)
            }, completionHandler: completion)
        }
    }
}

// MARK: PHPhotoLibraryChangeObserver
extension AssetViewController: PHPhotoLibraryChangeObserver {
    nonisolated func photoLibraryDidChange(_ changeInstance: PHChange) {
        // The call might come on any background queue. Re-dispatch to the main queue to handle it.
        DispatchQueue.main.sync {
            changesSeen += 1
            // Check if there are changes to the displayed asset.
            guard let details = changeInstance.changeDetails(for: asset) else { return }
            // Get the updated asset. The view unregisters itself when its asset goes, in the
            // completion handler of the delete, so the asset is always there.
            asset = details.objectAfterChanges!
            // If the asset's content or favorite state changed, update the view.
            updateContent()
        }
    }
}
