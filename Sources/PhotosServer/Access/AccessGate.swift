import Foundation
import Photos
import PhotosLocking

/// Authenticates clients: bearer secrets and session cookies, with the tokens and allow-lists
/// read from the library cached until the library's ``LibraryAccess/version`` moves
/// (a `photos token` command in another process reaches a running server within a second).
///
/// A token's sessions and a person's are kept in the library (`LibraryAccess.createSession`,
/// `LibraryPeople.createSession`), so they outlive a restart; a session's token or person is
/// remembered here for ``sessionRecheck`` between reads, and forgotten as soon as the library's
/// access version moves (a password changed, a person removed, a token revoked: in this
/// process or another). Sessions of an open server (no token) live in memory only.
///
/// In a library with people nobody is let in without signing in: an open server stops being
/// open the moment its library gets its first person.
final class AccessGate: Sendable {
    static let cookieName = "photos_session"
    /// The public link a visitor opened (`/s/pl_...` sets it).
    static let linkCookieName = "photos_link"
    /// The proof that the visitor gave the link's password.
    static let linkUnlockCookieName = "photos_link_unlock"
    /// How long a session read from the library is trusted before it is read again.
    static let sessionRecheck: TimeInterval = 60
    /// At most this many sessions are remembered (all forgotten past it; they are read again).
    static let rememberedSessions = 10_000

    /// Whose a session is.
    enum Holder: Sendable, Hashable {
        /// A session of an open server.
        case open
        case token(String)
        case person(String)
    }

    private struct Session {
        let holder: Holder
        /// Open sessions: when they started (they last ``ServerConfiguration/sessionLifetime``,
        /// as the cookie does). Others: when the library last said the session is valid.
        let since: Date
        /// The access version it was read at (others are read again).
        let version: Int
    }

    /// A public link's grant as read, with when: it holds while the access version (a
    /// revocation, a new password) and the library's position (an album link's photos) stay.
    private struct KeptLink {
        let grant: ShareLinkGrant
        let version: Int
        let position: Int64
    }

    /// At most this many links' grants are kept (all forgotten past it; they are read again).
    static let rememberedLinks = 1_000

    private struct Caches {
        var version = -1
        var bySecret: [String: PHAccessToken] = [:]
        var byIdentifier: [String: PHAccessToken?] = [:]
        var allowLists: [String: Set<String>] = [:]
        var people: [String: PHLibraryPerson?] = [:]
        var hasPeople: Bool?
    }

    private let library: PHPhotoLibrary
    private let configuration: ServerConfiguration
    private let sessions = Mutex<[String: Session]>([:])
    private let caches = Mutex(Caches())
    /// Grants of the links visitors came with, by secret (only links that exist: a guessed
    /// secret is read each time, and never fills memory).
    private let links = Mutex<[String: KeptLink]>([:])
    /// The library's access version as last seen; caches made at another version are dropped.
    private let version: Atomic<Int>

    /// Whether the library's store is PostgreSQL (each read a round trip).
    private let storeIsRemote: Bool

    init(library: PHPhotoLibrary, configuration: ServerConfiguration) {
        self.library = library
        storeIsRemote = library.storeIsRemote
        self.configuration = configuration
        version = Atomic(library.access.version)
    }

    /// Set while a request is checked on an event loop: a check that needs the store throws
    /// ``NeedsStore`` instead of reading it there, and is done again on the reads pool
    /// (``AccessMiddleware``). Most requests are answered from the caches.
    @TaskLocal static var fromMemoryOnly = false

    /// A check that needs the store, refused where ``fromMemoryOnly`` is set.
    struct NeedsStore: Error {}

    /// `read()`, unless ``fromMemoryOnly`` says no store read may happen here and the store is
    /// a database across a connection (a SQLite read takes microseconds from the page cache:
    /// done where asked).
    private func fromStore<T>(_ read: () throws -> T) throws -> T {
        if Self.fromMemoryOnly && storeIsRemote { throw NeedsStore() }
        return try read()
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
        let isOpen = try configuration.allowsUnauthenticatedAccess && !hasPeople()
        if isOpen && bearer == nil && session == nil { return .open }
        if let bearer {
            guard let token = try token(forSecret: bearer) else { return nil }
            return try access(for: token, session: nil)
        }
        guard let session, let holder = try lookUp(session: session) else {
            // A stale cookie on a server without tokens is no reason to refuse.
            return isOpen ? .open : nil
        }
        guard let client = try client(of: holder, session: session, isOpen: isOpen) else {
            endSession(session)
            return nil
        }
        return client
    }

    /// The client a session's holder is now, or `nil` (a token revoked, a person removed, an
    /// open session on a library that got people).
    private func client(of holder: Holder, session: String, isOpen: Bool) throws -> ClientAccess? {
        switch holder {
        case .open:
            return isOpen ? .open : nil
        case .token(let identifier):
            guard let token = try token(withIdentifier: identifier) else { return nil }
            return try access(for: token, session: session)
        case .person(let identifier):
            guard let person = try person(withIdentifier: identifier) else { return nil }
            return ClientAccess(token: nil, person: person, allowList: nil, session: session)
        }
    }

    /// The visitor of a public link, or `nil` when there is no such link (revoked, expired);
    /// 401 when it has a password and `unlock` isn't the proof of it.
    func client(link secret: String, unlock: String?) throws -> ClientAccess? {
        guard let (grant, position) = try grant(forLink: secret) else { return nil }
        if grant.passwordHash != nil, unlock != PHPhotoLibrary.shareLinkUnlockProof(secret: secret, grant: grant) {
            throw AccessMiddleware.unauthorized("This link needs its password")
        }
        return ClientAccess(link: grant, position: position)
    }

    /// The link's grant: kept from an earlier request while neither the access version nor the
    /// library's position moved (each of a page's thumbnails would otherwise read the link, its
    /// maker and its photos' identifiers: an album's every one), else read and kept.
    private func grant(forLink secret: String) throws -> (ShareLinkGrant, position: Int64)? {
        let version = self.version.load(ordering: .sequentiallyConsistent)
        // The journal's position, read (one row): the observers' may lag a change another
        // person's library just committed in this process.
        let position = try fromStore { try library.currentPosition() }
        if let kept = links.withLock({ $0[secret] }), kept.version == version, kept.position == position {
            if let expires = kept.grant.link.expirationDate, expires <= Date() { return nil }
            return (kept.grant, position)
        }
        guard let grant = try fromStore({ try library.shareLinkGrant(forSecret: secret) }) else { return nil }
        links.withLock { links in
            if links.count >= Self.rememberedLinks { links.removeAll(keepingCapacity: true) }
            links[secret] = KeptLink(grant: grant, version: version, position: position)
        }
        return (grant, position)
    }

    /// The client again, as the library now says (a live connection's, after an access
    /// change); `nil` when its token, person or session is gone.
    func revalidate(_ client: ClientAccess) -> ClientAccess? {
        do {
            if let link = client.link {
                // The link as it is now (the proof of its password stays valid while it does).
                guard let grant = try library.shareLinkGrant(forSecret: link.secret) else { return nil }
                return ClientAccess(link: grant)
            }
            if let session = client.session { return try self.client(bearer: nil, session: session) }
            guard let token = client.token else { return try hasPeople() ? nil : client }
            guard let current = try self.token(withIdentifier: token.identifier) else { return nil }
            return try access(for: current, session: nil)
        } catch {
            return nil
        }
    }

    /// Starts a session for a token's secret (or for an open server without one); `nil` when
    /// the secret is wrong, or none was given to a server that isn't open.
    func startSession(secret: String?) throws -> (id: String, client: ClientAccess)? {
        let client: ClientAccess
        if let secret, !secret.isEmpty {
            guard let token = try token(forSecret: secret), let access = try access(for: token, session: nil) else { return nil }
            client = access
        } else if try configuration.allowsUnauthenticatedAccess && !hasPeople() {
            client = .open
        } else {
            return nil
        }
        let id: String
        let holder: Holder
        if let token = client.token, !library.isReadOnly {
            // A read-only library can't keep the session: it lives in this server's memory.
            id = try library.access.createSession(forAccessToken: token.identifier, lifetime: configuration.sessionLifetime)
            holder = .token(token.identifier)
        } else {
            id = Self.sessionID()
            holder = client.token.map { .token($0.identifier) } ?? .open
        }
        remember(id, holder)
        var started = client
        if client.token != nil { started.session = id }
        return (id, started)
    }

    /// Starts a session of a person who gave their password.
    func startSession(for person: PHLibraryPerson) throws -> (id: String, client: ClientAccess) {
        let id =
            library.isReadOnly
            ? "ps_" + Self.sessionID() : try library.people.createSession(for: person, lifetime: configuration.sessionLifetime)
        remember(id, .person(person.identifier))
        return (id, ClientAccess(token: nil, person: person, allowList: nil, session: id))
    }

    func endSession(_ id: String) {
        _ = sessions.withLock { $0.removeValue(forKey: id) }
        // try?: signing out of a session the library no longer has (or can't reach) leaves
        // nothing to end; the cookie is cleared either way.
        _ = try? library.access.endSession(secret: id)
        // try?: as above.
        _ = try? library.people.endSession(secret: id)
    }

    private func remember(_ id: String, _ holder: Holder) {
        let session = Session(holder: holder, since: Date(), version: version.load(ordering: .sequentiallyConsistent))
        sessions.withLock { sessions in
            if sessions.count >= Self.rememberedSessions { sessions.removeAll(keepingCapacity: true) }
            sessions[id] = session
        }
    }

    /// The session's holder; `nil` when there is no such session or it expired.
    private func lookUp(session id: String) throws -> Holder? {
        let now = Date()
        let version = self.version.load(ordering: .sequentiallyConsistent)
        let remembered = sessions.withLock { sessions -> Session? in
            guard let session = sessions[id] else { return nil }
            let keptInMemory = session.holder == .open || library.isReadOnly
            let limit = keptInMemory ? configuration.sessionLifetime : Self.sessionRecheck
            guard now.timeIntervalSince(session.since) < limit, keptInMemory || session.version == version else {
                sessions[id] = nil
                return nil
            }
            return session
        }
        if let remembered { return remembered.holder }
        let holder: Holder
        if let person = try fromStore({ try library.people.person(forSessionSecret: id, lifetime: configuration.sessionLifetime) }) {
            holder = .person(person.identifier)
        } else if let token = try fromStore({ try library.access.token(forSessionSecret: id, lifetime: configuration.sessionLifetime) }) {
            holder = .token(token.identifier)
        } else {
            return nil
        }
        remember(id, holder)
        return holder
    }

    /// Whether the library has people (cached per access version).
    func hasPeople() throws -> Bool {
        let version = self.version.load(ordering: .sequentiallyConsistent)
        if let cached = caches.withLock({ $0.version == version ? $0.hasPeople : nil }) { return cached }
        let exist = try fromStore { try library.people.exist() }
        caches.withLock { caches in
            if caches.version != version { caches = Caches(version: version) }
            caches.hasPeople = exist
        }
        return exist
    }

    private func person(withIdentifier identifier: String) throws -> PHLibraryPerson? {
        let version = self.version.load(ordering: .sequentiallyConsistent)
        if let cached = caches.withLock({ $0.version == version ? $0.people[identifier] : nil }) { return cached }
        let person = try fromStore { try library.people.person(withIdentifier: identifier) }
        caches.withLock { caches in
            if caches.version != version { caches = Caches(version: version) }
            caches.people[identifier] = .some(person)
        }
        return person
    }

    private func token(forSecret secret: String) throws -> PHAccessToken? {
        let version = self.version.load(ordering: .sequentiallyConsistent)
        if let cached = caches.withLock({ caches -> PHAccessToken? in
            if caches.version != version { caches = Caches(version: version) }
            return caches.bySecret[secret]
        }) {
            return cached
        }
        guard let token = try fromStore({ try library.authenticateAccessToken(secret: secret) }) else { return nil }
        caches.withLock { if $0.version == version { $0.bySecret[secret] = token } }
        return token
    }

    private func token(withIdentifier identifier: String) throws -> PHAccessToken? {
        let version = self.version.load(ordering: .sequentiallyConsistent)
        if let cached = caches.withLock({ $0.version == version ? $0.byIdentifier[identifier] : nil }) { return cached }
        let token = try fromStore { try library.accessToken(withIdentifier: identifier) }
        caches.withLock { caches in
            if caches.version != version { caches = Caches(version: version) }
            caches.byIdentifier[identifier] = .some(token)
        }
        return token
    }

    /// What a token's holder may do: its level and allow-list, within its person's rights.
    private func access(for token: PHAccessToken, session: String?) throws -> ClientAccess? {
        var person: PHLibraryPerson?
        if let identifier = token.personIdentifier {
            guard let found = try self.person(withIdentifier: identifier) else { return nil }
            person = found
        }
        let allowList = token.level == .limited ? try allowList(of: token.identifier) : nil
        return ClientAccess(token: token, person: person, allowList: allowList, session: session)
    }

    /// A limited token's allow-list, cached per access version.
    func allowList(of tokenIdentifier: String) throws -> Set<String> {
        let version = self.version.load(ordering: .sequentiallyConsistent)
        if let cached = caches.withLock({ $0.version == version ? $0.allowLists[tokenIdentifier] : nil }) { return cached }
        let list = Set(try fromStore { try library.limitedLibraryAssetIdentifiers(forAccessToken: tokenIdentifier) })
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
