import Foundation
import Hummingbird
import Photos

/// Public links: `GET /s/{secret}` opens one (a cookie, then the gallery's read-only page);
/// `POST /api/links/unlock` takes its password; `/api/links` lists, makes and revokes a
/// person's (or, without people, the library's) links.
struct LinkRoutes {
    let service: LibraryService

    private struct NewLink: Decodable {
        var album: String?
        var assets: [String]?
        var title: String?
        var expirationDate: Date?
        var password: String?
        var allowsDownload: Bool?
    }

    private struct Created: Encodable {
        let link: LinkJSON
        let secret: String
        /// Where the link opens, on this server.
        let url: String
    }

    private struct Links: Encodable {
        let links: [LinkJSON]
    }

    private struct Unlock: Decodable {
        let password: String
    }

    /// `GET /s/{secret}`: sets the link's cookie and sends the visitor to the gallery, which
    /// shows the link's photos read-only; 404 for a link that is revoked, expired or never was.
    func addPage(to router: Router<PhotosRequestContext>) {
        router.get("s/{secret}") { request, context in
            let secret = try context.parameters.require("secret")
            let library = service.library
            let grant = try await service.quickly("link") {
                do { return try library.shareLinkGrant(forSecret: secret) } catch { throw APIError(error) }
            }
            guard grant != nil else { throw APIError.notFound("link") }
            var response = Response(status: .seeOther, headers: [.location: "/", .cacheControl: "no-store"])
            response.setCookie(Self.cookie(AccessGate.linkCookieName, secret, request))
            return response
        }
    }

    /// `POST /api/links/unlock`: the password of the link the visitor's cookie names, slowed as
    /// sign-ins are; sets the proof cookie.
    func addPublic(to group: RouterGroup<PhotosRequestContext>) {
        group.post("links/unlock") { request, context in
            guard let secret = request.cookies[AccessGate.linkCookieName]?.value else {
                throw APIError(.unauthorized, "Open the link first")
            }
            let body = try await JSONResponse.decode(Unlock.self, from: request, limit: 4096)
            let library = service.library
            guard let grant = try await service.quickly("link", { () throws -> ShareLinkGrant? in
                do { return try library.shareLinkGrant(forSecret: secret) } catch { throw APIError(error) }
            })
            else { throw APIError.notFound("link") }
            let throttle = SignInThrottle(people: library.people)
            let keys = ["link:" + grant.link.identifier] + (SessionRoutes.address(request, context).map { ["address:" + $0] } ?? [])
            try await throttle.refuseWhileWaiting(keys: keys, what: "wrong passwords", service: service)
            let password = body.password
            guard try await service.offLoop("link password", { PHPhotoLibrary.checkShareLinkPassword(password, of: grant) }) else {
                try await service.writing("session") { try throttle.failed(keys: keys) }
                throw AccessMiddleware.unauthorized("The link's password is wrong")
            }
            var response = Response(status: .noContent)
            response.setCookie(Self.cookie(AccessGate.linkUnlockCookieName, PHPhotoLibrary.shareLinkUnlockProof(secret: secret, grant: grant), request))
            return response
        }
    }

    func add(to group: RouterGroup<PhotosRequestContext>) {
        group.get("links") { _, context in
            let client = try context.requireClient()
            try client.requireOwner("Listing links")
            let library = try service.serving(client).library
            let links = try await service.quickly("links") {
                do { return try library.shareLinks() } catch { throw APIError(error) }
            }
            return JSONResponse.make(Links(links: links.map(LinkJSON.init)))
        }
        group.post("links") { request, context in
            let client = try context.requireClient()
            try client.requireOwner("Making links")
            let served = try service.serving(client)
            let body = try await JSONResponse.decode(NewLink.self, from: request, limit: 1 << 20)
            guard (body.album == nil) != (body.assets ?? []).isEmpty else {
                throw APIError(.badRequest, "A link shows an 'album' or a selection of 'assets', one of them")
            }
            let album = try body.album.map { text -> PHAssetCollection in
                let identifier = try ObjectID.collection(text)
                guard let found = try served.withLibrary({ try PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: nil).firstObjectOrFailure() })
                else { throw APIError.notFound("album '\(text.prefix(40))'") }
                return found
            }
            let assets = try (body.assets ?? []).map { try served.asset($0, for: client) }
            let title = (body.title?.trimmingCharacters(in: .whitespaces)).flatMap { $0.isEmpty ? nil : $0 } ?? album?.localizedTitle ?? "Photos"
            let library = served.library
            let (link, secret) = try await service.writing("links") {
                do {
                    return try library.createShareLink(
                        to: album, assets: assets, title: title, expiration: body.expirationDate, password: body.password,
                        allowsDownload: body.allowsDownload ?? false)
                } catch {
                    throw APIError(error)
                }
            }
            service.accessChanged()
            return JSONResponse.make(Created(link: LinkJSON(link), secret: secret, url: "/s/\(secret)"), status: .created)
        }
        group.delete("links/{id}") { _, context in
            let client = try context.requireClient()
            try client.requireOwner("Revoking links")
            let identifier = try context.parameters.require("id")
            let library = try service.serving(client).library
            let revoked = try await service.writing("links") {
                do { return try library.revokeShareLink(withIdentifier: identifier) } catch { throw APIError(error) }
            }
            guard revoked else { throw APIError.notFound("link '\(identifier.prefix(40))'") }
            service.accessChanged()
            return Response(status: .noContent)
        }
    }

    /// A link's cookie: HttpOnly, SameSite=Lax, Secure over TLS, for the whole site.
    static func cookie(_ name: String, _ value: String, _ request: Request) -> Cookie {
        let overTLS = request.headers[.xForwardedProto]?.lowercased() == "https"
        return Cookie(name: name, value: value, path: "/", secure: overTLS, httpOnly: true, sameSite: .lax)
    }
}
