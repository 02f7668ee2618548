import Foundation
import Hummingbird
import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// A file answered to `GET` or `HEAD` the way browsers and video players expect (RFC 9110):
/// byte ranges, validators, conditional requests, read from disk in chunks.
///
/// ```swift
/// group.get("assets/{id}/video") { request, _ in
///     try await FileResponse.make(
///         fileAt: rendition, identity: "\(asset.localIdentifier) video", contentType: "video/mp4",
///         headers: [.cacheControl: "private, no-cache"], request: request)
/// }
/// ```
///
/// - Every answer says `Accept-Ranges: bytes` and carries a strong `ETag` (the caller's
///   `identity`, the file's size and its modification time to the nanosecond) and
///   `Last-Modified`.
/// - `Range: bytes=a-b`, `a-` or `-n` on a `GET` answers 206 with `Content-Range`; a range
///   starting at or past the end answers 416 with `Content-Range: bytes */size`. A malformed
///   `Range`, another unit, or several ranges answer the whole file (200): see ``ByteRange``.
///   `HEAD` ignores `Range`, as RFC 9110 defines range handling for `GET` only, and answers a
///   `GET`'s headers without its body.
/// - `If-Range` keeps the range when it names the current `ETag` (strong comparison) or
///   exactly the `Last-Modified` date of a file unchanged for at least a second (a date is a
///   strong validator only then); otherwise the whole file is sent.
/// - `If-None-Match` naming the current `ETag` (or `*`) answers 304.
enum FileResponse {
    /// The size of each read from disk and write to the connection.
    static let chunkSize = 512 << 10

    /// The response for the file at `url`, 404 when there is none. `headers` are added to every
    /// answer but 416 (`Content-Disposition`, `Cache-Control`, …).
    static func make(
        fileAt url: URL, identity: String, contentType: String, headers extra: HTTPFields = [:], request: Request
    ) async throws -> Response {
        guard let file = try await OpenFile.open(url) else {
            throw APIError.notFound("file for '\(identity)'")
        }
        let validators = Validators(file: file, identity: identity)
        var headers = extra
        headers[.contentType] = contentType
        headers[.acceptRanges] = "bytes"
        headers[.eTag] = validators.entityTag
        headers[.lastModified] = validators.lastModified
        headers[.contentLength] = String(file.size)
        if let tags = request.headers[.ifNoneMatch], validators.matchesWeakly(tags) {
            return Response(status: .notModified, headers: headers)
        }
        var resolution = ByteRange.Resolution.full
        if request.method == .get, let header = request.headers[.range], let range = ByteRange(header: header),
            validators.allowsRange(ifRange: request.headers[.ifRange])
        {
            resolution = range.resolve(size: file.size)
        }
        switch resolution {
        case .full:
            let body = request.method == .head || file.size == 0 ? ResponseBody() : file.body(0...(file.size - 1), chunkSize: chunkSize)
            return Response(status: .ok, headers: headers, body: body)
        case let .partial(range):
            headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound)/\(file.size)"
            headers[.contentLength] = String(range.count)
            return Response(status: .partialContent, headers: headers, body: file.body(range, chunkSize: chunkSize))
        case .unsatisfiable:
            throw unsatisfiable(request, size: file.size)
        }
    }

    /// 416 for a range past the end of `size` bytes, with `Content-Range: bytes */size`.
    static func unsatisfiable(_ request: Request, size: Int64) -> APIError {
        let asked = (request.headers[.range] ?? "").prefix(80)
        var error = APIError(.rangeNotSatisfiable, "The range '\(asked)' starts past the end of the file (\(size) bytes)")
        error.headers[.contentRange] = "bytes */\(size)"
        error.headers[.acceptRanges] = "bytes"
        return error
    }
}

extension FileResponse {
    /// A file's `ETag` and `Last-Modified`, and the conditions that read them.
    struct Validators {
        /// `"identity-size-mtime"`, hexadecimal; the identity hashed (FNV-1a, stable across runs).
        let entityTag: String
        let lastModified: String
        /// Whether the date is a strong validator: the file was last changed over a second ago.
        let dateIsStrong: Bool

        init(file: OpenFile, identity: String, now: Date = Date()) {
            let hash = Self.hash(identity)
            let modified = file.modifiedSeconds * 1_000_000_000 + file.modifiedNanoseconds
            entityTag = "\"\(String(hash, radix: 16))-\(String(file.size, radix: 16))-\(String(modified, radix: 16))\""
            lastModified = Self.httpDate(file.modifiedSeconds)
            dateIsStrong = Double(file.modifiedSeconds) + Double(file.modifiedNanoseconds) / 1e9 + 1 <= now.timeIntervalSince1970
        }

        /// `If-Range`: absent, the current `ETag` (strong comparison: a weak tag never matches),
        /// or exactly the current `Last-Modified` when that is strong.
        func allowsRange(ifRange: String?) -> Bool {
            guard let value = ifRange?.trimmingCharacters(in: .whitespaces) else { return true }
            if value.hasPrefix("\"") || value.hasPrefix("W/") { return value == entityTag }
            return dateIsStrong && value == lastModified
        }

        /// `If-None-Match`: `*`, or a list naming the current `ETag` (weak comparison).
        func matchesWeakly(_ header: String) -> Bool {
            Self.matchesWeakly(header, entityTag)
        }

        /// Whether an `If-None-Match` list is `*` or names `entityTag` (weak comparison).
        static func matchesWeakly(_ header: String, _ entityTag: String) -> Bool {
            header.split(separator: ",").contains { tag in
                let tag = tag.trimmingCharacters(in: .whitespaces)
                return tag == "*" || (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == entityTag
            }
        }

        /// FNV-1a of the text's UTF-8: stable across runs and instances.
        static func hash(_ text: String) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in text.utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            return hash
        }

        /// `Sun, 06 Nov 1994 08:49:37 GMT` (IMF-fixdate, RFC 9110 §5.6.7).
        static func httpDate(_ secondsSince1970: Int64) -> String {
            var time = time_t(secondsSince1970)
            var parts = tm()
            gmtime_r(&time, &parts)
            let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
            let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
            func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
            return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
                + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        }
    }
}
