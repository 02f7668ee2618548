import Foundation
import Photos
import PhotosLocking

/// The image version (``AssetJSON/version(of:)``) of assets images were asked for, so a repeated
/// image request is answered from memory without reading the library. A library change (from
/// any process) forgets the assets it removed or changed, found through the change details of a
/// fetch of every asset (hidden ones included) and of Recently Deleted; everything when the
/// details aren't incremental.
final class ImageVersions: PHPhotoLibraryChangeObserver, Sendable {
    private struct State {
        var versions: [String: String] = [:]
        /// Bumped on every change, so a lookup that raced a change doesn't store a stale version.
        var generation = 0
        var library: PHFetchResult<PHAsset>
        var deleted: PHFetchResult<PHAsset>
    }

    private let state: Mutex<State>
    /// At most this many entries (cleared past it; they are cheap to refill).
    static let limit = 200_000

    init(library: PHPhotoLibrary) {
        let (all, deleted) = library.withCurrent {
            let options = PHFetchOptions()
            options.includeHiddenAssets = true
            options.includeAllBurstAssets = true
            return (PHAsset.fetchAssets(with: options), PHAsset.fetchRecentlyDeletedAssets(with: nil))
        }
        state = Mutex(State(library: all, deleted: deleted))
        library.register(self)
    }

    func version(of localIdentifier: String) -> String? {
        state.withLock { $0.versions[localIdentifier] }
    }

    /// The generation to pass to ``remember(_:for:generation:)`` after reading the library.
    var currentGeneration: Int { state.withLock { $0.generation } }

    func remember(_ version: String, for localIdentifier: String, generation read: Int) {
        state.withLock { state in
            guard state.generation == read else { return }
            if state.versions.count >= Self.limit { state.versions.removeAll(keepingCapacity: true) }
            state.versions[localIdentifier] = version
        }
    }

    /// Forgets these assets at once (this server changed them; the change notice that would
    /// forget them arrives a little later).
    func forget(_ localIdentifiers: some Sequence<String>) {
        state.withLock { state in
            state.generation += 1
            for identifier in localIdentifiers { state.versions[identifier] = nil }
        }
    }

    /// Called serially (the library's observer queue), so only this method replaces the
    /// fetch results; the details are read outside the lock, and image requests looking up a
    /// version never wait for the library.
    func photoLibraryDidChange(_ changeInstance: PHChange) {
        let (library, deleted) = state.withLock { ($0.library, $0.deleted) }
        let libraryDetails = changeInstance.changeDetails(for: library)
        let deletedDetails = changeInstance.changeDetails(for: deleted)
        var forget = Set<String>()
        var everything = false
        for details in [libraryDetails, deletedDetails].compactMap({ $0 }) {
            if details.hasIncrementalChanges {
                forget.formUnion(details.removedObjects.map(\.localIdentifier))
                forget.formUnion(details.changedObjects.map(\.localIdentifier))
            } else {
                everything = true
            }
        }
        state.withLock { state in
            state.generation += 1
            if let libraryDetails { state.library = libraryDetails.fetchResultAfterChanges }
            if let deletedDetails { state.deleted = deletedDetails.fetchResultAfterChanges }
            if everything {
                state.versions.removeAll(keepingCapacity: true)
            } else {
                for identifier in forget { state.versions[identifier] = nil }
            }
        }
    }
}
