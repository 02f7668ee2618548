import Photos
import UIKit

/// A photo picker: an album list (smart albums, then the user's albums), the photos of the
/// album picked, filtered as the picker's configuration asks (compound predicates), a selection
/// kept in the order the user tapped, and file details read the way pickers read them (KVC).
final class PhotoPickerModel {
    struct Configuration {
        var mediaTypes: [PHAssetMediaType] = [.image]
        var onlyFavorites = false
        var minimumPixelWidth = 0
        var createdAfter: Date?
        var maximumSelection = 3
    }

    struct FileDetails: Equatable {
        var filename: String
        var byteCount: Int64
        var isLocal: Bool
    }

    let configuration: Configuration
    /// One fetch result per section of the album list.
    private(set) var albumSections: [PHFetchResult<PHCollection>] = []
    private(set) var assets: PHFetchResult<PHAsset>!
    private(set) var selection: [PHAsset] = []

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Smart albums then user albums, one section each.
    func loadAlbums() {
        let smartAlbums = PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: nil)
        let userAlbums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)
        // Apple's platforms: `[smartAlbums, userAlbums].compactMap { $0 as? PHFetchResult<PHCollection> }`.
        // Linux: Swift's generic classes can't make that cast succeed; the conversion is the one-line edit.
        albumSections = [smartAlbums, userAlbums].compactMap { PHFetchResult<PHCollection>($0) }
    }

    /// The predicate the picker's configuration asks for.
    var predicate: NSPredicate {
        var parts: [NSPredicate] = [
            NSCompoundPredicate(orPredicateWithSubpredicates: configuration.mediaTypes.map {
                NSPredicate(format: "mediaType == %d", $0.rawValue)
            })
        ]
        if configuration.onlyFavorites { parts.append(NSPredicate(format: "isFavorite == YES")) }
        if configuration.minimumPixelWidth > 0 {
            parts.append(NSPredicate(format: "pixelWidth >= %d", configuration.minimumPixelWidth))
        }
        if let date = configuration.createdAfter {
            parts.append(NSPredicate(format: "creationDate > %@", date as NSDate))
        }
        parts.append(NSCompoundPredicate(notPredicateWithSubpredicate: NSPredicate(format: "isHidden == YES")))
        return NSCompoundPredicate(andPredicateWithSubpredicates: parts)
    }

    /// Shows the photos of `collection` (nil: the whole library), newest first.
    func show(_ collection: PHAssetCollection?) {
        let options = PHFetchOptions()
        options.predicate = predicate
        options.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
        if let collection = collection {
            assets = PHAsset.fetchAssets(in: collection, options: options)
        } else {
            assets = PHAsset.fetchAssets(with: options)
        }
    }

    /// Taps an asset: selects it (up to the maximum) or deselects it. Returns whether it is
    /// selected now.
    @discardableResult
    func toggle(_ asset: PHAsset) -> Bool {
        if let index = selection.firstIndex(of: asset) {
            selection.remove(at: index)
            return false
        }
        guard selection.count < configuration.maximumSelection else { return false }
        selection.append(asset)
        return true
    }

    /// The grid position of each selected asset, `NSNotFound` for one the grid doesn't show.
    var selectionIndexes: [Int] {
        selection.map { assets.index(of: $0) }
    }

    /// Keeps only the selected assets the grid still shows.
    func pruneSelection() {
        selection = selection.filter { asset in
            let index = assets.index(of: asset)
            return index != NSNotFound
        }
    }

    /// What the picker shows under a photo: its file name and size, read as pickers read them.
    func details(of asset: PHAsset) -> FileDetails? {
        guard let resource = PHAssetResource.assetResources(for: asset).first,
            let filename = asset.value(forKey: "filename") as? String,
            let size = resource.value(forKey: "fileSize") as? Int64
        else { return nil }
        let isLocal = (resource.value(forKey: "locallyAvailable") as? Bool) ?? false
        return FileDetails(filename: filename, byteCount: size, isLocal: isLocal)
    }

    /// The selected photos' bytes, for the app that asked the picker.
    func exportSelection(to folder: URL, completion: @escaping ([URL], [Error]) -> Void) {
        let group = DispatchGroup()
        var written: [URL] = []
        var errors: [Error] = []
        let lock = NSLock()
        for asset in selection {
            guard let resource = PHAssetResource.assetResources(for: asset).first else { continue }
            let destination = folder.appendingPathComponent(resource.originalFilename)
            group.enter()
            PHAssetResourceManager.default().writeData(for: resource, toFile: destination, options: nil) { error in
                lock.lock()
                if let error = error { errors.append(error) } else { written.append(destination) }
                lock.unlock()
                group.leave()
            }
        }
        group.notify(queue: .main) {
            completion(written, errors)
        }
    }
}
