package import Foundation
package import Photos
import NIOCore
import PhotosLocking
package import S3

/// ``ObjectStorageBackend`` for `s3://BUCKET/KEY` URLs, on the ``S3Client``.
///
/// A bucket is reached with the endpoint and credentials AWS's tools would use in this
/// process's environment (`AWS_*` variables, `~/.aws`; ``S3Configuration/resolve(environment:home:)``),
/// unless it was given its own with ``use(_:forBucket:)``. None is written into the library:
/// each machine that opens it brings its own.
package final class S3ObjectStorage: ObjectStorageBackend {
    package static let shared = S3ObjectStorage()

    private let configurations = Mutex<[String: (S3Configuration, S3Client.RetryPolicy)]>([:])
    private let resolved = Mutex<Result<S3Configuration, S3Error>?>(nil)
    /// How many uploads or removals run at once.
    private let concurrency = 8

    /// Reaches `bucket` with `configuration` instead of the environment's, in this process,
    /// retrying as `retry` says.
    package func use(_ configuration: S3Configuration, forBucket bucket: String, retry: S3Client.RetryPolicy = S3Client.RetryPolicy()) {
        configurations.withLock { $0[bucket] = (configuration, retry) }
    }

    /// A bucket and key (or prefix) from an `s3://` URL.
    package struct Location: Sendable, Equatable {
        package var bucket: String
        package var key: String

        package init?(_ url: URL) {
            guard url.scheme?.lowercased() == "s3", let bucket = url.host, !bucket.isEmpty else { return nil }
            self.bucket = bucket
            key = String(url.path.drop { $0 == "/" })
        }
    }

    private func location(_ url: URL) throws(PHPhotosError) -> Location {
        guard let location = Location(url) else {
            throw PHPhotosError(.invalidResource, "\(url.absoluteString) is not an s3://BUCKET/KEY URL")
        }
        return location
    }

    /// The client for `bucket`; a configuration that can't be found fails naming what is
    /// missing (no credentials, a bad endpoint).
    private func client(for bucket: String) throws(PHPhotosError) -> S3Client {
        if let (configuration, retry) = configurations.withLock({ $0[bucket] }) { return S3Client(configuration: configuration, retry: retry) }
        let result = resolved.withLock { resolved in
            if let resolved { return resolved }
            let result = Result { () throws(S3Error) in try S3Configuration.resolve() }
            resolved = result
            return result
        }
        switch result {
        case .success(let configuration): return S3Client(configuration: configuration)
        case .failure(let error): throw PHPhotosError(.libraryVolumeOffline, "Can't reach s3://\(bucket): \(error.message)")
        }
    }

    package func checkAccess(_ url: URL) throws(PHPhotosError) {
        let location = try location(url)
        let client = try client(for: location.bucket)
        do throws(S3Error) {
            try S3Client.waiting { () async throws(S3Error) in
                try await client.checkAccess(bucket: location.bucket, prefix: location.key.isEmpty ? "" : location.key + "/")
            }
        } catch {
            throw PHPhotosError(.libraryVolumeOffline, "The library's originals in \(url.absoluteString) can't be reached: \(error.message)")
        }
    }

    package func upload(_ uploads: [ObjectUpload]) throws(PHPhotosError) {
        guard !uploads.isEmpty else { return }
        let targets = try uploads.map { upload throws(PHPhotosError) in (upload, try location(upload.object)) }
        let client = try client(for: targets[0].1.bucket)
        // Each upload waits on a serial queue of its own (which gets a thread of its own), at
        // most `concurrency` at once; the first failure stops the ones not started.
        let failure = Mutex<S3Error?>(nil)
        let group = DispatchGroup()
        let lanes = (0..<min(concurrency, targets.count)).map { DispatchQueue(label: "photokit.s3.upload-\($0)") }
        for (index, (upload, location)) in targets.enumerated() {
            lanes[index % lanes.count].async(group: group) {
                guard failure.withLock({ $0 == nil }) else { return }
                do throws(S3Error) {
                    try client.putObjectWaiting(
                        bucket: location.bucket, key: location.key, file: upload.file, contentType: upload.contentType,
                        sha256Hex: upload.sha256Hex)
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
            }
        }
        group.wait()
        if let error = failure.withLock({ $0 }) {
            throw PHPhotosError(error.kind == .cancelled ? .userCancelled : .networkError, "Can't store the original: \(error.message)")
        }
    }

    package func download(_ url: URL, to destination: URL, progress: (@Sendable (Double) -> Bool)?) throws(PHPhotosError) {
        let location = try location(url)
        let client = try client(for: location.bucket)
        let stopped = Mutex(false)
        do throws(S3Error) {
            try client.downloadWaiting(bucket: location.bucket, key: location.key, to: destination) { written, total in
                guard total > 0, let progress, progress(min(1, Double(written) / Double(total))) else { return false }
                stopped.withLock { $0 = true }
                return true
            }
        } catch {
            if stopped.withLock({ $0 }) || error.kind == .cancelled {
                throw PHPhotosError(.userCancelled, "Fetching \(url.absoluteString) was stopped by the progress handler")
            }
            throw Self.readError(error)
        }
    }

    /// A read's failure as PhotoKit names it: a missing object or bucket is `.missingResource`,
    /// anything else `.networkError`.
    private static func readError(_ error: S3Error) -> PHPhotosError {
        PHPhotosError(error.kind == .noSuchKey || error.kind == .noSuchBucket ? .missingResource : .networkError, error.message)
    }

    package func read(_ url: URL, range: ClosedRange<Int64>?) async throws(PHPhotosError) -> ObjectRead {
        let location = try location(url)
        let client = try client(for: location.bucket)
        let stream: S3Client.ObjectStream
        do throws(S3Error) {
            stream = try await client.stream(bucket: location.bucket, key: location.key, range: range)
        } catch {
            throw Self.readError(error)
        }
        // `Content-Range: bytes LOW-HIGH/TOTAL` for a range, else the body is the whole object.
        var sent: ClosedRange<Int64>?
        var size = stream.contentLength ?? 0
        if stream.status == 206, let contentRange = stream.contentRange {
            let numbers = contentRange.split { !$0.isNumber }.compactMap { Int64($0) }
            guard numbers.count == 3, numbers[0] <= numbers[1] else {
                throw PHPhotosError(.networkError, "\(url.absoluteString): the store answered the range with 'Content-Range: \(contentRange)'")
            }
            sent = numbers[0]...numbers[1]
            size = numbers[2]
        }
        let body = IteratorBox(stream.body.makeAsyncIterator())
        return ObjectRead(range: sent, size: size, chunks: ObjectRead.Chunks { try await body.next() })
    }

    /// The one iterator of a body, read by one reader at a time.
    private final class IteratorBox: @unchecked Sendable {
        // @unchecked Sendable: a response body has one reader, which awaits each chunk before
        // asking for the next.
        private var iterator: S3Client.ObjectStream.Body.AsyncIterator

        init(_ iterator: S3Client.ObjectStream.Body.AsyncIterator) {
            self.iterator = iterator
        }

        func next() async throws -> Data? {
            guard var buffer = try await iterator.next() else { return nil }
            return Data(buffer.readBytes(length: buffer.readableBytes) ?? [])
        }
    }

    package func presignedURL(_ url: URL, expires: Int, contentType: String?, contentDisposition: String?) throws(PHPhotosError) -> URL {
        let location = try location(url)
        let client = try client(for: location.bucket)
        var headers: [(name: String, value: String)] = []
        if let contentType { headers.append(("content-type", contentType)) }
        if let contentDisposition { headers.append(("content-disposition", contentDisposition)) }
        return client.presignedURL(bucket: location.bucket, key: location.key, expires: expires, responseHeaders: headers)
    }

    package func list(_ prefix: URL) throws(PHPhotosError) -> [StoredObject] {
        let location = try location(prefix)
        let client = try client(for: location.bucket)
        do throws(S3Error) {
            let listed = try S3Client.waiting { () async throws(S3Error) in
                try await client.listObjects(bucket: location.bucket, prefix: location.key)
            }
            return listed.compactMap { object in
                URL(string: "s3://\(location.bucket)/\(S3Key.encodePath(object.key))").map {
                    StoredObject(url: $0, size: object.size, stored: object.lastModified)
                }
            }
        } catch {
            throw PHPhotosError(.networkError, "Can't list \(prefix.absoluteString): \(error.message)")
        }
    }

    package func remove(_ objects: [URL]) throws(PHPhotosError) {
        guard !objects.isEmpty else { return }
        let targets = try objects.map { url throws(PHPhotosError) in try location(url) }
        let client = try client(for: targets[0].bucket)
        let concurrency = concurrency
        do throws(S3Error) {
            try S3Client.waiting { () async throws(S3Error) in
                for start in stride(from: 0, to: targets.count, by: concurrency) {
                    let batch = targets[start..<min(start + concurrency, targets.count)]
                    let failure = await withTaskGroup(of: S3Error?.self) { group -> S3Error? in
                        for location in batch {
                            group.addTask {
                                do throws(S3Error) {
                                    try await client.deleteObject(bucket: location.bucket, key: location.key)
                                    return nil
                                } catch {
                                    return error.kind == .noSuchKey ? nil : error
                                }
                            }
                        }
                        var failure: S3Error?
                        for await result in group where failure == nil { failure = result }
                        return failure
                    }
                    if let failure { throw failure }
                }
            }
        } catch {
            throw PHPhotosError(.networkError, "Can't remove objects: \(error.message)")
        }
    }
}
