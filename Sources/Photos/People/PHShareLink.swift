public import Foundation
import HummingbirdBcrypt
import PhotosStore

/// A public link to an album or a selection of photos: anyone holding its URL sees those
/// photos (and nothing else of the library) in `photos serve`'s read-only gallery page, until
/// it expires or is revoked.
///
/// - Note: Linux addition (Apple's iCloud links to shared albums and photos). The secret (`pl_`
///   and 43 characters, the URL's last part) is shown once; the library keeps its SHA-256, and
///   the optional password's bcrypt hash.
public struct PHShareLink: Sendable, Hashable, Identifiable {
    /// A short public name of the link (`ln_` and 10 characters), for listing and revoking.
    public let identifier: String
    public let title: String
    /// The album's local identifier, for a link to an album (its photos as they are now and
    /// later); `nil` for a selection.
    public let albumLocalIdentifier: String?
    /// When the link stops working; `nil`: never.
    public let expirationDate: Date?
    /// Whether a password must be given before anything shows.
    public let hasPassword: Bool
    /// Whether originals may be downloaded through it (else only images sized for screens).
    public let allowsDownload: Bool
    public let creationDate: Date

    public var id: String { identifier }
}

/// What a link's secret opens, for `photos serve`.
package struct ShareLinkGrant: Sendable, Hashable {
    package let link: PHShareLink
    /// The secret it was opened with (in memory only).
    package let secret: String
    /// The person who made it (their library is what it shows from), `nil` without people.
    package let owner: PHLibraryPerson?
    /// The local identifiers of the assets it shows, now.
    package let assetIdentifiers: Set<String>
    /// The bcrypt hash of its password, if any (to check one, and to make the unlock proof).
    package let passwordHash: String?
}

extension PHPhotoLibrary {
    /// Makes a public link to an album or to these assets, this library's person's own (not
    /// another's photo they see in a shared album, nor a partner's), and returns it with its
    /// secret (shown only here). `password` (8 characters to 72
    /// bytes) must be given before anything shows; `expiration` ends it.
    ///
    /// - Note: Linux addition. Fails with ``PHPhotosError/Code/identifierNotFound`` for an album
    ///   or asset this library doesn't show.
    public func createShareLink(
        to album: PHAssetCollection? = nil, assets: [PHAsset] = [], title: String, expiration: Date? = nil, password: String? = nil,
        allowsDownload: Bool = false
    ) throws -> (link: PHShareLink, secret: String) {
        guard (album == nil) != assets.isEmpty else {
            throw PHPhotosError(.invalidResource, "A link shows an album or a selection of assets, one of them")
        }
        if let password { try LibraryPeople.validate(password: password) }
        let visible = withCurrent {
            album.map { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [$0.localIdentifier], options: nil).count == 1 }
                ?? (PHAsset.fetchAssets(withLocalIdentifiers: assets.map(\.localIdentifier), options: nil).count == Set(assets.map(\.localIdentifier)).count)
        }
        guard visible else { throw PHPhotosError(.identifierNotFound, "The link names an album or asset this library doesn't show") }
        let secret = "pl_" + LibraryAccess.randomText(bytes: 32)
        do {
            let record = try store.shareLinks.create(
                identifier: "ln_" + LibraryAccess.randomText(bytes: 8).prefix(10), secretHash: ContentHash.sha256(of: Data(secret.utf8)),
                ownerID: personID, albumUUID: album.flatMap { LocalIdentifier.collectionUUID($0.localIdentifier, isList: false) },
                assetUUIDs: assets.compactMap { LocalIdentifier.assetUUID($0.localIdentifier) }, title: title, expiresDate: expiration,
                passwordHash: password.map { Bcrypt.hash($0, cost: configuration.passwordHashCost) }, allowsDownload: allowsDownload,
                date: Date())
            return (PHShareLink(record), secret)
        } catch {
            throw PHPhotosError(error)
        }
    }

    /// This library's person's links (every link in a library without people), newest first.
    ///
    /// - Note: Linux addition.
    public func shareLinks() throws -> [PHShareLink] {
        do { return try store.shareLinks.links(ownerID: personID).map(PHShareLink.init) } catch { throw PHPhotosError(error) }
    }

    /// Revokes a link at once, in every server; `false` when there is none of this person's.
    ///
    /// - Note: Linux addition.
    @discardableResult
    public func revokeShareLink(withIdentifier identifier: String) throws -> Bool {
        do { return try store.shareLinks.delete(identifier: identifier, ownerID: personID) } catch { throw PHPhotosError(error) }
    }

    /// What a link's secret opens now: `nil` for no such link, or one past its expiry.
    ///
    /// For `photos serve` (`package` access).
    package func shareLinkGrant(forSecret secret: String, now: Date = Date()) throws -> ShareLinkGrant? {
        guard secret.hasPrefix("pl_"), secret.utf8.count < 256 else { return nil }
        do {
            guard let record = try store.shareLinks.link(secretHash: ContentHash.sha256(of: Data(secret.utf8))) else { return nil }
            if let expires = record.expiresDate, expires <= now { return nil }
            let owner = try record.ownerID.flatMap { id throws(StoreError) in try store.people.person(id: id) }
            let ownerPerson = try owner.map { PHLibraryPerson($0, owner: try store.people.ownerID()) }
            let uuids = try store.shareLinks.assetUUIDs(of: record)
            return ShareLinkGrant(
                link: PHShareLink(record), secret: secret, owner: ownerPerson, assetIdentifiers: Set(uuids.map(LocalIdentifier.asset)),
                passwordHash: record.passwordHash)
        } catch {
            throw PHPhotosError(error)
        }
    }

    /// Whether `password` is the link's.
    package static func checkShareLinkPassword(_ password: String, of grant: ShareLinkGrant) -> Bool {
        guard let hash = grant.passwordHash else { return true }
        return password.utf8.count <= LibraryPeople.maximumPasswordBytes && Bcrypt.verify(password, hash: hash)
    }

    /// The proof a browser keeps once it gave a link's password: derived from the link's secret
    /// and its password's hash, so it needs no storage and a new password ends it.
    package static func shareLinkUnlockProof(secret: String, grant: ShareLinkGrant) -> String {
        ContentHash.sha256(of: Data("photos-link-unlock:\(secret):\(grant.passwordHash ?? "")".utf8))
    }
}

extension PHShareLink {
    init(_ record: ShareLinkRecord) {
        self.init(
            identifier: record.identifier, title: record.title,
            albumLocalIdentifier: record.albumUUID.map { LocalIdentifier.collection($0, isList: false) }, expirationDate: record.expiresDate,
            hasPassword: record.passwordHash != nil, allowsDownload: record.allowsDownload, creationDate: record.createdDate)
    }
}
