import Photos
import UIKit

/// The album list: all photos, the smart albums, then the user's albums and folders, with the
/// edits an album browser makes (create, rename, fill, reorder, delete).
final class AlbumListViewController: UITableViewController {
    enum Section: Int {
        case allPhotos = 0
        case smartAlbums
        case userCollections

        static let count = 3
    }

    var allPhotos: PHFetchResult<PHAsset>!
    var smartAlbums: PHFetchResult<PHAssetCollection>!
    var userCollections: PHFetchResult<PHCollection>!
    let sectionLocalizedTitles = ["", NSLocalizedString("Smart Albums", comment: ""), NSLocalizedString("Albums", comment: "")]

    override func viewDidLoad() {
        super.viewDidLoad()
        // Create a PHFetchResult object for each section in the table view.
        let allPhotosOptions = PHFetchOptions()
        allPhotosOptions.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: true)]
        allPhotos = PHAsset.fetchAssets(with: allPhotosOptions)
        smartAlbums = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .albumRegular, options: nil)
        userCollections = PHCollectionList.fetchTopLevelUserCollections(with: nil)
        PHPhotoLibrary.shared().register(self)
        tableView.reloadData()
    }

    deinit {
        PHPhotoLibrary.shared().unregisterChangeObserver(self)
    }

    // MARK: Table View

    override func numberOfSections(in tableView: UITableView) -> Int {
        Section.count
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        switch Section(rawValue: section)! {
        case .allPhotos: return 1
        case .smartAlbums: return smartAlbums.count
        case .userCollections: return userCollections.count
        }
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = UITableViewCell()
        switch Section(rawValue: indexPath.section)! {
        case .allPhotos:
            cell.textLabel!.text = NSLocalizedString("All Photos", comment: "")
            cell.detailTextLabel!.text = "\(allPhotos.count)"
        case .smartAlbums:
            let collection = smartAlbums.object(at: indexPath.row)
            cell.textLabel!.text = collection.localizedTitle
            cell.detailTextLabel!.text = "\(PHAsset.fetchAssets(in: collection, options: nil).count)"
        case .userCollections:
            let collection = userCollections.object(at: indexPath.row)
            cell.textLabel!.text = collection.localizedTitle
            if let album = collection as? PHAssetCollection {
                cell.detailTextLabel!.text = "\(PHAsset.fetchAssets(in: album, options: nil).count)"
            }
        }
        return cell
    }

    /// The user's album with this title, if it is at the top level.
    func album(titled title: String) -> PHAssetCollection? {
        var found: PHAssetCollection?
        userCollections.enumerateObjects { collection, _, stop in
            if let album = collection as? PHAssetCollection, album.localizedTitle == title {
                found = album
                stop.pointee = true
            }
        }
        return found
    }

    // MARK: Actions

    func addAlbum(titled title: String) {
        PHPhotoLibrary.shared().performChanges({
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
        }, completionHandler: { success, error in
            if !success { print("Error creating album: \(String(describing: error)).") }
        })
    }

    func rename(_ album: PHAssetCollection, to title: String) {
        PHPhotoLibrary.shared().performChanges({
            PHAssetCollectionChangeRequest(for: album)?.title = title
        }, completionHandler: { success, error in
            if !success { print("Error renaming album: \(String(describing: error)).") }
        })
    }

    func add(_ assets: [PHAsset], to album: PHAssetCollection) {
        PHPhotoLibrary.shared().performChanges({
            let request = PHAssetCollectionChangeRequest(for: album, assets: PHAsset.fetchAssets(in: album, options: nil))
            request?.addAssets(assets as NSArray)
        }, completionHandler: { success, error in
            if !success { print("Error adding to the album: \(String(describing: error)).") }
        })
    }

    /// Moves the album's first asset to its end, as a drag in the album's grid does.
    func moveFirstAssetToEnd(of album: PHAssetCollection) {
        let contents = PHAsset.fetchAssets(in: album, options: nil)
        guard contents.count > 1 else { return }
        PHPhotoLibrary.shared().performChanges({
            let request = PHAssetCollectionChangeRequest(for: album, assets: contents)
            request?.moveAssets(at: IndexSet(integer: 0), to: contents.count - 1)
        }, completionHandler: { success, error in
            if !success { print("Error reordering the album: \(String(describing: error)).") }
        })
    }

    func delete(_ album: PHAssetCollection) {
        PHPhotoLibrary.shared().performChanges({
            PHAssetCollectionChangeRequest.deleteAssetCollections([album] as NSArray)
        }, completionHandler: { success, error in
            if !success { print("Error deleting the album: \(String(describing: error)).") }
        })
    }
}

// MARK: PHPhotoLibraryChangeObserver
extension AlbumListViewController: PHPhotoLibraryChangeObserver {
    nonisolated func photoLibraryDidChange(_ changeInstance: PHChange) {
        // Change notifications may originate from a background queue.
        // Re-dispatch to the main queue before acting on the change, so you can update the UI.
        DispatchQueue.main.sync {
            // Check each of the three top-level fetches for changes.
            if let changeDetails = changeInstance.changeDetails(for: allPhotos) {
                // Update the cached fetch result.
                allPhotos = changeDetails.fetchResultAfterChanges
                // Don't update the table row that always reads "All Photos."
            }
            // Update the cached fetch results, and reload the table sections to match.
            if let changeDetails = changeInstance.changeDetails(for: smartAlbums) {
                smartAlbums = changeDetails.fetchResultAfterChanges
                tableView.reloadSections(IndexSet(integer: Section.smartAlbums.rawValue), with: .automatic)
            }
            if let changeDetails = changeInstance.changeDetails(for: userCollections) {
                userCollections = changeDetails.fetchResultAfterChanges
                tableView.reloadSections(IndexSet(integer: Section.userCollections.rawValue), with: .automatic)
            }
        }
    }
}
