import Foundation
import PhotosStore
import PhotosLocking

/// How ``PHPhotoLibrary/changeLimitedLibrary(ofAccessToken:_:)`` edits an allow-list.
///
/// - Note: Linux addition (on Apple's platforms the person picks the selection in
///   `presentLimitedLibraryPicker`).
public enum PHLimitedLibraryEdit: Sendable, Hashable {
    /// Adds these local identifiers (or bare UUIDs).
    case add([String])
    /// Removes these.
    case remove([String])
    /// Makes the list exactly these.
    case replace([String])
}

extension PHPhotoLibrary {
    /// The library's access tokens and sessions (``LibraryAccess``), for `photos serve`.
    package var access: LibraryAccess {
        LibraryAccess(store: store, isReadOnly: isReadOnly, logger: logger, checkInterval: configuration.changeCheckInterval)
    }

    /// Creates a token and returns it with its secret, which is shown only here: the library
    /// keeps only its SHA-256. In a library with people the token belongs to `person` (a name
    /// or `pe_` identifier; the library's owner when `nil`) and never sees more than they do.
    ///
    /// - Note: Linux addition, for `photos serve`.
    public func createAccessToken(
        named name: String, level: PHAccessToken.Level, person: String? = nil
    ) throws -> (token: PHAccessToken, secret: String) {
        try access.create(named: name, level: level, person: person)
    }

    /// Every token, oldest first.
    ///
    /// - Note: Linux addition.
    public func accessTokens() throws -> [PHAccessToken] {
        try access.all()
    }

    /// The token with this identifier (`tk_...`), if it exists.
    ///
    /// - Note: Linux addition.
    public func accessToken(withIdentifier identifier: String) throws -> PHAccessToken? {
        try access.token(withIdentifier: identifier)
    }

    /// The token whose secret this is, or `nil`; records the use (at most once a minute, and
    /// not in a library opened read-only).
    ///
    /// - Note: Linux addition. Secrets are compared by their SHA-256, never stored.
    public func authenticateAccessToken(secret: String) throws -> PHAccessToken? {
        try access.authenticate(secret: secret)
    }

    /// Revokes a token: its secret stops working at once, in every process. `false` when
    /// there was no such token.
    ///
    /// - Note: Linux addition.
    @discardableResult
    public func revokeAccessToken(withIdentifier identifier: String) throws -> Bool {
        try access.revoke(withIdentifier: identifier)
    }

    /// The local identifiers of the assets a limited token may see.
    ///
    /// - Note: Linux addition.
    public func limitedLibraryAssetIdentifiers(forAccessToken identifier: String) throws -> [String] {
        try access.limitedLibraryAssetIdentifiers(forAccessToken: identifier)
    }

    /// Edits a limited token's allow-list in one transaction and returns its new size.
    /// Unknown assets fail the edit with ``PHPhotosError/Code/identifierNotFound``.
    ///
    /// - Note: Linux addition. Servers see the edit through `access.changes`.
    @discardableResult
    public func changeLimitedLibrary(ofAccessToken identifier: String, _ edit: PHLimitedLibraryEdit) throws -> Int {
        try access.changeLimitedLibrary(ofAccessToken: identifier, edit)
    }
}

extension PHAccessToken {
    init(_ record: AccessTokenRecord, personIdentifier: String?) {
        self.init(
            identifier: record.identifier, name: record.name, level: Level(storedValue: record.level) ?? .limited,
            creationDate: record.createdDate, lastUseDate: record.lastUsedDate, personIdentifier: personIdentifier)
    }
}
