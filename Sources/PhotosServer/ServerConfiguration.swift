public import Foundation

/// How `photos serve` runs: where, for whom, with what limits.
public struct ServerConfiguration: Sendable {
    /// The address to bind; loopback unless asked otherwise.
    public var host: String
    public var port: Int
    /// Serve without tokens: every client is read-write. Allowed on a loopback address only.
    public var allowsUnauthenticatedAccess: Bool
    /// The largest upload accepted, in bytes (413 above it).
    public var uploadLimit: Int
    /// Bytes of encoded images (JPEG/WebP) kept in memory for repeated requests.
    public var encodedImageCacheLimit: Int
    /// How long a session cookie lasts without use.
    public var sessionLifetime: TimeInterval
    /// How long a connection may stay open without sending a request (nginx's
    /// `client_header_timeout`); browsers open spare connections they may never use.
    public var firstRequestTimeout: TimeInterval
    /// After the first request, how long a client may send nothing while a request's body is
    /// due, or between an answer and its next request, before the connection is closed
    /// (nginx's `client_body_timeout` and `keepalive_timeout`). A response being written is
    /// not limited.
    public var idleTimeout: TimeInterval
    /// For a library whose originals are in a bucket: answer `/original` and `/video` for a
    /// movie or original not on this machine with a redirect (307) to a presigned URL valid
    /// this many seconds, so the bytes go from the store to the browser directly; `nil`
    /// streams them through the server (byte ranges mapped to ranged `GET`s). The browser must
    /// reach the store's endpoint, and anyone given the URL may read that one object until it
    /// expires.
    public var originalsRedirectExpiry: Int?
    /// How long a connection whose request the parser refused stays open for reading (what the
    /// client is still sending is dropped) after the answer went out and its sending side was
    /// closed (``ProtocolErrorResponder``). Tests set it long, to see the answer's own close.
    package var refusedRequestLinger: TimeInterval = 5
    /// Whether the server owns its library: once its last request is answered it closes the
    /// library's database connections (``DatabaseConnections``). `photos serve` does; tests,
    /// which go on with the library after the server, don't.
    package var ownsLibrary = false

    public init(
        host: String = "127.0.0.1", port: Int = 8080, allowsUnauthenticatedAccess: Bool = false,
        uploadLimit: Int = 1 << 30, encodedImageCacheLimit: Int = 256 << 20, sessionLifetime: TimeInterval = 30 * 86_400,
        firstRequestTimeout: TimeInterval = 60, idleTimeout: TimeInterval = 60
    ) {
        self.host = host
        self.port = port
        self.allowsUnauthenticatedAccess = allowsUnauthenticatedAccess
        self.uploadLimit = uploadLimit
        self.encodedImageCacheLimit = encodedImageCacheLimit
        self.sessionLifetime = sessionLifetime
        self.firstRequestTimeout = firstRequestTimeout
        self.idleTimeout = idleTimeout
    }

    /// Whether `host` is a loopback address (127.0.0.0/8, ::1, localhost).
    public var isLoopback: Bool { Self.isLoopback(name: host) }

    private static func isLoopback(name: String) -> Bool {
        if name == "localhost" || name == "::1" { return true }
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Whether a request's `Host` (`name[:port]`, `[v6]:port`) names this machine's loopback:
    /// `localhost`, 127.0.0.0/8 or `[::1]`. A server without tokens answers only such requests,
    /// so a web page whose own host name was made to resolve to 127.0.0.1 (DNS rebinding)
    /// can't read the library through the visitor's browser.
    public static func isLoopback(hostHeader: String?) -> Bool {
        guard var name = hostHeader?.lowercased() else { return false }
        if name.hasPrefix("[") {
            guard let close = name.firstIndex(of: "]") else { return false }
            name = String(name[name.index(after: name.startIndex)..<close])
        } else if let colon = name.lastIndex(of: ":") {
            name = String(name[..<colon])
        }
        return isLoopback(name: name)
    }

    /// Refuses combinations that would expose the library: no tokens off loopback.
    public func validate() throws(ServerConfigurationError) {
        if allowsUnauthenticatedAccess && !isLoopback {
            throw ServerConfigurationError("Serving without tokens is allowed on a loopback address only, not on \(host)")
        }
        guard (0...65_535).contains(port) else { throw ServerConfigurationError("The port must be 0-65535, not \(port)") }
        guard uploadLimit > 0 else { throw ServerConfigurationError("The upload limit must be positive") }
        guard firstRequestTimeout > 0 else { throw ServerConfigurationError("The first-request timeout must be positive") }
        guard idleTimeout > 0 else { throw ServerConfigurationError("The idle timeout must be positive") }
        if let expiry = originalsRedirectExpiry, !(1...604_800).contains(expiry) {
            throw ServerConfigurationError("A presigned URL lasts 1 to 604800 seconds, not \(expiry)")
        }
    }
}

/// A configuration `photos serve` refuses to start with.
public struct ServerConfigurationError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ description: String) { self.description = description }
}
