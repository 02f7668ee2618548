import Foundation
import Photos

/// Who a request comes from and what it may see: PhotoKit's authorization for one client.
struct ClientAccess: Sendable {
    /// The token, or `nil` when the server runs without tokens (everyone read-write).
    let token: PHAccessToken?
    /// The local identifiers a limited token sees; `nil` for every other level.
    let allowList: Set<String>?

    static let open = ClientAccess(token: nil, allowList: nil)

    var level: PHAccessToken.Level { token?.level ?? .readWrite }
    var name: String { token?.name ?? "open" }

    /// Reading anything at all: refused to add-only tokens, which "see nothing".
    func requireRead() throws {
        if level == .addOnly { throw APIError(.forbidden, "This token may only add photos (add-only)") }
    }

    /// Changing collections, tokens and allow-lists: the library's owner (read-write) only.
    func requireOwner(_ what: String) throws {
        if level != .readWrite { throw APIError(.forbidden, "\(what) needs a read-write token (this one is \(level.rawValue))") }
    }

    /// Whether the asset is visible to this client (404 otherwise, so nothing leaks).
    func sees(_ localIdentifier: String) -> Bool {
        guard level != .addOnly else { return false }
        return allowList?.contains(localIdentifier) ?? true
    }

    /// PhotoKit's view of this client, as `GET /api/session` reports it.
    var summary: SessionJSON {
        SessionJSON(
            name: name, tokenIdentifier: token?.identifier, level: level.rawValue,
            accessLevel: token?.accessLevel == .addOnly ? "addOnly" : "readWrite",
            authorizationStatus: level == .limited ? "limited" : "authorized")
    }
}

struct SessionJSON: Codable, Sendable {
    let name: String
    let tokenIdentifier: String?
    let level: String
    let accessLevel: String
    let authorizationStatus: String
}
