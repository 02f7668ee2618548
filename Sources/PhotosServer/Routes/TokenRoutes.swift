import Foundation
import Hummingbird
import Photos

/// `/api/tokens`: the owner (read-write) lists, creates and revokes tokens and edits limited
/// tokens' allow-lists; live clients of a limited token see allow-list edits as changes.
struct TokenRoutes {
    let service: LibraryService

    private struct TokenJSON: Encodable {
        let identifier: String
        let name: String
        let level: String
        let creationDate: Date
        let lastUseDate: Date?
        var secret: String?

        init(_ token: PHAccessToken, secret: String? = nil) {
            identifier = token.identifier
            name = token.name
            level = token.level.rawValue
            creationDate = token.creationDate
            lastUseDate = token.lastUseDate
            self.secret = secret
        }
    }

    private struct Creation: Decodable {
        let name: String
        let level: String
        var assets: [String]?
    }

    private struct AllowListEdit: Decodable {
        var add: [String]?
        var remove: [String]?
        var replace: [String]?
    }

    private struct AllowList: Encodable {
        let count: Int
        let assets: [String]
    }

    func add(to group: RouterGroup<PhotosRequestContext>) {
        group.get("tokens") { _, context in
            let client = try context.requireClient()
            try client.requireOwner("Listing tokens")
            // In a library with people, each person's own tokens.
            let tokens = try await photos { try service.library.accessTokens() }.filter { $0.personIdentifier == client.person?.identifier }
            return JSONResponse.make(tokens.map { TokenJSON($0) })
        }
        group.post("tokens") { request, context in
            let client = try context.requireClient()
            try client.requireOwner("Creating tokens")
            let body = try await JSONResponse.decode(Creation.self, from: request)
            guard let level = PHAccessToken.Level(rawValue: body.level) else {
                throw APIError(.badRequest, "'level' must be read-write, add-only or limited, not '\(body.level.prefix(40))'")
            }
            let assets = try (body.assets ?? []).map(ObjectID.asset)
            guard assets.isEmpty || level == .limited else { throw APIError(.badRequest, "'assets' applies to limited tokens only") }
            try await requireVisible(assets, to: client)
            let person = client.person?.identifier
            let (token, secret) = try await write { try library.createAccessToken(named: body.name, level: level, person: person) }
            if !assets.isEmpty {
                do {
                    _ = try await write { try library.changeLimitedLibrary(ofAccessToken: token.identifier, .add(assets)) }
                } catch {
                    // No token without its list: the secret was never shown.
                    _ = try? await write { try library.revokeAccessToken(withIdentifier: token.identifier) }
                    throw error
                }
            }
            service.accessChanged()
            return JSONResponse.make(TokenJSON(token, secret: secret), status: .created)
        }
        group.delete("tokens/{token}") { _, context in
            let client = try context.requireClient()
            try client.requireOwner("Revoking tokens")
            let identifier = try context.parameters.require("token")
            _ = try await ownToken(identifier, of: client)
            guard try await write({ try library.revokeAccessToken(withIdentifier: identifier) }) else {
                throw APIError.notFound("token '\(identifier.prefix(40))'")
            }
            service.accessChanged()
            return Response(status: .noContent)
        }
        group.get("tokens/{token}/assets") { _, context in
            let client = try context.requireClient()
            try client.requireOwner("Reading allow-lists")
            let identifier = try await limitedToken(try context.parameters.require("token"), of: client)
            let assets = try await photos { try service.library.limitedLibraryAssetIdentifiers(forAccessToken: identifier) }.sorted()
            return JSONResponse.make(AllowList(count: assets.count, assets: assets))
        }
        group.post("tokens/{token}/assets") { request, context in
            let client = try context.requireClient()
            try client.requireOwner("Editing allow-lists")
            let identifier = try await limitedToken(try context.parameters.require("token"), of: client)
            let body = try await JSONResponse.decode(AllowListEdit.self, from: request)
            guard body.add != nil || body.remove != nil || body.replace != nil else {
                throw APIError(.badRequest, "Say 'add', 'remove' or 'replace'")
            }
            // One edit, so the list changes all at once or not at all.
            let add = try (body.add ?? []).map(ObjectID.asset)
            let remove = Set(try (body.remove ?? []).map(ObjectID.asset))
            let replace = try body.replace.map { try $0.map(ObjectID.asset) }
            try await requireVisible(add + (replace ?? []), to: client)
            try await write {
                if replace == nil && remove.isEmpty {
                    try library.changeLimitedLibrary(ofAccessToken: identifier, .add(add))
                } else if replace == nil && add.isEmpty {
                    try library.changeLimitedLibrary(ofAccessToken: identifier, .remove(Array(remove)))
                } else {
                    let base = try replace ?? library.limitedLibraryAssetIdentifiers(forAccessToken: identifier)
                    let final = (base + add).filter { !remove.contains($0) }
                    try library.changeLimitedLibrary(ofAccessToken: identifier, .replace(Array(Set(final))))
                }
            }
            service.accessChanged()
            let assets = try await photos { try service.library.limitedLibraryAssetIdentifiers(forAccessToken: identifier) }.sorted()
            return JSONResponse.make(AllowList(count: assets.count, assets: assets))
        }
    }

    /// The client's own token with this identifier (404 for another person's, as for none).
    private func ownToken(_ identifier: String, of client: ClientAccess) async throws -> PHAccessToken {
        guard let token = try await photos({ try service.library.accessToken(withIdentifier: identifier) }),
            token.personIdentifier == client.person?.identifier
        else {
            throw APIError.notFound("token '\(identifier.prefix(40))'")
        }
        return token
    }

    private func limitedToken(_ identifier: String, of client: ClientAccess) async throws -> String {
        let token = try await ownToken(identifier, of: client)
        guard token.level == .limited else { throw APIError(.conflict, "\(identifier) is \(token.level.rawValue), not limited") }
        return identifier
    }

    private var library: PHPhotoLibrary { service.library }

    /// In a library with people: a token's list names only photos its person sees (404 for
    /// any other, as for one that doesn't exist, so the answer tells nothing of others').
    private func requireVisible(_ identifiers: [String], to client: ClientAccess) async throws {
        guard client.person != nil, !identifiers.isEmpty else { return }
        let personal = try service.serving(client).library
        let seen = try await service.quickly("tokens") { () -> Set<String> in
            let options = PHFetchOptions()
            options.includeHiddenAssets = true
            return personal.withCurrent { Set(PHAsset.fetchAssets(withLocalIdentifiers: identifiers, options: options).map(\.localIdentifier)) }
        }
        if let unseen = identifiers.first(where: { !seen.contains($0) }) {
            throw APIError.notFound("asset '\(unseen.prefix(80))'")
        }
    }

    /// Runs a library write on the writes pool (off the event loop: it can wait on another
    /// process's lock), answering PhotoKit errors with their HTTP status.
    private func write<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        do { return try await service.writing("tokens", body) } catch { throw APIError(error) }
    }

    /// Runs a library read on the reads pool (off the event loops), answering PhotoKit errors
    /// with their HTTP status.
    private func photos<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        do { return try await service.quickly("tokens", body) } catch { throw APIError(error) }
    }
}
