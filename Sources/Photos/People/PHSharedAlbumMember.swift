public import Foundation

/// How a person takes part in a shared album (``PHAssetCollectionSubtype/albumCloudShared``).
///
/// - Note: Linux addition; on Apple's platforms iCloud shared albums have subscribers who may
///   post, which the album's owner allows or not for everyone.
public enum PHSharedAlbumRole: String, Sendable, CaseIterable, Codable {
    /// Sees the album and its photos.
    case viewer
    /// Also adds photos of their own (which stay theirs) and removes them.
    case contributor

    var storedValue: Int {
        switch self {
        case .viewer: 1
        case .contributor: 2
        }
    }

    init?(storedValue: Int) {
        guard let role = Self.allCases.first(where: { $0.storedValue == storedValue }) else { return nil }
        self = role
    }
}

/// A person a shared album is shared with (``PHPhotoLibrary/sharedAlbumMembers(of:)``).
///
/// - Note: Linux addition.
public struct PHSharedAlbumMember: Sendable, Hashable {
    public let person: PHLibraryPerson
    public let role: PHSharedAlbumRole
    /// When they were added.
    public let additionDate: Date
}
