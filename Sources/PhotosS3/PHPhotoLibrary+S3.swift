public import Foundation
public import Photos

extension PHPhotoLibrary {
    /// Lets libraries opened in this process keep their originals in S3 buckets (and read
    /// `s3://BUCKET/KEY` originals referenced with
    /// ``PHAssetResourceCreationOptions/shouldReferenceFile``).
    ///
    /// Linux addition, in the `PhotosS3` module (its own product, so programs that keep
    /// originals in folders never build an HTTP client). Call it before opening a library that
    /// recorded a bucket; ``init(url:originals:)`` calls it. A bucket is reached with the
    /// endpoint and credentials AWS's tools would use: `AWS_ACCESS_KEY_ID`,
    /// `AWS_SECRET_ACCESS_KEY`, `AWS_SESSION_TOKEN`, `AWS_REGION`, `AWS_ENDPOINT_URL_S3` /
    /// `AWS_ENDPOINT_URL`, `AWS_PROFILE` with `~/.aws/credentials` and `~/.aws/config` (its
    /// `s3 = addressing_style = path` for stores that need path-style addresses). No secret is
    /// written into the library or a log.
    public static func enableS3Originals() {
        ObjectStorage.register(S3ObjectStorage.shared, forScheme: "s3")
    }

    /// Opens (creating if needed) the library folder at `url`, whose originals are kept in the
    /// S3 bucket and prefix `originals` (`s3://BUCKET/PREFIX`).
    ///
    /// Linux addition, the library's counterpart of iCloud Photos: originals (photos, videos,
    /// paired videos, RAW alternates) are stored in the bucket, each confirmed by its SHA-256
    /// before its asset is saved; thumbnails and previews stay in the folder, and originals
    /// are fetched on demand into `cache/remote/` when a request allows network access
    /// (without it, a request that needs one fails with
    /// `PHPhotosError.Code.networkAccessRequired` and ``PHImageResultIsInCloudKey``, as
    /// Apple's do for originals in iCloud). The location is recorded in the library, so later
    /// opens (``init(url:)`` after ``enableS3Originals()``) find it.
    ///
    /// - Throws: ``PHPhotosError`` with `.libraryVolumeOffline` when the bucket is missing, the
    ///   credentials are refused or the clock is too far off (named at open, not at the first
    ///   upload), and `.changeNotSupported` when the library keeps its originals elsewhere
    ///   (`photos storage move` moves them).
    public convenience init(url: URL, originals: URL) throws {
        Self.enableS3Originals()
        var configuration = Configuration()
        configuration.originals = originals
        try self.init(url: url, configuration: configuration)
    }
}
