import Foundation
import Logging
import PhotosStore
import PhotosLocking

/// A library's access tokens, their allow-lists and sign-in sessions, on its store's
/// ``AccessTokenStore``: what `photos token` and `photos serve` use. Reached as
/// ``PHPhotoLibrary/access``; the public token methods of ``PHPhotoLibrary`` (Linux additions)
/// forward here.
package struct LibraryAccess: Sendable {
    let store: LibraryDatabase
    /// Whether the library was opened read-only (a token's use is then not recorded).
    let isReadOnly: Bool
    /// Where a version that can't be read is reported (the library's logger).
    let logger: Logger
    /// How often ``changes`` looks at the version without a wake-up (the library's
    /// `changeCheckInterval`).
    var checkInterval: DispatchTimeInterval = ChangeSignalWatcher.fallbackInterval

    /// Creates a token and returns it with its secret, which is shown only here: the library
    /// keeps only its SHA-256.
    ///
    /// For `photos token create` and `photos serve`. In a library with people the token
    /// belongs to `person` (a name or `pe_` identifier), or else to the library's owner.
    package func create(
        named name: String, level: PHAccessToken.Level, person: String? = nil
    ) throws -> (token: PHAccessToken, secret: String) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw PHPhotosError(.invalidResource, "An access token needs a name") }
        let secret = "pk_" + Self.randomText(bytes: 32)
        do {
            var personID: Int64?
            if let person {
                guard let record = try store.people.person(nameOrIdentifier: person) else {
                    throw PHPhotosError(.identifierNotFound, "No person named '\(person.prefix(80))'")
                }
                personID = record.id
            }
            let record = try store.accessTokens.create(
                identifier: "tk_" + Self.randomText(bytes: 8).prefix(10), name: trimmed, level: level.storedValue,
                secretHash: ContentHash.sha256(of: Data(secret.utf8)), date: Date(), personID: personID)
            return (try token(record), secret)
        } catch let error as StoreError {
            throw PHPhotosError(error)
        }
    }

    /// The token a row describes, with its person's identifier.
    private func token(_ record: AccessTokenRecord) throws -> PHAccessToken {
        let person = try record.personID.flatMap { id throws(StoreError) in try store.people.person(id: id)?.identifier }
        return PHAccessToken(record, personIdentifier: person)
    }

    /// Every token, oldest first.
    ///
    /// - Note: Linux addition.
    package func all() throws -> [PHAccessToken] {
        do {
            let people = Dictionary(uniqueKeysWithValues: try store.people.all().map { ($0.id, $0.identifier) })
            return try store.accessTokens.all().map { PHAccessToken($0, personIdentifier: $0.personID.flatMap { people[$0] }) }
        } catch {
            throw PHPhotosError(error)
        }
    }

    /// The token with this identifier (`tk_...`), if it exists.
    ///
    /// - Note: Linux addition.
    package func token(withIdentifier identifier: String) throws -> PHAccessToken? {
        do { return try store.accessTokens.token(identifier: identifier).map(token) } catch let error as StoreError { throw PHPhotosError(error) }
    }

    /// The token whose secret this is, or `nil`; records the use (at most once a minute, and
    /// not in a library opened read-only).
    ///
    /// - Note: Linux addition. Secrets are compared by their SHA-256, never stored.
    package func authenticate(secret: String) throws -> PHAccessToken? {
        guard secret.hasPrefix("pk_"), secret.utf8.count < 256 else { return nil }
        do {
            guard let record = try store.accessTokens.token(secretHash: ContentHash.sha256(of: Data(secret.utf8))) else { return nil }
            let now = Date()
            if !isReadOnly, record.lastUsedDate.map({ now.timeIntervalSince($0) > 60 }) ?? true {
                try store.accessTokens.markUsed(id: record.id, date: now)
            }
            return try token(record)
        } catch let error as StoreError {
            throw PHPhotosError(error)
        }
    }

    /// Revokes a token: its secret stops working at once, in every process. `false` when
    /// there was no such token.
    ///
    /// - Note: Linux addition.
    @discardableResult
    package func revoke(withIdentifier identifier: String) throws -> Bool {
        do { return try store.accessTokens.delete(identifier: identifier) } catch { throw PHPhotosError(error) }
    }

    /// The local identifiers of the assets a limited token may see.
    ///
    /// - Note: Linux addition.
    package func limitedLibraryAssetIdentifiers(forAccessToken identifier: String) throws -> [String] {
        do {
            guard let record = try store.accessTokens.token(identifier: identifier) else {
                throw PHPhotosError(.identifierNotFound, "No access token '\(identifier)'")
            }
            return try store.accessTokens.allowedAssetUUIDs(tokenID: record.id).map(LocalIdentifier.asset)
        } catch let error as StoreError {
            throw PHPhotosError(error)
        }
    }

    /// Edits a limited token's allow-list in one transaction and returns its new size.
    /// Unknown assets fail the edit with ``PHPhotosError/Code/identifierNotFound``.
    ///
    /// - Note: Linux addition. Servers see the edit through `accessChanges`.
    @discardableResult
    package func changeLimitedLibrary(ofAccessToken identifier: String, _ edit: PHLimitedLibraryEdit) throws -> Int {
        let (identifiers, mode): ([String], AllowListEdit) =
            switch edit {
            case .add(let list): (list, .add)
            case .remove(let list): (list, .remove)
            case .replace(let list): (list, .replace)
            }
        var uuids: [String] = []
        for identifier in identifiers {
            guard let uuid = LocalIdentifier.assetUUID(identifier) else {
                throw PHPhotosError(.identifierNotFound, "'\(identifier)' is not an asset identifier", localIdentifiers: [identifier])
            }
            uuids.append(uuid)
        }
        do {
            return try store.accessTokens.changeAllowedAssets(tokenIdentifier: identifier, uuids: uuids, mode: mode)
        } catch {
            throw PHPhotosError(error.code == .missingObject ? .identifierNotFound : .internalError, error.message)
        }
    }

    /// A number that grows whenever a token or an allow-list changes, in any process; 0 when
    /// it can't be read (logged).
    ///
    /// For `photos serve` only (`package` access).
    package var version: Int {
        Int(logger.attempt(.warning, "read the access version") { try store.accessTokens.version() } ?? 0)
    }

    /// Yields ``version`` each time tokens or allow-lists change, in this process or
    /// another (`photos token ...` while a server runs), within about a second.
    ///
    /// For `photos serve` only (`package` access).
    package var changes: AsyncStream<Int> {
        let (stream, continuation) = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let (store, logger) = (self.store, self.logger)
        let last = Mutex(logger.attempt(.warning, "read the access version") { try store.accessTokens.version() } ?? 0)
        let reads = RecurringFailure()
        let watcher = store.watchChanges(queue: DispatchQueue(label: "PHPhotoLibrary.access"), fallback: checkInterval, topic: .access) {
            // Unread (logged), the next wake-up reads it again.
            let read = logger.attempt(.notice, "read the access version after a change", recurring: reads) {
                try store.accessTokens.version()
            }
            guard let version = read else { return }
            let changed = last.withLock { last in
                defer { last = version }
                return last != version
            }
            if changed { continuation.yield(Int(version)) }
        }
        continuation.onTermination = { _ in watcher.cancel() }
        return stream
    }

    static func randomText(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    // MARK: - Sessions

    /// Starts a session of a token (a browser signed in with it) and returns the session's
    /// secret, for a cookie: the library keeps only its SHA-256, so sessions outlive a
    /// server's restart. Sessions older than `lifetime` are removed at the same time.
    ///
    /// For `photos serve` only (`package` access: not part of the public API). Revoking the token ends its sessions.
    package func createSession(forAccessToken identifier: String, lifetime: TimeInterval) throws -> String {
        let secret = "ps_" + Self.randomText(bytes: 32)
        let now = Date()
        do {
            try store.accessTokens.createSession(
                tokenIdentifier: identifier, secretHash: ContentHash.sha256(of: Data(secret.utf8)), date: now,
                expiredBefore: now.addingTimeInterval(-lifetime))
        } catch {
            throw PHPhotosError(error)
        }
        return secret
    }

    /// The token of the session with this secret, or `nil` when there is no such session, it
    /// is older than `lifetime`, or its token was revoked.
    ///
    /// For `photos serve` only.
    package func token(forSessionSecret secret: String, lifetime: TimeInterval) throws -> PHAccessToken? {
        guard secret.hasPrefix("ps_"), secret.utf8.count < 256 else { return nil }
        do {
            return try store.accessTokens.token(
                sessionHash: ContentHash.sha256(of: Data(secret.utf8)), createdAfter: Date().addingTimeInterval(-lifetime)
            ).map(token)
        } catch let error as StoreError {
            throw PHPhotosError(error)
        }
    }

    /// Ends the session with this secret (signing out); `false` when there was none.
    ///
    /// For `photos serve` only.
    @discardableResult
    package func endSession(secret: String) throws -> Bool {
        do { return try store.accessTokens.deleteSession(secretHash: ContentHash.sha256(of: Data(secret.utf8))) } catch { throw PHPhotosError(error) }
    }
}
