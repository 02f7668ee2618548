public import Foundation

/// Filter, order and other options for a fetch.
///
/// Predicates are `NSPredicate(format:)` predicates (this module adds that initializer,
/// which Foundation on Linux lacks) over the keys PhotoKit supports for the fetched class;
/// sort descriptors are `NSSortDescriptor(key:ascending:)` or key-path descriptors over the
/// same keys. A fetch keeps a copy of its options, so changing them afterwards changes nothing.
///
/// Supported keys:
/// - `PHAsset`: `SELF`, `localIdentifier`, `creationDate`, `modificationDate`, `mediaType`,
///   `mediaSubtypes` (also `mediaSubtype`, a spelling real clients use), `duration`,
///   `pixelWidth`, `pixelHeight`, `favorite`/`isFavorite`, `hidden`/`isHidden`,
///   `burstIdentifier`.
/// - `PHAssetCollection`: `SELF`, `localIdentifier`, `localizedTitle`/`title`, `startDate`,
///   `endDate`, `estimatedAssetCount`.
/// - `PHCollectionList` and mixed `PHCollection` fetches: `SELF`, `localIdentifier`,
///   `localizedTitle`/`title`, `startDate`, `endDate`.
///
/// An unsupported key or operator stops the process at fetch time with a message naming it
/// and its position, as Apple's fetch raises `NSInvalidArgumentException`. Call
/// ``validate(for:)`` first to get a thrown ``PHPredicateError`` instead.
public final class PHFetchOptions: NSObject, NSCopying, @unchecked Sendable {
    // @unchecked Sendable: like Apple's, a mutable options object is configured on one thread
    // and then handed to a fetch, which copies what it needs.
    public var predicate: NSPredicate?
    public var sortDescriptors: [NSSortDescriptor]?
    /// Include hidden assets (default `false`).
    public var includeHiddenAssets: Bool = false
    /// Include every photo of a burst, not just its representative and user picks (default `false`).
    public var includeAllBurstAssets: Bool = false
    /// Which sources to include; empty means the default, the user's library.
    public var includeAssetSourceTypes: PHAssetSourceType = []
    /// The most objects to return, after sorting; 0 means no limit.
    public var fetchLimit: Int = 0
    /// Whether change details for this fetch should be incremental (default `true`).
    public var wantsIncrementalChangeDetails: Bool = true

    public override init() {
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any {
        let copy = PHFetchOptions()
        copy.predicate = predicate
        copy.sortDescriptors = sortDescriptors
        copy.includeHiddenAssets = includeHiddenAssets
        copy.includeAllBurstAssets = includeAllBurstAssets
        copy.includeAssetSourceTypes = includeAssetSourceTypes
        copy.fetchLimit = fetchLimit
        copy.wantsIncrementalChangeDetails = wantsIncrementalChangeDetails
        return copy
    }

    /// Checks the predicate and sort descriptors against the keys `objectType` fetches support.
    ///
    /// Linux addition: the throwing counterpart of the process stop an unsupported key causes
    /// at fetch time. Pass `PHAsset.self`, `PHAssetCollection.self`, `PHCollectionList.self`
    /// or `PHCollection.self`.
    public func validate(for objectType: PHObject.Type) throws(PHPredicateError) {
        _ = try resolve(for: FetchEntity(objectType))
    }
}
