// A small PhotoKit program, written as app code is, against a real library: import photos in a
// change block, observe the change, fetch with a predicate and sort, and load an image. Then the
// sample apps' checks, compiled in Swift 6 and Swift 5 modes.
//
// Usage: VersionedClient LIBRARY-FOLDER SCRATCH-FOLDER PHOTO...
import Foundation
import Photos
import SampleApps
import SampleApps5

let arguments = CommandLine.arguments
guard arguments.count >= 7 else {
    FileHandle.standardError.write(Data("usage: VersionedClient LIBRARY SCRATCH PHOTO PHOTO PHOTO PHOTO...\n".utf8))
    exit(2)
}
// The shared library is the one PHOTOS_LIBRARY names (a Linux addition).
setenv("PHOTOS_LIBRARY", arguments[1], 1)
let scratch = URL(fileURLWithPath: arguments[2], isDirectory: true)
let photos = arguments.dropFirst(3).map { URL(fileURLWithPath: $0) }

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("VersionedClient: \(message)\n".utf8))
    exit(1)
}

/// Tells a waiting caller about each change.
final class LibraryWatcher: NSObject, PHPhotoLibraryChangeObserver, @unchecked Sendable {
    var changes: [PHChange] = []
    let lock = NSLock()
    let arrived = DispatchSemaphore(value: 0)

    func photoLibraryDidChange(_ changeInstance: PHChange) {
        lock.lock()
        changes.append(changeInstance)
        lock.unlock()
        arrived.signal()
    }

    var first: PHChange? {
        lock.lock()
        defer { lock.unlock() }
        return changes.first
    }
}

let library = PHPhotoLibrary.shared()
guard PHPhotoLibrary.authorizationStatus(for: .readWrite) == .authorized else { fail("not authorized") }

let favoritesOptions = PHFetchOptions()
favoritesOptions.predicate = NSPredicate(format: "mediaType == %d AND isFavorite == YES", PHAssetMediaType.image.rawValue)
favoritesOptions.sortDescriptors = [NSSortDescriptor(key: "creationDate", ascending: false)]
let favoritesBefore = PHAsset.fetchAssets(with: favoritesOptions)

let watcher = LibraryWatcher()
library.register(watcher)
var created: [String] = []
let imported = DispatchSemaphore(value: 0)
library.performChanges({
    var placeholders: [PHObjectPlaceholder] = []
    for photo in photos.prefix(3) {
        let request = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photo)
        request?.isFavorite = true
        if let placeholder = request?.placeholderForCreatedAsset { placeholders.append(placeholder) }
    }
    created = placeholders.map(\.localIdentifier)
    let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Imported")
    album.addAssets(placeholders as NSArray)
}, completionHandler: { success, error in
    if !success { fail("the import failed: \(String(describing: error))") }
    imported.signal()
})
guard imported.wait(timeout: .now() + 60) == .success else { fail("the import never completed") }
guard watcher.arrived.wait(timeout: .now() + 30) == .success else { fail("the observer never heard of the import") }
guard let change = watcher.first else { fail("no change") }
guard let details = change.changeDetails(for: favoritesBefore), details.insertedIndexes?.count == 3 else {
    fail("change details of the favorites fetch: \(String(describing: change.changeDetails(for: favoritesBefore)))")
}
let favorites = details.fetchResultAfterChanges
guard favorites.count == favoritesBefore.count + 3 else { fail("\(favorites.count) favorites after importing 3") }
var previous = Date.distantFuture
favorites.enumerateObjects { asset, _, _ in
    let date = asset.creationDate ?? .distantPast
    if date > previous { fail("favorites are not newest first") }
    previous = date
}
print("VersionedClient: imported \(created.count) photos; the observer saw them as insertions into the favorites fetch")

guard let first = favorites.firstObject else { fail("no favorites") }
let options = PHImageRequestOptions()
options.deliveryMode = .highQualityFormat
options.resizeMode = .exact
var thumbnail: UIImage?
let loaded = DispatchSemaphore(value: 0)
PHImageManager.default().requestImage(for: first, targetSize: CGSize(width: 200, height: 200), contentMode: .aspectFill, options: options) {
    image, info in
    thumbnail = image
    loaded.signal()
}
guard loaded.wait(timeout: .now() + 60) == .success, let image = thumbnail else { fail("no image for \(first.localIdentifier)") }
guard image.size == CGSize(width: 200, height: 200), let jpeg = image.jpegData(compressionQuality: 0.8), UIImage(data: jpeg) != nil else {
    fail("the image is \(image.size)")
}
print("VersionedClient: a 200 x 200 image of \(first.localIdentifier), \(jpeg.count) bytes as JPEG")
library.unregisterChangeObserver(watcher)

// The sample apps, in both language modes.
do {
    try await SampleApps.SampleAppChecks.run(photos: photos, scratch: scratch) { print("VersionedClient: \($0)") }
    try await SampleApps5.SampleAppChecks.run(photos: photos, scratch: scratch) { print("VersionedClient: \($0)") }
} catch {
    fail("\(error)")
}
print("VersionedClient: all checks passed")
