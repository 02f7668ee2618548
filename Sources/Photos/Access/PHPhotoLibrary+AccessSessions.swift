import Foundation
import PhotosStore

extension PHPhotoLibrary {
    /// Starts a session of a token (a browser signed in with it) and returns the session's
    /// secret, for a cookie: the library keeps only its SHA-256, so sessions outlive a
    /// server's restart. Sessions older than `lifetime` are removed at the same time.
    ///
    /// For `photos serve` only (`package` access: not part of the public API). Revoking the token ends its sessions.
    package func createAccessSession(forAccessToken identifier: String, lifetime: TimeInterval) throws -> String {
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
    package func accessToken(forSessionSecret secret: String, lifetime: TimeInterval) throws -> PHAccessToken? {
        guard secret.hasPrefix("ps_"), secret.utf8.count < 256 else { return nil }
        do {
            return try store.accessTokens.token(
                sessionHash: ContentHash.sha256(of: Data(secret.utf8)), createdAfter: Date().addingTimeInterval(-lifetime)
            ).map(PHAccessToken.init)
        } catch {
            throw PHPhotosError(error)
        }
    }

    /// Ends the session with this secret (signing out); `false` when there was none.
    ///
    /// For `photos serve` only.
    @discardableResult
    package func endAccessSession(secret: String) throws -> Bool {
        do { return try store.accessTokens.deleteSession(secretHash: ContentHash.sha256(of: Data(secret.utf8))) } catch { throw PHPhotosError(error) }
    }
}
