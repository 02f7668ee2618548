/// What went wrong talking to a bucket, in words that name the bucket, the key and what the
/// server said (its `Code` and `Message`), never the secret.
public struct S3Error: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Equatable {
        /// The endpoint, region or a shared file can't be used as given.
        case configuration
        /// No credentials were found, or the server refused them (`InvalidAccessKeyId`,
        /// `SignatureDoesNotMatch`, `AccessDenied`).
        case credentials
        /// The local clock is too far from the server's (`RequestTimeTooSkewed`).
        case clockSkew
        /// The bucket doesn't exist (`NoSuchBucket`).
        case noSuchBucket
        /// The object doesn't exist (`NoSuchKey`, or a 404 to a `HEAD`).
        case noSuchKey
        /// The bytes the server stored are not the bytes sent (`BadDigest`, a checksum that
        /// differs), or a download ended early.
        case integrity
        /// The server or the network stayed away through every retry (5xx, 429, connection
        /// errors, timeouts).
        case unavailable
        /// The caller stopped it (its task was cancelled).
        case cancelled
        /// Any other answer the server gave.
        case failed
    }

    public var kind: Kind
    public var message: String
    /// The HTTP status, when the server answered.
    public var status: Int?
    /// The server's error code (`NoSuchKey`), when it sent one.
    public var code: String?

    public init(_ kind: Kind, _ message: String, status: Int? = nil, code: String? = nil) {
        self.kind = kind
        self.message = message
        self.status = status
        self.code = code
    }

    public var description: String { message }
}
