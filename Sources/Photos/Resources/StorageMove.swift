import Foundation
import PhotosStore

extension PHPhotoLibrary {
    /// What ``moveOriginals(to:progress:)`` did.
    package struct StorageMoveReport: Sendable {
        /// Files moved, and their bytes.
        package var moved = 0
        package var bytes: Int64 = 0
        /// Files that could not be moved (a file missing from the folder), with the reason;
        /// they stay where they were.
        package var skipped: [String] = []
    }

    /// Moves the library's own originals, edits and adjustment data into the bucket location
    /// `destination` (`s3://BUCKET/PREFIX`), or with nil back into its folder, one batch of
    /// files at a time (`photos storage move`).
    ///
    /// Toward a bucket: the location is recorded first (new originals go there at once), each
    /// file is stored with its SHA-256 checked by the store, then its row is pointed at the
    /// object and the file becomes its local copy. Back: each object is fetched (or its local
    /// copy taken), checked against its recorded SHA-256 (else its size), renamed into the
    /// folder, its row pointed there, and the object removed; the location is cleared when none
    /// is left. A row changes only if it still names the file it named (compare and set), so
    /// the library is used meanwhile, and a move stopped at any point (a kill, a failure) is
    /// resumed by running it again.
    package func moveOriginals(
        to destination: URL?, progress: (StorageMoveReport) -> Void = { _ in }
    ) throws(PHPhotosError) -> StorageMoveReport {
        if let destination {
            return try moveIntoBucket(try Self.normalizedLocation(destination), progress: progress)
        }
        return try moveIntoFolder(progress: progress)
    }

    private static let moveBatch = 32

    private func moveIntoBucket(_ location: String, progress: (StorageMoveReport) -> Void) throws(PHPhotosError) -> StorageMoveReport {
        if let current = store.objectOriginals.location, current != location {
            throw PHPhotosError(
                .changeNotSupported, "The library's originals are in \(current); move them back to its folder first (photos storage move --to FOLDER)")
        }
        guard let url = URL(string: location) else { throw PHPhotosError(.invalidResource, "\(location) is not a URL") }
        let backend = try ObjectStorage.requireBackend(for: url)
        try backend.checkAccess(url)
        try mapping { () throws(StoreError) in try store.setOriginalsLocation(location) }
        try Self.attachOriginals(to: store, requested: nil, logger: logger)
        var report = StorageMoveReport()
        var after: Int64 = 0
        while true {
            let batch = try mapping { () throws(StoreError) in
                try store.movableResources(toBucket: true, location: location, after: after, limit: Self.moveBatch)
            }
            guard let last = batch.last else { break }
            after = last.id
            var uploads: [(MovableResource, ObjectUpload)] = []
            for resource in batch {
                let file = store.layout.url(forRelativePath: resource.path)
                guard FileManager.default.fileExists(atPath: file.path), let object = URL(string: location + "/" + resource.path) else {
                    report.skipped.append("\(resource.path) (asset \(LocalIdentifier.asset(resource.assetUUID))) is missing from the folder")
                    continue
                }
                uploads.append((resource, ObjectUpload(file: file, object: object, sha256Hex: resource.contentHash, contentType: nil)))
            }
            try backend.upload(uploads.map(\.1))
            for (resource, upload) in uploads {
                let moved = try mapping { () throws(StoreError) in
                    try store.moveResource(id: resource.id, from: resource.path, to: upload.object.absoluteString)
                }
                guard moved else {
                    // Deleted or moved meanwhile: the object belongs to nothing.
                    logger.attempt(.warning, "remove \(upload.object.absoluteString), whose file went meanwhile") { try backend.remove([upload.object]) }
                    continue
                }
                // The file stays as the object's local copy (within the cache's budget).
                let copy = store.layout.remoteCopy(of: upload.object, assetUUID: resource.assetUUID, resourceType: resource.type)
                logger.attempt(.warning, "keep \(resource.path) as the local copy of \(upload.object.absoluteString)") {
                    try OriginalsCache.keep(upload.file, as: copy)
                }
                report.moved += 1
                report.bytes += resource.size
            }
            progress(report)
        }
        return report
    }

    private func moveIntoFolder(progress: (StorageMoveReport) -> Void) throws(PHPhotosError) -> StorageMoveReport {
        var report = StorageMoveReport()
        guard let location = store.objectOriginals.location, let url = URL(string: location) else { return report }
        let backend = try ObjectStorage.requireBackend(for: url)
        var after: Int64 = 0
        while true {
            let batch = try mapping { () throws(StoreError) in
                try store.movableResources(toBucket: false, location: location, after: after, limit: Self.moveBatch)
            }
            guard let last = batch.last else { break }
            after = last.id
            for resource in batch {
                guard let object = URL(string: resource.path) else { continue }
                let relative = String(resource.path.dropFirst(location.count + 1))
                let destination = store.layout.url(forRelativePath: relative)
                let copy = store.layout.remoteCopy(of: object, assetUUID: resource.assetUUID, resourceType: resource.type)
                let temporary = try mapping { () throws(StoreError) in try store.makeStagingURL(fileExtension: object.pathExtension) }
                defer { try? FileManager.default.removeItem(at: temporary) }
                if link(copy.path, temporary.path) != 0 {
                    try backend.download(object, to: temporary, progress: nil)
                }
                try Self.verify(temporary, as: resource, object: object)
                do {
                    try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
                } catch {
                    throw PHPhotosError(.invalidResource, "Can't make the folder for \(relative): \(error.localizedDescription)")
                }
                guard rename(temporary.path, destination.path) == 0 else {
                    throw PHPhotosError(.notEnoughSpace, "Can't keep \(relative) in the library's folder: \(String(cString: strerror(errno)))")
                }
                let moved = try mapping { () throws(StoreError) in try store.moveResource(id: resource.id, from: resource.path, to: relative) }
                guard moved else {
                    // Deleted meanwhile (its object went with its rows): the file belongs to nothing.
                    try? FileManager.default.removeItem(at: destination)
                    continue
                }
                logger.attempt(.warning, "remove \(object.absoluteString), now in the library's folder") { try backend.remove([object]) }
                try? FileManager.default.removeItem(at: copy)
                report.moved += 1
                report.bytes += resource.size
            }
            progress(report)
        }
        let left = try mapping { () throws(StoreError) in try store.movableResources(toBucket: false, location: location, after: 0, limit: 1) }
        if left.isEmpty {
            try mapping { () throws(StoreError) in try store.setOriginalsLocation(nil) }
            store.objectOriginals.use(nil, remove: nil)
        }
        return report
    }

    /// Whether the fetched file is the one the library recorded: its SHA-256 when one was
    /// taken, else its size.
    private static func verify(_ file: URL, as resource: MovableResource, object: URL) throws(PHPhotosError) {
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.int64Value ?? -1
        if let expected = resource.contentHash {
            let actual = try? ContentHash.sha256(ofFileAt: file)
            guard actual == expected else {
                throw PHPhotosError(.invalidResource, "\(object.absoluteString) does not hold what the library recorded (SHA-256 \(actual ?? "unread"), not \(expected)); it stays in the bucket")
            }
        } else if size != resource.size {
            throw PHPhotosError(.invalidResource, "\(object.absoluteString) has \(size) bytes, the library recorded \(resource.size); it stays in the bucket")
        }
    }

    private func mapping<T>(_ body: () throws(StoreError) -> T) throws(PHPhotosError) -> T {
        do {
            return try body()
        } catch {
            throw PHPhotosError(error)
        }
    }
}
