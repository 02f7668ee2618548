import Foundation
import Photos
import PhotosLocking

/// The image version (``AssetJSON/version(of:)``) of assets images were asked for, so a repeated
/// image request is answered from memory without reading the library. A library change (from
/// any process) forgets every asset its journal entries name (``PHChange/touchedAssetIdentifiers``),
/// everything when the history no longer reaches back that far. It holds no fetch result:
/// one of every asset (hidden ones included) cost a read of the whole asset table at server
/// start, 0.5 s and ~340 MB of the mapped database at 1,000,000 assets.
final class ImageVersions: PHPhotoLibraryChangeObserver, Sendable {
    private struct State {
        var versions: [String: String] = [:]
        /// Bumped on every change, so a lookup that raced a change doesn't store a stale version.
        var generation = 0
    }

    private let state = Mutex(State())
    /// At most this many entries (cleared past it; they are cheap to refill).
    static let limit = 200_000

    init(library: PHPhotoLibrary) {
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

    /// Called serially (the library's observer queue); image requests looking up a version
    /// never wait for the library.
    func photoLibraryDidChange(_ changeInstance: PHChange) {
        let touched = changeInstance.touchedAssetIdentifiers
        state.withLock { state in
            state.generation += 1
            guard let touched else { return state.versions.removeAll(keepingCapacity: true) }
            for identifier in touched { state.versions[identifier] = nil }
        }
    }
}
