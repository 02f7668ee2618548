public import Foundation

/// An API token of a library's server, mapping PhotoKit's authorization model onto clients
/// that are not apps.
///
/// On Apple's platforms each app is authorized by the person using the device, once, as
/// ``PHAccessLevel/readWrite`` (all of the library or a ``PHAuthorizationStatus/limited``
/// selection) or ``PHAccessLevel/addOnly``. On Linux a library is served to several clients
/// over HTTP, so each client holds a token with one of those levels.
///
/// - Note: Linux addition; there is no such type on Apple's platforms. Tokens are created with
///   ``PHPhotoLibrary/createAccessToken(named:level:person:)`` (or `photos token create`), and only a
///   SHA-256 of the secret is kept in the library.
public struct PHAccessToken: Sendable, Hashable, Identifiable {
    /// What a token lets its holder do.
    public enum Level: String, Sendable, CaseIterable, Codable {
        /// Sees and changes the whole library (``PHAccessLevel/readWrite``, authorized).
        case readWrite = "read-write"
        /// May add photos and videos, and sees nothing (``PHAccessLevel/addOnly``).
        case addOnly = "add-only"
        /// Sees and changes only the assets on its allow-list, which the library's owner
        /// edits (``PHAccessLevel/readWrite``, ``PHAuthorizationStatus/limited``). Assets it
        /// adds join its list, as on Apple's platforms.
        case limited

        var storedValue: Int {
            switch self {
            case .addOnly: 1
            case .readWrite: 2
            case .limited: 3
            }
        }

        init?(storedValue: Int) {
            guard let level = Self.allCases.first(where: { $0.storedValue == storedValue }) else { return nil }
            self = level
        }
    }

    /// A short public name of the token (`tk_` and 10 characters), for listing and revoking.
    public let identifier: String
    /// What the owner called it ("Living-room frame").
    public let name: String
    public let level: Level
    public let creationDate: Date
    /// When the token last signed a request in (updated at most once a minute).
    public let lastUseDate: Date?
    /// The identifier (`pe_...`) of the person the token belongs to, in a library with people
    /// (``PHLibraryPerson``): the token never sees more than they do. `nil` in a library
    /// without people.
    public let personIdentifier: String?

    public var id: String { identifier }

    /// The access level PhotoKit would have granted an app: ``PHAccessLevel/addOnly`` for
    /// add-only tokens, else ``PHAccessLevel/readWrite``.
    public var accessLevel: PHAccessLevel { level == .addOnly ? .addOnly : .readWrite }

    /// The status an app holding this token would see for `accessLevel`, as
    /// ``PHPhotoLibrary/authorizationStatus(for:)`` answers on Apple's platforms: an add-only
    /// token is denied read-write access; a limited token is `.limited` for read-write and
    /// authorized to add.
    public func authorizationStatus(for accessLevel: PHAccessLevel) -> PHAuthorizationStatus {
        switch (level, accessLevel) {
        case (.readWrite, _), (_, .addOnly): .authorized
        case (.addOnly, .readWrite): .denied
        case (.limited, .readWrite): .limited
        }
    }
}
