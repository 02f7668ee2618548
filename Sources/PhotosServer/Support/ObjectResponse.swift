import Foundation
import Hummingbird
import NIOCore
import Photos

/// A file kept in the library's object store (a bucket) and not on this machine, answered to
/// `GET` or `HEAD` as ``FileResponse`` answers a file, without fetching it whole first: a byte
/// range becomes a ranged `GET` to the store, and its bytes are passed on as they come, at
/// the client's pace. Or, when the server is configured so
/// (``ServerConfiguration/originalsRedirectExpiry``), a 307 to a presigned URL of the object.
///
/// - The `ETag` is strong: the caller's `identity`, the object's URL and its size (an object
///   is never rewritten in place: a new version is a new key). There is no `Last-Modified`.
/// - `Range` (one range; several answer the whole object), `If-Range` naming the `ETag`,
///   `If-None-Match` (304) and 416 as ``FileResponse``; `HEAD` asks nothing of the store.
/// - A missing object answers 404 naming the store's `NoSuchKey`; a store that can't be
///   reached answers 503 with `Retry-After` once the client's retries are spent.
enum ObjectResponse {
    static func make(
        object: URL, size: Int64, identity: String, contentType: String, headers extra: HTTPFields = [:], request: Request,
        redirectExpiry: Int?
    ) async throws -> Response {
        let backend = try backend(for: object)
        if let redirectExpiry {
            let url = try backend.presignedURL(
                object, expires: redirectExpiry, contentType: contentType, contentDisposition: extra[.contentDisposition])
            return Response(status: .temporaryRedirect, headers: [.location: url.absoluteString, .cacheControl: "private, no-store"])
        }
        let entityTag = Self.entityTag(identity: identity, object: object, size: size)
        var headers = extra
        headers[.contentType] = contentType
        headers[.acceptRanges] = "bytes"
        headers[.eTag] = entityTag
        headers[.contentLength] = String(size)
        if let tags = request.headers[.ifNoneMatch], FileResponse.Validators.matchesWeakly(tags, entityTag) {
            return Response(status: .notModified, headers: headers)
        }
        var resolution = ByteRange.Resolution.full
        if request.method == .get, let header = request.headers[.range], let range = ByteRange(header: header),
            request.headers[.ifRange].map({ $0.trimmingCharacters(in: .whitespaces) == entityTag }) ?? true
        {
            resolution = range.resolve(size: size)
        }
        if case .unsatisfiable = resolution { throw FileResponse.unsatisfiable(request, size: size) }
        if request.method == .head || size == 0 { return Response(status: .ok, headers: headers) }
        var asked: ClosedRange<Int64>?
        if case let .partial(range) = resolution { asked = range }
        let read: ObjectRead
        do throws(PHPhotosError) {
            read = try await backend.read(object, range: asked)
        } catch {
            throw Self.apiError(error)
        }
        // The store's answer decides: a store that ignored the range sent the whole object.
        headers[.contentLength] = String(read.range.map { Int64($0.count) } ?? read.size)
        let body = ResponseBody(asyncSequence: read.chunks.map { @Sendable in ByteBuffer(bytes: $0) })
        guard let sent = read.range, asked != nil else { return Response(status: .ok, headers: headers, body: body) }
        headers[.contentRange] = "bytes \(sent.lowerBound)-\(sent.upperBound)/\(read.size)"
        return Response(status: .partialContent, headers: headers, body: body)
    }

    private static func backend(for object: URL) throws -> any ObjectStorageBackend {
        guard let backend = ObjectStorage.backend(for: object) else {
            throw APIError(.serviceUnavailable, "\(object.absoluteString) is in an object store this server can't reach")
        }
        return backend
    }

    /// A store away is the server's dependency away (503, ask again), not a bad gateway.
    static func apiError(_ error: PHPhotosError) -> APIError {
        guard error.code == .networkError else { return APIError(error) }
        var answer = APIError(.serviceUnavailable, error.message)
        answer.headers[.retryAfter] = String(APIError.retryAfterSeconds)
        return answer
    }

    /// `"identity-size"`, the identity and the object's URL hashed (FNV-1a, stable across runs
    /// and instances).
    static func entityTag(identity: String, object: URL, size: Int64) -> String {
        let hash = FileResponse.Validators.hash("\(identity) \(object.absoluteString)")
        return "\"\(String(hash, radix: 16))-\(String(size, radix: 16))\""
    }
}
