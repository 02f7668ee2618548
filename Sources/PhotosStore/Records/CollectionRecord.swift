package import Foundation

/// One row of the `collection` table: an album, smart album, moment, folder or moment list.
package struct CollectionRecord: Sendable, Hashable {
    package var id: Int64
    package var uuid: String
    /// A `PHCollectionList` (else a `PHAssetCollection`).
    package var isList: Bool
    /// `PHAssetCollectionType` or `PHCollectionListType` raw value.
    package var type: Int
    /// `PHAssetCollectionSubtype` or `PHCollectionListSubtype` raw value.
    package var subtype: Int
    package var title: String?
    package var startDate: Date?
    package var endDate: Date?
    package var approximateLocation: LocationRecord?
    package var locationNames: [String]
    /// The folder (or moment cluster) this collection sits in; `nil` at the top level.
    package var parentID: Int64?
    package var position: Int
    package var creationDate: Date
    /// Apple's `estimatedAssetCount`: `nil` where it can't be given quickly (smart albums).
    package var estimatedAssetCount: Int?

    package init(
        id: Int64 = 0, uuid: String, isList: Bool, type: Int, subtype: Int, title: String?,
        startDate: Date? = nil, endDate: Date? = nil, approximateLocation: LocationRecord? = nil,
        locationNames: [String] = [], parentID: Int64? = nil, position: Int = 0,
        creationDate: Date, estimatedAssetCount: Int? = nil
    ) {
        self.id = id
        self.uuid = uuid
        self.isList = isList
        self.type = type
        self.subtype = subtype
        self.title = title
        self.startDate = startDate
        self.endDate = endDate
        self.approximateLocation = approximateLocation
        self.locationNames = locationNames
        self.parentID = parentID
        self.position = position
        self.creationDate = creationDate
        self.estimatedAssetCount = estimatedAssetCount
    }
}

/// Raw values the store needs to tell collection kinds apart (Apple's numbering).
package enum CollectionKind {
    package static let album = 1
    package static let smartAlbum = 2
    package static let moment = 3
    package static let momentList = 1
    package static let folder = 2
    package static let smartFolder = 3
    package static let albumRegular = 2
    /// `PHAssetCollectionSubtype.albumCloudShared`: a shared album (``AlbumMemberColumn``).
    package static let albumCloudShared = 101
    package static let momentListCluster = 1
    package static let momentListYear = 2
    package static let regularFolder = 100
    package static let anySubtype = Int.max
}

enum CollectionCounts {
    /// Apple's `estimatedAssetCount`: album members and moment assets not in Recently
    /// Deleted; `NULL` (NSNotFound) for smart albums and collection lists.
    ///
    /// Counted as every member less the trashed ones: the members from an index alone
    /// (`albumAsset`'s key, `asset_by_moment`), the trashed ones from the partial
    /// `asset_by_trashedDate` index (only trashed rows, each looked up in the album's key), so
    /// an album of 100,000 costs a count of its index entries instead of 100,000 row lookups.
    static let estimatedAssetCount: StoreSQL = """
        (CASE WHEN collection.isList = 0 AND collection.type = 1 THEN \
        (SELECT COUNT(*) FROM albumAsset WHERE albumAsset.albumID = collection.id) \
        - (SELECT COUNT(*) FROM asset\(StoreSQL.hint(.indexedBy("asset_by_trashedDate"))) \(StoreSQL.hint(.crossJoin)) albumAsset \
        ON albumAsset.assetID = asset.id AND albumAsset.albumID = collection.id \
        WHERE asset.trashedDate IS NOT NULL) \
        WHEN collection.isList = 0 AND collection.type = 3 THEN \
        (SELECT COUNT(*) FROM asset WHERE asset.momentID = collection.id) \
        - (SELECT COUNT(*) FROM asset WHERE asset.momentID = collection.id AND asset.trashedDate IS NOT NULL) \
        ELSE NULL END)
        """
}

extension CollectionRecord {
    /// What ``init(row:)`` reads: the `collection` table's columns, then the estimated count.
    static let selection: StoreSQL = "\(CollectionColumn.selection), \(CollectionCounts.estimatedAssetCount)"

    /// Reads a row selected with ``selection``.
    init(row: some ColumnReading) {
        typealias Column = CollectionColumn
        id = row[Column.id]
        uuid = row[Column.uuid]
        isList = row[Column.isList]
        type = row[Column.type]
        subtype = row[Column.subtype]
        title = row[Column.title]
        startDate = row[Column.startDate]
        endDate = row[Column.endDate]
        if let latitude: Double = row[Column.latitude], let longitude: Double = row[Column.longitude] {
            approximateLocation = LocationRecord(latitude: latitude, longitude: longitude)
        } else {
            approximateLocation = nil
        }
        let names: String? = row[Column.locationNames]
        if let names, let decoded = try? JSONDecoder().decode([String].self, from: Data(names.utf8)) {
            locationNames = decoded
        } else {
            locationNames = []
        }
        parentID = row[Column.parentID]
        position = row[Column.position]
        creationDate = row[Column.creationDate]
        estimatedAssetCount = row[after: Column.self, 0]
    }
}
