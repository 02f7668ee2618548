public import Foundation

/// A person of a household's library: someone who signs in to `photos serve` with a name and a
/// password and, as the people model grows, has photos and albums of their own.
///
/// On Apple's platforms each person has a library of their own on their own devices, and a
/// shared album (``PHAssetCollectionSubtype/albumCloudShared``) joins them through iCloud. On
/// Linux one library folder (or PostgreSQL database) serves a household: its people are
/// recorded in it.
///
/// - Note: Linux addition; there is no such type on Apple's platforms. People are added with
///   ``PHPhotoLibrary/addPerson(named:password:isAdmin:)`` (or `photos user add`). The first
///   person added owns the library (what it held before it had people is theirs) and is an
///   administrator. Passwords are kept only as bcrypt hashes.
public struct PHLibraryPerson: Sendable, Hashable, Identifiable {
    /// A short public name of the person (`pe_` and 10 characters), which stays when the
    /// name changes.
    public let identifier: String
    /// The name they sign in with (unique in the library, compared without regard to case).
    public let name: String
    /// Administrators add and remove people.
    public let isAdmin: Bool
    /// Whether this person owns the library: the first one added.
    public let isOwner: Bool
    public let creationDate: Date
    /// When the password was last set.
    public let passwordChangeDate: Date

    public var id: String { identifier }
}
