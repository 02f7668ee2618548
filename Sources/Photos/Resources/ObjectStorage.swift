import Foundation
package import Logging
import PhotosLocking
package import PhotosStore

/// An object store that keeps originals (an S3 bucket), as another module provides it: the
/// `PhotosS3` product registers its client with ``ObjectStorage/register(_:forScheme:)``, so
/// a program that uses only `Photos` never builds an HTTP client.
///
/// Every call is synchronous (PhotoKit's change blocks and blocking requests call it) and must
/// not wait on Swift concurrency's cooperative threads, which its caller may be holding.
package protocol ObjectStorageBackend: Sendable {
    /// Checks that `location` (`s3://BUCKET/PREFIX`) can be read and written with this
    /// process's credentials: a missing bucket, refused credentials or a clock too far off are
    /// named here, when a library opens, not at its first upload.
    func checkAccess(_ location: URL) throws(PHPhotosError)
    /// Stores each file at its object URL, several at once; returns when the store has
    /// confirmed every one's checksum. A failure throws after the others have ended (objects
    /// already stored are the caller's to remove).
    func upload(_ uploads: [ObjectUpload]) throws(PHPhotosError)
    /// Reads the object at `object` into `destination` (replaced). `progress` gets 0...1 and
    /// returns true to stop (`.userCancelled`); a missing object is `.missingResource`.
    func download(_ object: URL, to destination: URL, progress: (@Sendable (Double) -> Bool)?) throws(PHPhotosError)
    /// Removes the objects (missing ones are not an error).
    func remove(_ objects: [URL]) throws(PHPhotosError)
    /// Every object whose URL begins with `prefix` (`s3://BUCKET/PREFIX/`).
    func list(_ prefix: URL) throws(PHPhotosError) -> [StoredObject]
    /// The object's bytes, or `range` of them, as the store sends them (a server streaming an
    /// original): returns when the store's answer begins, before its body has come; the
    /// caller reads the chunks at its own pace. A missing object is `.missingResource`, a
    /// store that can't be reached `.networkError`.
    func read(_ object: URL, range: ClosedRange<Int64>?) async throws(PHPhotosError) -> ObjectRead
    /// A URL that reads the object without credentials for `expires` seconds, whose answer
    /// carries `contentType` and `contentDisposition` when given (a server redirecting a
    /// download to the store). Made without a request.
    func presignedURL(_ object: URL, expires: Int, contentType: String?, contentDisposition: String?) throws(PHPhotosError) -> URL
}

/// An object's bytes as a store sends them: ``ObjectStorageBackend/read(_:range:)``.
package struct ObjectRead: Sendable {
    /// The bytes sent: the range asked for, or the whole object (`0...size - 1`).
    package var range: ClosedRange<Int64>?
    /// The object's whole size.
    package var size: Int64
    package var chunks: Chunks

    package init(range: ClosedRange<Int64>?, size: Int64, chunks: Chunks) {
        self.range = range
        self.size = size
        self.chunks = chunks
    }

    /// The body's chunks, read once, each when the one before was taken.
    package struct Chunks: AsyncSequence, Sendable {
        package typealias Element = Data
        private let next: @Sendable () async throws -> Data?

        package init(next: @escaping @Sendable () async throws -> Data?) {
            self.next = next
        }

        package struct AsyncIterator: AsyncIteratorProtocol {
            let next: @Sendable () async throws -> Data?
            package mutating func next() async throws -> Data? { try await next() }
        }

        package func makeAsyncIterator() -> AsyncIterator { AsyncIterator(next: next) }
    }
}

/// An object a listing found.
package struct StoredObject: Sendable, Hashable {
    package var url: URL
    package var size: Int64
    /// When it was stored (nil when the store doesn't say).
    package var stored: Date?

    package init(url: URL, size: Int64, stored: Date?) {
        self.url = url
        self.size = size
        self.stored = stored
    }
}

/// A file to store at an object URL.
package struct ObjectUpload: Sendable {
    package var file: URL
    package var object: URL
    /// The file's SHA-256 in hex, when known (the store checks it all the same).
    package var sha256Hex: String?
    package var contentType: String?

    package init(file: URL, object: URL, sha256Hex: String?, contentType: String?) {
        self.file = file
        self.object = object
        self.sha256Hex = sha256Hex
        self.contentType = contentType
    }
}

/// The object stores this process can reach, by URL scheme.
package enum ObjectStorage {
    private static let backends = Mutex<[String: any ObjectStorageBackend]>([:])

    /// Makes `scheme` URLs (`s3`) reachable through `backend` in this process.
    package static func register(_ backend: any ObjectStorageBackend, forScheme scheme: String) {
        backends.withLock { $0[scheme.lowercased()] = backend }
    }

    /// The backend for `url`'s scheme, if one is registered.
    package static func backend(for url: URL) -> (any ObjectStorageBackend)? {
        guard let scheme = url.scheme?.lowercased() else { return nil }
        return backends.withLock { $0[scheme] }
    }

    /// The backend for `url`, or an error saying what the program lacks.
    static func requireBackend(for url: URL) throws(PHPhotosError) -> any ObjectStorageBackend {
        guard let backend = backend(for: url) else {
            throw PHPhotosError(
                .libraryVolumeOffline,
                "\(url.absoluteString) is in an object store this program can't reach: link the PhotosS3 product and open the library "
                    + "with PHPhotoLibrary(url:originals:) (or call PHPhotoLibrary.enableS3Originals() first)")
        }
        return backend
    }
}

extension PHPhotoLibrary {
    /// Reads (and, for a new library, records) where the library keeps its originals, and
    /// checks that place can be reached: called by every opener before the library is used.
    ///
    /// `requested`: the location the opener asks for (`s3://BUCKET/PREFIX`), nil for whatever
    /// the library recorded. A library that recorded another location, or that already holds
    /// originals in its folder, is refused with a message naming `photos storage move`.
    package static func attachOriginals(to store: LibraryDatabase, requested: URL?, logger: Logger) throws(PHPhotosError) {
        let requestedLocation = try requested.map { url throws(PHPhotosError) in try normalizedLocation(url) }
        var location: String?
        do throws(StoreError) {
            location = try store.recordedOriginalsLocation()
            if location == nil, let requestedLocation {
                guard !store.isReadOnly else {
                    throw StoreError(.readOnly, "A library opened read-only can't be given a place for its originals")
                }
                location = try store.recordOriginalsLocation(requestedLocation)
            }
        } catch {
            throw PHPhotosError(error)
        }
        if let requestedLocation, let location, location != requestedLocation {
            throw PHPhotosError(
                .changeNotSupported,
                "The library at \(store.layout.root.path) keeps its originals in \(location), not \(requestedLocation); "
                    + "`photos storage move --to \(requestedLocation)` moves them")
        }
        guard let location, let url = URL(string: location) else {
            store.objectOriginals.use(nil, remove: nil)
            return
        }
        let backend = try ObjectStorage.requireBackend(for: url)
        try backend.checkAccess(url)
        store.objectOriginals.use(location) { paths in
            logger.attempt(.warning, "remove \(paths.count) object\(paths.count == 1 ? "" : "s") of deleted assets from \(location)") {
                try backend.remove(paths.compactMap(URL.init(string:)))
            }
        }
    }

    /// `s3://BUCKET/PREFIX` without a trailing `/`, or an error naming what is wrong with it.
    static func normalizedLocation(_ url: URL) throws(PHPhotosError) -> String {
        guard url.scheme?.lowercased() == "s3", let bucket = url.host, !bucket.isEmpty else {
            throw PHPhotosError(.invalidResource, "\(url.absoluteString) is not an object store location; use s3://BUCKET/PREFIX")
        }
        guard url.query == nil, url.fragment == nil, url.user == nil else {
            throw PHPhotosError(.invalidResource, "\(url.absoluteString): an originals location is s3://BUCKET/PREFIX, without a query or credentials")
        }
        var text = "s3://\(bucket)"
        let prefix = url.path.split(separator: "/").joined(separator: "/")
        if !prefix.isEmpty { text += "/" + prefix }
        return text
    }
}
