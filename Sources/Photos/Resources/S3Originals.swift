import Foundation
import PhotosLocking
package import S3

/// Originals in an S3 bucket: resource paths `s3://BUCKET/KEY` (the key percent-encoded as in
/// a URL), read as PhotoKit reads iCloud originals, through local copies fetched when a request
/// allows network access (see ``RemoteOriginals``).
///
/// The bucket's endpoint and credentials are the ones AWS's tools would use in this process's
/// environment (`AWS_*` variables, `~/.aws`; ``S3Configuration/resolve(environment:home:)``),
/// unless a bucket was given its own with ``use(_:forBucket:)``. None is written into the
/// library: each machine that opens it brings its own.
package enum S3Originals {
    /// A bucket and key from an `s3://` URL.
    package struct Location: Sendable, Equatable {
        package var bucket: String
        package var key: String

        package init?(_ url: URL) {
            guard url.scheme?.lowercased() == "s3", let bucket = url.host, !bucket.isEmpty else { return nil }
            let key = String(url.path.drop { $0 == "/" })
            guard !key.isEmpty else { return nil }
            self.bucket = bucket
            self.key = key
        }

        /// `s3://BUCKET/KEY`, the key's bytes encoded as S3 signs them (`/` kept).
        package var url: URL {
            URL(string: "s3://\(bucket)/\(S3Key.encodePath(key))")!
        }
    }

    private static let configurations = Mutex<[String: S3Configuration]>([:])
    private static let resolved = Mutex<Result<S3Configuration, S3Error>?>(nil)

    /// Reaches `bucket` with `configuration` instead of the environment's, for this process.
    package static func use(_ configuration: S3Configuration, forBucket bucket: String) {
        configurations.withLock { $0[bucket] = configuration }
    }

    /// The client for `bucket`; a configuration that can't be found is a network error
    /// naming what is missing (no credentials, a bad endpoint).
    static func client(for bucket: String) throws(PHPhotosError) -> S3Client {
        if let configuration = configurations.withLock({ $0[bucket] }) { return S3Client(configuration: configuration) }
        let result = resolved.withLock { resolved in
            if let resolved { return resolved }
            let result = Result { () throws(S3Error) in try S3Configuration.resolve() }
            resolved = result
            return result
        }
        switch result {
        case .success(let configuration): return S3Client(configuration: configuration)
        case .failure(let error): throw PHPhotosError(.networkError, "Can't reach s3://\(bucket): \(error.message)")
        }
    }

    /// Downloads the object at `location` to `destination` (replacing it). `progress` gets
    /// 0...1 as bytes arrive and returns true to stop (`.userCancelled`).
    static func download(_ location: Location, to destination: URL, progress: (@Sendable (Double) -> Bool)?) throws(PHPhotosError) {
        let client = try client(for: location.bucket)
        let stopped = Mutex(false)
        do throws(S3Error) {
            try client.downloadWaiting(bucket: location.bucket, key: location.key, to: destination) { written, total in
                guard total > 0, let progress, progress(min(1, Double(written) / Double(total))) else { return false }
                stopped.withLock { $0 = true }
                return true
            }
            return
        } catch {
            if stopped.withLock({ $0 }) || error.kind == .cancelled {
                throw PHPhotosError(.userCancelled, "Fetching \(location.url.absoluteString) was stopped by the progress handler")
            }
            throw PHPhotosError(error.kind == .noSuchKey || error.kind == .noSuchBucket ? .missingResource : .networkError, error.message)
        }
    }
}
