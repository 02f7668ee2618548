public import Foundation
import Crypto

/// AWS Signature Version 4 for S3 (`AWS4-HMAC-SHA256`), as AWS documents it in "Authenticating
/// Requests (AWS Signature Version 4)": a canonical request, the string to sign, a signing key
/// derived from the secret, the date, the region and the service, and the `Authorization`
/// header or the query of a presigned URL.
///
/// S3's rules, which differ from other AWS services: the path is signed as sent (encoded once,
/// `/` kept, never normalized), and the payload's SHA-256 is sent in `x-amz-content-sha256`
/// (or `UNSIGNED-PAYLOAD`). Checked against AWS's published examples and against botocore's
/// `S3SigV4Auth` on randomized requests (`SignatureV4Tests`).
public struct SignatureV4: Sendable {
    public var credentials: AWSCredentials
    public var region: String
    public var service: String

    /// What `x-amz-content-sha256` says when the payload isn't signed (a presigned URL, or a
    /// body whose integrity another header vouches for).
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// The SHA-256 of no bytes, the payload hash of a request without a body.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    public init(credentials: AWSCredentials, region: String, service: String = "s3") {
        self.credentials = credentials
        self.region = region
        self.service = service
    }

    /// A request as it is signed: the method, the encoded path (as sent), the query's pairs
    /// (not encoded yet), the headers (`host` among them).
    public struct Request: Sendable {
        public var method: String
        /// The path as it goes on the wire: each key's bytes encoded by ``S3Key/encodePath(_:)``.
        public var path: String
        public var query: [(name: String, value: String)]
        public var headers: [(name: String, value: String)]

        public init(method: String, path: String, query: [(name: String, value: String)] = [], headers: [(name: String, value: String)]) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
        }

        /// The encoded query string, in signing order (the order a server also accepts).
        public var queryString: String {
            SignatureV4.canonicalQuery(query)
        }
    }

    /// Signs `request` at `date`: adds `x-amz-date`, `x-amz-content-sha256`, the session token
    /// when there is one, and `authorization`.
    public func sign(_ request: inout Request, payloadHash: String, date: Date) {
        let stamp = Self.timestamp(date)
        request.headers.removeAll { ["authorization", "x-amz-date", "x-amz-content-sha256", "x-amz-security-token"].contains($0.name.lowercased()) }
        request.headers.append(("x-amz-date", stamp))
        request.headers.append(("x-amz-content-sha256", payloadHash))
        if let token = credentials.sessionToken { request.headers.append(("x-amz-security-token", token)) }
        let (canonicalHeaders, signedHeaders) = Self.canonicalHeaders(request.headers)
        let canonical = [
            request.method, request.path, Self.canonicalQuery(request.query), canonicalHeaders, signedHeaders, payloadHash,
        ].joined(separator: "\n")
        let scope = scope(date: stamp)
        let signature = signature(canonicalRequest: canonical, timestamp: stamp, scope: scope)
        request.headers.append(
            ("authorization", "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(scope), SignedHeaders=\(signedHeaders), Signature=\(signature)"))
    }

    /// A presigned URL's query for `request` (whose headers are only `host` and what the user
    /// of the URL must also send), valid `expires` seconds from `date` (AWS allows 1 to 604,800).
    public func presignedQuery(_ request: Request, expires: Int, date: Date) -> [(name: String, value: String)] {
        let stamp = Self.timestamp(date)
        let scope = scope(date: stamp)
        let (canonicalHeaders, signedHeaders) = Self.canonicalHeaders(request.headers)
        var query = request.query
        query.append(("X-Amz-Algorithm", "AWS4-HMAC-SHA256"))
        query.append(("X-Amz-Credential", "\(credentials.accessKeyID)/\(scope)"))
        query.append(("X-Amz-Date", stamp))
        query.append(("X-Amz-Expires", String(expires)))
        if let token = credentials.sessionToken { query.append(("X-Amz-Security-Token", token)) }
        query.append(("X-Amz-SignedHeaders", signedHeaders))
        let canonical = [
            request.method, request.path, Self.canonicalQuery(query), canonicalHeaders, signedHeaders, Self.unsignedPayload,
        ].joined(separator: "\n")
        query.append(("X-Amz-Signature", signature(canonicalRequest: canonical, timestamp: stamp, scope: scope)))
        return query
    }

    /// `20130524/us-east-1/s3/aws4_request`.
    func scope(date stamp: String) -> String {
        "\(stamp.prefix(8))/\(region)/\(service)/aws4_request"
    }

    func signature(canonicalRequest: String, timestamp: String, scope: String) -> String {
        let stringToSign = ["AWS4-HMAC-SHA256", timestamp, scope, Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))]
            .joined(separator: "\n")
        var key = SymmetricKey(data: Data("AWS4\(credentials.secretAccessKey)".utf8))
        for part in [String(timestamp.prefix(8)), region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return Self.hex(HMAC<SHA256>.authenticationCode(for: Data(stringToSign.utf8), using: key))
    }

    /// Lower-cased names sorted, values trimmed with inner runs of spaces made one; the names
    /// joined by `;` are the signed headers.
    static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> (String, String) {
        var merged: [String: [String]] = [:]
        for (name, value) in headers {
            let collapsed = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            merged[name.lowercased(), default: []].append(collapsed)
        }
        let names = merged.keys.sorted()
        let canonical = names.map { "\($0):\(merged[$0]!.joined(separator: ","))\n" }.joined()
        return (canonical, names.joined(separator: ";"))
    }

    /// Each name and value encoded (RFC 3986's unreserved characters kept), sorted by name
    /// and then value, joined by `&`.
    static func canonicalQuery(_ query: [(name: String, value: String)]) -> String {
        query.map { (S3Key.encode($0.name), S3Key.encode($0.value)) }
            .sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// `20130524T000000Z`, in UTC.
    public static func timestamp(_ date: Date) -> String {
        let components = Calendar.utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String { value.map { $0 < 10 ? "0\($0)" : String($0) } ?? "00" }
        return "\(components.year ?? 1970)\(two(components.month))\(two(components.day))T\(two(components.hour))\(two(components.minute))\(two(components.second))Z"
    }

    static func hex<D: Sequence>(_ digest: D) -> String where D.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        for byte in digest {
            bytes.append(digits[Int(byte >> 4)])
            bytes.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The hex SHA-256 of `data`, for `x-amz-content-sha256`.
    public static func payloadHash(_ data: some DataProtocol) -> String {
        hex(SHA256.hash(data: data))
    }
}

extension Calendar {
    static let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()
}

/// How object keys and query values are written in a request: RFC 3986's unreserved
/// characters (`A-Z a-z 0-9 - _ . ~`) as they are, every other byte of the UTF-8 as `%XX`.
public enum S3Key {
    public static func encode(_ text: String) -> String {
        encode(text, keeping: nil)
    }

    /// A path: as ``encode(_:)``, with `/` kept.
    public static func encodePath(_ text: String) -> String {
        encode(text, keeping: UInt8(ascii: "/"))
    }

    private static func encode(_ text: String, keeping kept: UInt8?) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "~"):
                bytes.append(byte)
            case kept:
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
