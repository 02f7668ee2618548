import Foundation
import Photos

/// Who a request comes from and what it may see: PhotoKit's authorization for one client.
///
/// In a library with people (``PHLibraryPerson``) every client is a person, signed in with a
/// password or holding one of their tokens, and sees their own library
/// (``LibraryService/serving(_:)``); a token never gets more than its person.
struct ClientAccess: Sendable {
    /// The token, or `nil` when the server runs without tokens (everyone read-write) or the
    /// client signed in with a password.
    let token: PHAccessToken?
    /// The person the client acts as, in a library with people.
    let person: PHLibraryPerson?
    /// The local identifiers a limited client sees; `nil` for every other level.
    let allowList: Set<String>?
    /// What the client may do: the token's level, never more than its person's.
    let level: PHAccessToken.Level
    /// The session's secret when the client came with a session cookie: its changes must then
    /// carry the session's ``csrfToken``.
    var session: String?
    /// The public link the client came with: it sees the link's photos, read-only.
    var link: ShareLinkGrant?
    /// For a link's visitor: the library position the link's photos were read at (an album
    /// link's change with its album), which results kept for the visitor are filed under.
    var linkPosition: Int64 = 0

    static let open = ClientAccess(token: nil, person: nil, allowList: nil)

    init(token: PHAccessToken?, person: PHLibraryPerson?, allowList: Set<String>?, session: String? = nil) {
        self.token = token
        self.person = person
        self.session = session
        level = token?.level ?? .readWrite
        self.allowList = allowList
    }

    /// A visitor with a public link: the link's photos, as its maker sees them, and nothing else.
    init(link: ShareLinkGrant, position: Int64 = 0) {
        token = nil
        person = link.owner
        allowList = link.assetIdentifiers
        level = .limited
        self.link = link
        linkPosition = position
    }

    var name: String { link?.link.title ?? person?.name ?? token?.name ?? "open" }

    /// Changing anything: refused to a link's visitors, who only look.
    func requireChanges() throws {
        if link != nil { throw APIError(.forbidden, "A shared link shows photos; it changes nothing") }
    }

    /// An original file: refused to a link's visitors when the link doesn't allow downloads.
    func requireDownload() throws {
        if let link, !link.link.allowsDownload { throw APIError(.forbidden, "This link doesn't allow downloading originals") }
    }

    /// Whose selection narrows what this client sees, as a key results kept for it are filed
    /// under: `nil` for a client that sees the whole library, else its token's or its person's
    /// identifier, so a result narrowed for one is never handed to another.
    var narrowing: String? {
        guard allowList != nil else { return nil }
        return link.map { "link:\($0.link.identifier)@\(linkPosition)" } ?? token.map { "token:" + $0.identifier } ?? "limited"
    }

    /// Reading anything at all: refused to add-only tokens, which "see nothing".
    func requireRead() throws {
        if level == .addOnly { throw APIError(.forbidden, "This token may only add photos (add-only)") }
    }

    /// Changing collections, tokens and allow-lists: read-write clients only (in a library with
    /// people, each in their own library).
    func requireOwner(_ what: String) throws {
        if level != .readWrite { throw APIError(.forbidden, "\(what) needs a read-write token (this one is \(level.rawValue))") }
    }

    /// Whether the asset is visible to this client (404 otherwise, so nothing leaks).
    func sees(_ localIdentifier: String) -> Bool {
        guard level != .addOnly else { return false }
        return allowList?.contains(localIdentifier) ?? true
    }

    /// The value a session's changes carry in `X-CSRF-Token`: derived from the session's
    /// secret (which the page can't read: its cookie is HttpOnly), so it needs no storage, and
    /// handed to the page in `GET /api/session`, which another site's page can't read.
    static func csrfToken(forSession secret: String) -> String {
        LibraryPeople.csrfToken(forSession: secret)
    }

    /// PhotoKit's view of this client, as `GET /api/session` reports it.
    var summary: SessionJSON {
        SessionJSON(
            name: name, tokenIdentifier: token?.identifier, level: level.rawValue,
            accessLevel: level == .addOnly ? "addOnly" : "readWrite",
            authorizationStatus: level == .limited ? "limited" : "authorized",
            person: link == nil ? person.map(PersonJSON.init) : nil, csrfToken: session.map(Self.csrfToken(forSession:)),
            link: link.map { LinkJSON($0.link) })
    }
}

struct SessionJSON: Codable, Sendable {
    let name: String
    let tokenIdentifier: String?
    let level: String
    let accessLevel: String
    let authorizationStatus: String
    /// The person signed in, in a library with people.
    var person: PersonJSON?
    /// For a session: what its changes carry in `X-CSRF-Token`.
    var csrfToken: String?
    /// For a link's visitor: the link.
    var link: LinkJSON?
}

struct LinkJSON: Codable, Sendable {
    let identifier: String
    let title: String
    let albumLocalIdentifier: String?
    let expirationDate: Date?
    let hasPassword: Bool
    let allowsDownload: Bool
    let creationDate: Date

    init(_ link: PHShareLink) {
        identifier = link.identifier
        title = link.title
        albumLocalIdentifier = link.albumLocalIdentifier
        expirationDate = link.expirationDate
        hasPassword = link.hasPassword
        allowsDownload = link.allowsDownload
        creationDate = link.creationDate
    }
}

struct PersonJSON: Codable, Sendable {
    let identifier: String
    let name: String
    let isAdmin: Bool
    let isOwner: Bool

    init(_ person: PHLibraryPerson) {
        identifier = person.identifier
        name = person.name
        isAdmin = person.isAdmin
        isOwner = person.isOwner
    }
}
