import Foundation
import Photos
import PhotosLocking

/// Authenticates clients: bearer secrets and session cookies, with the tokens and allow-lists
/// read from the library cached until the library's ``LibraryAccess/version`` moves
/// (a `photos token` command in another process reaches a running server within a second).
///
/// A token's sessions are kept in the library (`LibraryAccess.createSession`), so they outlive a
/// restart; a session's token is remembered here for ``sessionRecheck`` between reads. Sessions
/// of an open server (no token) live in memory only.
final class AccessGate: Sendable {
    static let cookieName = "photos_session"
    /// How long a session read from the library is trusted before it is read again.
    static let sessionRecheck: TimeInterval = 60
    /// At most this many sessions are remembered (all forgotten past it; they are read again).
    static let rememberedSessions = 10_000

    private struct Session {
        let tokenIdentifier: String?
        /// Open sessions: when they started (they last ``ServerConfiguration/sessionLifetime``,
        /// as the cookie does). A token's: when the library last said the session is valid.
        let since: Date
    }

    private struct Caches {
        var version = -1
        var bySecret: [String: PHAccessToken] = [:]
        var byIdentifier: [String: PHAccessToken?] = [:]
        var allowLists: [String: Set<String>] = [:]
    }

    private let library: PHPhotoLibrary
    private let configuration: ServerConfiguration
    private let sessions = Mutex<[String: Session]>([:])
    private let caches = Mutex(Caches())
    /// The library's access version as last seen; caches made at another version are dropped.
    private let version: Atomic<Int>

    init(library: PHPhotoLibrary, configuration: ServerConfiguration) {
        self.library = library
        self.configuration = configuration
        version = Atomic(library.access.version)
    }

    /// Re-reads the library's access version (after this server changed tokens or allow-lists,
    /// or when ``LibraryAccess/changes`` says another process did); returns it.
    @discardableResult
    func refresh() -> Int {
        let current = library.access.version
        version.store(current, ordering: .sequentiallyConsistent)
        return current
    }

    /// The client for a bearer secret or a session id; `nil` when neither is valid.
    func client(bearer: String?, session: String?) throws -> ClientAccess? {
        if configuration.allowsUnauthenticatedAccess && bearer == nil && session == nil { return .open }
        if let bearer {
            guard let token = try token(forSecret: bearer) else { return nil }
            return try access(for: token)
        }
        guard let session, let tokenIdentifier = try lookUp(session: session) else {
            // A stale cookie on a server without tokens is no reason to refuse.
            return configuration.allowsUnauthenticatedAccess && bearer == nil ? .open : nil
        }
        guard let tokenIdentifier else { return .open }
        guard let token = try token(withIdentifier: tokenIdentifier) else {
            endSession(session)
            return nil
        }
        return try access(for: token)
    }

    /// Starts a session for a secret (or for an open server without one); `nil` when the
    /// secret is wrong.
    func startSession(secret: String?) throws -> (id: String, client: ClientAccess)? {
        let client: ClientAccess
        if let secret, !secret.isEmpty {
            guard let token = try token(forSecret: secret) else { return nil }
            client = try access(for: token)
        } else if configuration.allowsUnauthenticatedAccess {
            client = .open
        } else {
            return nil
        }
        let id: String
        if let token = client.token, !library.isReadOnly {
            // A read-only library can't keep the session: it lives in this server's memory.
            id = try library.access.createSession(forAccessToken: token.identifier, lifetime: configuration.sessionLifetime)
        } else {
            id = Self.sessionID()
        }
        remember(id, Session(tokenIdentifier: client.token?.identifier, since: Date()))
        return (id, client)
    }

    func endSession(_ id: String) {
        _ = sessions.withLock { $0.removeValue(forKey: id) }
        _ = try? library.access.endSession(secret: id)
    }

    private func remember(_ id: String, _ session: Session) {
        sessions.withLock { sessions in
            if sessions.count >= Self.rememberedSessions { sessions.removeAll(keepingCapacity: true) }
            sessions[id] = session
        }
    }

    /// The session's token identifier (`.some(nil)` for an open session); `nil` when there is
    /// no such session or it expired.
    private func lookUp(session id: String) throws -> String?? {
        let now = Date()
        let remembered = sessions.withLock { sessions -> Session? in
            guard let session = sessions[id] else { return nil }
            let limit = session.tokenIdentifier == nil || library.isReadOnly ? configuration.sessionLifetime : Self.sessionRecheck
            guard now.timeIntervalSince(session.since) < limit else {
                sessions[id] = nil
                return nil
            }
            return session
        }
        if let remembered { return .some(remembered.tokenIdentifier) }
        guard let token = try library.access.token(forSessionSecret: id, lifetime: configuration.sessionLifetime) else { return nil }
        remember(id, Session(tokenIdentifier: token.identifier, since: now))
        return .some(token.identifier)
    }

    private func token(forSecret secret: String) throws -> PHAccessToken? {
        let version = self.version.load(ordering: .sequentiallyConsistent)
        if let cached = caches.withLock({ caches -> PHAccessToken? in
            if caches.version != version { caches = Caches(version: version) }
            return caches.bySecret[secret]
        }) {
            return cached
        }
        guard let token = try library.authenticateAccessToken(secret: secret) else { return nil }
        caches.withLock { if $0.version == version { $0.bySecret[secret] = token } }
        return token
    }

    private func token(withIdentifier identifier: String) throws -> PHAccessToken? {
        let version = self.version.load(ordering: .sequentiallyConsistent)
        if let cached = caches.withLock({ $0.version == version ? $0.byIdentifier[identifier] : nil }) { return cached }
        let token = try library.accessToken(withIdentifier: identifier)
        caches.withLock { caches in
            if caches.version != version { caches = Caches(version: version) }
            caches.byIdentifier[identifier] = .some(token)
        }
        return token
    }

    /// Whether a token still exists (not revoked).
    func isValid(_ token: PHAccessToken) -> Bool {
        (try? self.token(withIdentifier: token.identifier)) != nil
    }

    private func access(for token: PHAccessToken) throws -> ClientAccess {
        guard token.level == .limited else { return ClientAccess(token: token, allowList: nil) }
        return ClientAccess(token: token, allowList: try allowList(of: token.identifier))
    }

    /// A limited token's allow-list, cached per access version.
    func allowList(of tokenIdentifier: String) throws -> Set<String> {
        let version = self.version.load(ordering: .sequentiallyConsistent)
        if let cached = caches.withLock({ $0.version == version ? $0.allowLists[tokenIdentifier] : nil }) { return cached }
        let list = Set(try library.limitedLibraryAssetIdentifiers(forAccessToken: tokenIdentifier))
        caches.withLock { caches in
            if caches.version != version { caches = Caches(version: version) }
            caches.allowLists[tokenIdentifier] = list
        }
        return list
    }

    private static func sessionID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next(), radix: 16).leftPadded(to: 16) }.joined()
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
