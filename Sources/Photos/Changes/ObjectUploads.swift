import Foundation
import Logging
import PhotosStore
import UniformTypeIdentifiers

/// A change's new originals (and edits' rendered versions and adjustment data) stored in the
/// library's object store (``ObjectOriginals``) before
/// its transaction: the rows commit only after the store has confirmed every object's
/// checksum, so no asset ever points at an object that isn't there. A change that then fails
/// removes its objects; a process killed between the upload and the commit leaves objects that
/// belong to nothing, which `photos check` finds and `--repair` removes.
///
/// After the commit each staged file becomes the object's local copy (under `cache/remote/`),
/// so what was just added is read, thumbnailed and played without a download.
struct ObjectUploads {
    private var uploads: [ObjectUpload] = []
    /// Each staged file and the local copy it becomes after the commit.
    private var copies: [(staged: URL, copy: URL)] = []
    private let backend: (any ObjectStorageBackend)?
    private let logger: Logger

    /// Uploads the staged files of `changes`' new assets and points their resources at the
    /// objects; a library whose originals are in its folder changes nothing.
    init(uploading changes: inout StoreChangeSet, store: LibraryDatabase, logger: Logger) throws(PHPhotosError) {
        self.logger = logger
        guard let location = store.objectOriginals.location, let locationURL = URL(string: location) else {
            backend = nil
            return
        }
        let backend = try ObjectStorage.requireBackend(for: locationURL)
        self.backend = backend
        for assetIndex in changes.newAssets.indices {
            let uuid = changes.newAssets[assetIndex].record.uuid
            for index in changes.newAssets[assetIndex].resources.indices {
                let resource = changes.newAssets[assetIndex].resources[index]
                guard let staged = resource.stagedFile,
                    let path = store.objectOriginals.objectPath(forRelativePath: resource.relativePath),
                    let object = URL(string: path)
                else { continue }
                let type = UTType(resource.uniformTypeIdentifier)?.preferredMIMEType
                uploads.append(ObjectUpload(file: staged, object: object, sha256Hex: resource.contentHash, contentType: type))
                copies.append((staged, store.layout.remoteCopy(of: object, assetUUID: uuid, resourceType: resource.type)))
                changes.newAssets[assetIndex].resources[index].relativePath = path
                changes.newAssets[assetIndex].resources[index].stagedFile = nil
            }
        }
        // Edits: the rendered version, its adjustment data, a Live Photo's rendered movie.
        for (uuid, edit) in changes.contentEdits {
            guard case .apply(let content) = edit else { continue }
            let paths = edit.relativePaths(assetUUID: uuid, at: changes.now)
            var files = [(content.renderedFile, content.renderedType, content.uniformTypeIdentifier), (content.adjustmentFile, 7, "com.apple.photos.adjustment-data")]
            if let movie = content.pairedVideo { files.append((movie.file, 10, movie.uniformTypeIdentifier)) }
            for ((file, type, uniformType), path) in zip(files, paths) {
                guard let object = URL(string: location + "/" + path) else { continue }
                uploads.append(ObjectUpload(file: file, object: object, sha256Hex: nil, contentType: UTType(uniformType)?.preferredMIMEType))
                copies.append((file, store.layout.remoteCopy(of: object, assetUUID: uuid, resourceType: type)))
            }
            changes.contentObjectLocation = location
        }
        guard !uploads.isEmpty else { return }
        do throws(PHPhotosError) {
            try backend.upload(uploads)
        } catch {
            removeObjects()
            throw error
        }
    }

    /// After the commit: the staged files become the objects' local copies.
    func keepLocalCopies() {
        for (staged, copy) in copies {
            logger.attempt(.notice, "keep \(staged.lastPathComponent) as the local copy \(copy.path)") { try OriginalsCache.keep(staged, as: copy) }
        }
    }

    /// After a failed commit: the objects go (a failure is logged; `photos check` finds them).
    func removeObjects() {
        guard let backend, !uploads.isEmpty else { return }
        let objects = uploads.map(\.object)
        logger.attempt(.warning, "remove \(objects.count) object\(objects.count == 1 ? "" : "s") of a change that failed") {
            try backend.remove(objects)
        }
    }
}
