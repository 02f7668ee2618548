import Foundation
import PhotosStore

/// The abstract base of asset collections (albums, smart albums, moments) and collection
/// lists (folders, moment clusters and years).
public class PHCollection: PHObject, @unchecked Sendable {
    /// The collection's title as shown to the user (albums: the name the user gave it).
    public let localizedTitle: String?
    let record: CollectionRecord?

    init(localIdentifier: String, localizedTitle: String?, record: CollectionRecord?, library: PHPhotoLibrary?) {
        self.localizedTitle = localizedTitle
        self.record = record
        super.init(localIdentifier: localIdentifier, library: library)
    }

    var rowID: Int64? { record?.id }

    /// Whether the collection holds assets (asset collections do).
    public var canContainAssets: Bool { false }
    /// Whether the collection holds other collections (collection lists do).
    public var canContainCollections: Bool { false }

    /// Whether the collection allows an edit of this kind. Smart albums, moments and transient
    /// collections allow none.
    public func canPerform(_ anOperation: PHCollectionEditOperation) -> Bool { false }
}
