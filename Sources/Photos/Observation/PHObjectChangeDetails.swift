public import Foundation

/// What a change did to one object.
public final class PHObjectChangeDetails<ObjectType: PHObject>: NSObject, @unchecked Sendable {
    // @unchecked Sendable: immutable.

    /// The object as you held it.
    public let objectBeforeChanges: ObjectType
    /// The object as the change left it; `nil` when it was deleted.
    public let objectAfterChanges: ObjectType?
    /// Whether the asset's pixels changed (an edit or a revert), not just its metadata.
    public let assetContentChanged: Bool
    /// Whether the object was deleted (for assets: moved to Recently Deleted, or removed).
    public let objectWasDeleted: Bool

    init(before: ObjectType, after: ObjectType?, contentChanged: Bool, wasDeleted: Bool) {
        objectBeforeChanges = before
        objectAfterChanges = after
        assetContentChanged = contentChanged
        objectWasDeleted = wasDeleted
        super.init()
    }
}
