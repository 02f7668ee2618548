public import Foundation
import AsyncHTTPClient
public import Logging
public import NIOCore
import NIOFileSystem
import NIOHTTP1
import NIOPosix
import PhotosLocking

/// A small S3 client: the calls a photo library needs (PUT with a checksum, multipart upload,
/// ranged GET, HEAD, DELETE, ListObjectsV2) on async-http-client, signed with ``SignatureV4``.
///
/// Every call is retried with exponential backoff and full jitter on 500, 502, 503, 504 and 429
/// answers, dropped connections and timeouts (``RetryPolicy``); then it throws an
/// ``S3Error`` of kind ``S3Error/Kind/unavailable`` naming the last cause. Uploads read their
/// file and downloads write theirs in chunks, off the event loops (NIOFileSystem): memory does
/// not grow with the file's size.
///
/// Linux addition: Apple's PhotoKit keeps originals in iCloud, which needs no client.
public struct S3Client: Sendable {
    public let configuration: S3Configuration
    public let retry: RetryPolicy
    /// How long a connection may take to open, and a request may wait for its next bytes.
    public let timeouts: Timeouts
    let logger: Logger
    let http: HTTPClient

    public struct RetryPolicy: Sendable {
        /// Attempts in all, the first included.
        public var attempts: Int
        public var baseDelay: Duration
        public var maximumDelay: Duration

        public init(attempts: Int = 5, baseDelay: Duration = .milliseconds(100), maximumDelay: Duration = .seconds(5)) {
            self.attempts = max(1, attempts)
            self.baseDelay = baseDelay
            self.maximumDelay = maximumDelay
        }

        /// The wait before attempt `attempt + 1` (after attempt `attempt`, 1-based): a random
        /// share of `baseDelay × 2^(attempt - 1)`, at most `maximumDelay` ("full jitter").
        func delay(after attempt: Int) -> Duration {
            let ceiling = min(maximumDelay, baseDelay * (1 << min(attempt - 1, 20)))
            let nanoseconds = ceiling.components.seconds * 1_000_000_000 + ceiling.components.attoseconds / 1_000_000_000
            return .nanoseconds(Int64.random(in: 0...max(0, nanoseconds)))
        }
    }

    public struct Timeouts: Sendable {
        public var connect: Duration
        public var read: Duration

        /// `connect`: how long a request waits for a connection (async-http-client tries
        /// connecting again within it); a store that is away fails after it, not after retries.
        public init(connect: Duration = .seconds(5), read: Duration = .seconds(30)) {
            self.connect = connect
            self.read = read
        }
    }

    public init(
        configuration: S3Configuration, retry: RetryPolicy = RetryPolicy(), timeouts: Timeouts = Timeouts(),
        logger: Logger = Logger(label: "photokit.s3")
    ) {
        self.configuration = configuration
        self.retry = retry
        self.timeouts = timeouts
        self.logger = logger
        http = Self.sharedHTTPClient(timeouts)
    }

    // MARK: Objects

    /// What `HEAD` tells of an object.
    public struct ObjectInfo: Sendable, Equatable {
        public var size: Int64
        public var eTag: String?
        /// The object's SHA-256 (base64), when it was stored with one.
        public var checksumSHA256: String?
        public var lastModified: Date?
    }

    /// Stores `data` at `key`, with its SHA-256 signed and sent as `x-amz-checksum-sha256`: the
    /// server refuses bytes that don't match.
    public func putObject(bucket: String, key: String, data: Data, contentType: String? = nil) async throws(S3Error) {
        let digest = SHA256Digest(data)
        var headers = digest.headers
        if let contentType { headers.append(("content-type", contentType)) }
        headers.append(("content-length", String(data.count)))
        _ = try await send(
            "PUT", bucket: bucket, key: key, headers: headers, payloadHash: digest.hex, body: { .bytes(ByteBuffer(bytes: data)) }, what: "store")
    }

    /// Stores the file at `file` at `key`, read in chunks (twice: once for its SHA-256, once
    /// to send), with the checksum checked by the server. Files of `multipartThreshold` bytes
    /// or more go up as a multipart upload, `partSize` bytes a part, `concurrency` at once.
    /// `sha256Hex`: the file's SHA-256 when the caller has it already (the file is then read
    /// once); the server checks it all the same, so a wrong one fails with `BadDigest`.
    public func putObject(
        bucket: String, key: String, file: URL, contentType: String? = nil, sha256Hex: String? = nil,
        multipartThreshold: Int64 = 64 << 20, partSize: Int64 = 16 << 20, concurrency: Int = 4
    ) async throws(S3Error) {
        let size = try await Self.fileSize(file)
        if size >= multipartThreshold {
            try await multipartUpload(
                bucket: bucket, key: key, file: file, size: size, contentType: contentType, partSize: Self.partSize(forFileOf: size, preferred: partSize),
                concurrency: concurrency)
            return
        }
        let known = sha256Hex.flatMap(SHA256Digest.init(hex:))
        let digest = if let known { known } else { try await SHA256Digest(file: file, range: 0..<size) }
        var headers = digest.headers
        if let contentType { headers.append(("content-type", contentType)) }
        headers.append(("content-length", String(size)))
        _ = try await send(
            "PUT", bucket: bucket, key: key, headers: headers, payloadHash: digest.hex,
            body: { Self.fileBody(file, range: 0..<size) }, what: "store")
    }

    /// `HEAD`: the object's size and checksum; ``S3Error/Kind/noSuchKey`` when it isn't there.
    public func headObject(bucket: String, key: String) async throws(S3Error) -> ObjectInfo {
        let response = try await send(
            "HEAD", bucket: bucket, key: key, headers: [("x-amz-checksum-mode", "ENABLED")], payloadHash: SignatureV4.emptyPayloadHash,
            what: "look up")
        return ObjectInfo(
            size: Int64(response.headers.first(name: "content-length") ?? "") ?? 0,
            eTag: response.headers.first(name: "etag"),
            checksumSHA256: response.headers.first(name: "x-amz-checksum-sha256"),
            lastModified: response.headers.first(name: "last-modified").flatMap(Self.httpDate))
    }

    /// The object's bytes (`range`: a byte range, as `Range: bytes=` says it) in memory: for
    /// small objects. Large ones go through ``download(bucket:key:to:range:progress:)`` or
    /// ``stream(bucket:key:range:)``.
    public func getObject(bucket: String, key: String, range: ClosedRange<Int64>? = nil, limit: Int = 64 << 20) async throws(S3Error) -> Data {
        let response = try await stream(bucket: bucket, key: key, range: range)
        do {
            var buffer = try await response.body.collect(upTo: limit)
            return Data(buffer.readBytes(length: buffer.readableBytes) ?? [])
        } catch {
            throw S3Error(.integrity, "Reading s3://\(bucket)/\(key) ended early: \(Self.describe(error))")
        }
    }

    /// An object's answer: status, headers, and its body to read as it comes (the first bytes
    /// arrive before the last are sent). `range` becomes `Range: bytes=LOW-HIGH`.
    public func stream(bucket: String, key: String, range: ClosedRange<Int64>? = nil) async throws(S3Error) -> ObjectStream {
        var headers: [(String, String)] = []
        if let range { headers.append(("range", "bytes=\(range.lowerBound)-\(range.upperBound)")) }
        let response = try await send("GET", bucket: bucket, key: key, headers: headers, payloadHash: SignatureV4.emptyPayloadHash, what: "read")
        return ObjectStream(response)
    }

    /// An object's bytes as the server sends them.
    public struct ObjectStream: Sendable {
        /// 200, or 206 for a range.
        public var status: Int
        public var contentLength: Int64?
        /// `bytes LOW-HIGH/TOTAL`, for a range.
        public var contentRange: String?
        public var contentType: String?
        public var eTag: String?
        public let body: Body

        init(_ response: HTTPClientResponse) {
            status = Int(response.status.code)
            contentLength = response.headers.first(name: "content-length").flatMap { Int64($0) }
            contentRange = response.headers.first(name: "content-range")
            contentType = response.headers.first(name: "content-type")
            eTag = response.headers.first(name: "etag")
            body = Body(base: response.body)
        }

        /// The body's chunks (NIO's `ByteBuffer`), read once.
        public struct Body: AsyncSequence, Sendable {
            public typealias Element = ByteBuffer
            let base: HTTPClientResponse.Body

            public struct AsyncIterator: AsyncIteratorProtocol {
                var base: HTTPClientResponse.Body.AsyncIterator
                public mutating func next() async throws -> ByteBuffer? { try await base.next() }
            }

            public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: base.makeAsyncIterator()) }

            /// At most `limit` bytes, all of them.
            public func collect(upTo limit: Int) async throws -> ByteBuffer { try await base.collect(upTo: limit) }
        }
    }

    /// Writes the object (or `range` of it) to `destination`, replacing it, chunk by chunk;
    /// `progress` gets the bytes written so far and the total. A download cut short is tried
    /// again from the start, as the other calls are.
    public func download(
        bucket: String, key: String, to destination: URL, range: ClosedRange<Int64>? = nil,
        progress: (@Sendable (_ written: Int64, _ total: Int64) -> Void)? = nil
    ) async throws(S3Error) {
        var attempt = 1
        while true {
            let response = try await stream(bucket: bucket, key: key, range: range)
            let total = response.contentLength ?? -1
            do {
                let written = try await FileSystem.shared.withFileHandle(
                    forWritingAt: FilePath(destination.path), options: .newFile(replaceExisting: true)
                ) { handle in
                    var writer = handle.bufferedWriter(capacity: .kibibytes(256))
                    var written: Int64 = 0
                    for try await chunk in response.body {
                        try await writer.write(contentsOf: chunk)
                        written += Int64(chunk.readableBytes)
                        progress?(written, total)
                        try Task.checkCancellation()
                    }
                    try await writer.flush()
                    return written
                }
                guard total < 0 || written == total else {
                    throw S3Error(.integrity, "s3://\(bucket)/\(key) ended after \(written) of \(total) bytes")
                }
                return
            } catch {
                if Task.isCancelled { throw S3Error(.cancelled, "Reading s3://\(bucket)/\(key) was stopped") }
                let failure = error as? S3Error ?? S3Error(.unavailable, "Reading s3://\(bucket)/\(key) failed: \(Self.describe(error))")
                guard attempt < retry.attempts, Self.isTransient(error) || failure.kind == .integrity else { throw failure }
                logger.notice("s3: reading \(key) failed (attempt \(attempt)), trying again: \(failure)")
                try? await Task.sleep(for: retry.delay(after: attempt))
                attempt += 1
            }
        }
    }

    /// `DELETE`; deleting what isn't there succeeds, as S3 answers it.
    public func deleteObject(bucket: String, key: String) async throws(S3Error) {
        _ = try await send("DELETE", bucket: bucket, key: key, headers: [], payloadHash: SignatureV4.emptyPayloadHash, what: "delete")
    }

    /// One object of a listing.
    public struct ListedObject: Sendable, Equatable {
        public var key: String
        public var size: Int64
        public var lastModified: Date?
        public var eTag: String?
    }

    /// ListObjectsV2, every page: the objects whose keys start with `prefix`, in key order.
    public func listObjects(bucket: String, prefix: String = "", pageSize: Int = 1000) async throws(S3Error) -> [ListedObject] {
        var objects: [ListedObject] = []
        var continuation: String?
        repeat {
            let page = try await listPage(bucket: bucket, prefix: prefix, maxKeys: pageSize, continuation: continuation)
            objects += page.objects
            continuation = page.next
        } while continuation != nil
        return objects
    }

    func listPage(bucket: String, prefix: String, maxKeys: Int, continuation: String?) async throws(S3Error) -> S3ListPage {
        var query: [(name: String, value: String)] = [("list-type", "2"), ("max-keys", String(maxKeys)), ("prefix", prefix)]
        if let continuation { query.append(("continuation-token", continuation)) }
        let response = try await send("GET", bucket: bucket, key: nil, query: query, headers: [], payloadHash: SignatureV4.emptyPayloadHash, what: "list")
        let body = try await Self.collect(response, what: "the listing of s3://\(bucket)/\(prefix)")
        return try S3ListPage(xml: body)
    }

    /// CreateBucket (in the configured region, named in the body outside `us-east-1`).
    public func createBucket(_ bucket: String) async throws(S3Error) {
        let region = configuration.region
        let body = region == "us-east-1"
            ? Data()
            : Data(
                "<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><LocationConstraint>\(region)</LocationConstraint></CreateBucketConfiguration>"
                    .utf8)
        var payload: (@Sendable () -> HTTPClientRequest.Body)?
        if !body.isEmpty {
            let buffer = ByteBuffer(bytes: body)
            payload = { HTTPClientRequest.Body.bytes(buffer) }
        }
        _ = try await send(
            "PUT", bucket: bucket, key: nil, headers: [("content-length", String(body.count))], payloadHash: SignatureV4.payloadHash(body),
            body: payload, what: "create")
    }

    /// Checks that the bucket is there and the credentials and clock are accepted, with a
    /// listing of at most one key under `prefix`: what a library does when it opens, so a
    /// mistake is named at start, not at the first upload.
    public func checkAccess(bucket: String, prefix: String = "") async throws(S3Error) {
        _ = try await listPage(bucket: bucket, prefix: prefix, maxKeys: 1, continuation: nil)
    }

    /// A URL anyone can `GET` the object with for `expires` seconds (1 to 604,800), signed with
    /// the configured credentials, without a request. `responseHeaders` are the answer's
    /// headers the URL sets (S3's `response-content-type`, `response-content-disposition`,
    /// `response-cache-control`, ...: the header's name after `response-`), signed with it.
    public func presignedURL(
        bucket: String, key: String, expires: Int, responseHeaders: [(name: String, value: String)] = [], date: Date = Date()
    ) -> URL {
        let target = address(bucket: bucket, key: key)
        let signer = SignatureV4(credentials: configuration.credentials, region: configuration.region)
        let overrides = responseHeaders.map { (name: "response-" + $0.name.lowercased(), value: $0.value) }
        let request = SignatureV4.Request(method: "GET", path: target.path, query: overrides, headers: [("host", target.host)])
        let query = SignatureV4.canonicalQuery(signer.presignedQuery(request, expires: min(max(expires, 1), 604_800), date: date))
        return URL(string: "\(target.origin)\(target.path)?\(query)")!
    }

    // MARK: Requests

    /// Where a request goes: `origin` (scheme, host, port), the `Host` header, the encoded path.
    struct Address {
        var origin: String
        var host: String
        var path: String
    }

    func address(bucket: String, key: String?) -> Address {
        let encodedKey = key.map { "/" + S3Key.encodePath($0) } ?? "/"
        let endpoint = configuration.endpoint ?? URL(string: "https://s3.\(configuration.region).amazonaws.com")!
        let scheme = endpoint.scheme?.lowercased() ?? "https"
        let port = endpoint.port
        let defaultPort = scheme == "https" ? 443 : 80
        let hostName = endpoint.host ?? "s3.amazonaws.com"
        func withPort(_ host: String) -> String { port.map { $0 == defaultPort ? host : "\(host):\($0)" } ?? host }
        if configuration.usesPathStyle {
            let host = withPort(hostName)
            return Address(origin: "\(scheme)://\(host)", host: host, path: "/" + S3Key.encode(bucket) + (key == nil ? "" : encodedKey))
        }
        let host = withPort("\(bucket).\(hostName)")
        return Address(origin: "\(scheme)://\(host)", host: host, path: encodedKey)
    }

    /// Signs and sends one request, retrying what may pass; answers 2xx (and 206) or throws the
    /// server's error, read from its XML.
    func send(
        _ method: String, bucket: String, key: String?, query: [(name: String, value: String)] = [], headers: [(String, String)],
        payloadHash: String, body: (@Sendable () -> HTTPClientRequest.Body)? = nil, what: String
    ) async throws(S3Error) -> HTTPClientResponse {
        let target = address(bucket: bucket, key: key)
        let signer = SignatureV4(credentials: configuration.credentials, region: configuration.region)
        let name = key.map { "s3://\(bucket)/\($0)" } ?? "s3://\(bucket)"
        var attempt = 1
        while true {
            var request = SignatureV4.Request(method: method, path: target.path, query: query, headers: [("host", target.host)] + headers)
            signer.sign(&request, payloadHash: payloadHash, date: Date())
            var outgoing = HTTPClientRequest(url: target.origin + target.path + (query.isEmpty ? "" : "?" + request.queryString))
            outgoing.method = HTTPMethod(rawValue: method)
            for (header, value) in request.headers where header != "host" { outgoing.headers.add(name: header, value: value) }
            if let body { outgoing.body = body() }
            let failure: S3Error
            let transient: Bool
            do {
                let response = try await http.execute(outgoing, timeout: .seconds(3600), logger: logger)
                let status = Int(response.status.code)
                if (200..<300).contains(status) { return response }
                let text = method == "HEAD" ? Data() : (try? await Self.collect(response, what: name)) ?? Data()
                failure = S3ServerError.make(status: status, body: text, name: name, what: what)
                transient = [500, 502, 503, 504, 429].contains(status) || failure.code == "SlowDown" || failure.code == "RequestTimeout"
            } catch {
                failure = S3Error(.unavailable, "Could not \(what) \(name) at \(target.origin): \(Self.describe(error))")
                // The pool has tried to connect for the whole connect timeout already.
                transient = Self.isTransient(error) && !Self.isConnectFailure(error)
            }
            guard transient, attempt < retry.attempts, !Task.isCancelled else {
                // Retried: unavailable, however it began, and saying how often it was tried.
                guard transient, attempt > 1 else { throw failure }
                throw S3Error(
                    failure.kind == .integrity ? .integrity : .unavailable, "\(failure.message) (after \(attempt) attempts)",
                    status: failure.status, code: failure.code)
            }
            logger.notice("s3: could not \(what) \(name) (attempt \(attempt) of \(retry.attempts)): \(failure)")
            try? await Task.sleep(for: retry.delay(after: attempt))
            attempt += 1
        }
    }

    /// No connection could be made (refused, unreachable, timed out): async-http-client's pool
    /// retries connecting until the connect timeout, so another attempt would only wait as long.
    static func isConnectFailure(_ error: any Error) -> Bool {
        if let error = error as? HTTPClientError { return error == .connectTimeout || error == .getConnectionFromPoolTimeout }
        if error is NIOConnectionError { return true }
        if let error = error as? IOError { return [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, ETIMEDOUT].contains(error.errnoCode) }
        return false
    }

    static func isTransient(_ error: any Error) -> Bool {
        if let error = error as? HTTPClientError {
            return [
                .remoteConnectionClosed, .readTimeout, .writeTimeout, .connectTimeout, .deadlineExceeded, .uncleanShutdown,
                .getConnectionFromPoolTimeout, .tlsHandshakeTimeout, .bodyLengthMismatch,
            ].contains(error)
        }
        if error is NIOConnectionError || error is IOError || error is ChannelError { return true }
        return !(error is S3Error) && !(error is CancellationError)
    }

    static func describe(_ error: any Error) -> String {
        if let error = error as? NIOConnectionError {
            return "could not connect to \(error.host):\(error.port) (\(error.connectionErrors.map { "\($0.error)" }.joined(separator: ", ")))"
        }
        return String(describing: error)
    }

    static func collect(_ response: HTTPClientResponse, what: String) async throws(S3Error) -> Data {
        do {
            var buffer = try await response.body.collect(upTo: 16 << 20)
            return Data(buffer.readBytes(length: buffer.readableBytes) ?? [])
        } catch {
            throw S3Error(.unavailable, "Reading \(what) ended early: \(describe(error))")
        }
    }

    // MARK: Files

    static func fileSize(_ file: URL) async throws(S3Error) -> Int64 {
        do {
            guard let info = try await FileSystem.shared.info(forFileAt: FilePath(file.path)) else {
                throw S3Error(.configuration, "\(file.path) does not exist")
            }
            return info.size
        } catch let error as S3Error {
            throw error
        } catch {
            throw S3Error(.configuration, "Could not read \(file.path): \(error)")
        }
    }

    /// The file's bytes in `range`, 1 MiB chunks read as the connection takes them.
    static func fileBody(_ file: URL, range: Range<Int64>) -> HTTPClientRequest.Body {
        .stream(FileChunkSequence(path: FilePath(file.path), range: range), length: .known(Int64(range.count)))
    }

    static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text)
    }

    // MARK: The HTTP client

    /// One HTTP client per timeout setting for the process (connections pooled across
    /// libraries), never shut down, as `HTTPClient.shared`. Redirects aren't followed
    /// (a signed request is signed for one host) and nothing is decompressed.
    static func sharedHTTPClient(_ timeouts: Timeouts) -> HTTPClient {
        let key = "\(timeouts.connect)/\(timeouts.read)"
        return clients.withLock { clients in
            if let client = clients[key] { return client }
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                timeout: .init(connect: .nanoseconds(Self.nanoseconds(timeouts.connect)), read: .nanoseconds(Self.nanoseconds(timeouts.read))),
                decompression: .disabled)
            configuration.httpVersion = .http1Only
            configuration.connectionPool = .init(idleTimeout: .seconds(60))
            let client = HTTPClient(eventLoopGroup: MultiThreadedEventLoopGroup.singleton, configuration: configuration)
            clients[key] = client
            return client
        }
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    }

    private static let clients = Mutex<[String: HTTPClient]>([:])
}
