/// The `collection` table: albums, smart albums, moments, folders and moment lists.
/// `isList` tells a `PHCollectionList` from a `PHAssetCollection`; `type` and `subtype` are
/// Apple's raw values; `locationNames` is a JSON array of strings.
package enum CollectionColumn: Int32, TableColumn {
    case id, uuid, isList, type, subtype, title, startDate, endDate, latitude, longitude, locationNames
    /// The folder (or moment cluster) the collection sits in; `NULL` at the top level.
    case parentID
    case position, creationDate
    /// The person whose album, folder or moment it is (`person.id`); `NULL` for what every
    /// person sees alike (smart albums and smart folders) and in a library without people.
    case ownerID

    package var definition: ColumnDefinition {
        switch self {
        case .id: .identity
        case .uuid: .text.notNull().unique()
        case .isList, .type, .subtype: .integer.notNull()
        case .title, .locationNames: .text.journaled(.property)
        case .startDate, .endDate, .latitude, .longitude: .real.journaled(.property)
        case .parentID: .integer.references("collection", onDelete: .cascade)
        case .position: .integer.notNull().defaults(to: 0)
        case .creationDate: .real.notNull()
        case .ownerID: .integer.added(in: .v16)
        }
    }

    package static let table = TableDefinition(
        "collection", columns: CollectionColumn.self, autoincrement: .v9,
        indexes: [
            IndexDefinition("collection_by_kind", [.key("isList"), .key("type"), .key("subtype")]),
            IndexDefinition("collection_by_parent", [.key("parentID"), .key("position")]),
            // Moments in time order, for the grouper's walk to the nearest cluster split:
            // without it every page of 64 sorted all the library's moments, and a commit's walk
            // over a run of moments with no 36-hour gap (a daily photographer's) grew with the
            // square of their number (issue 19: an import slowed from ~1,000 to ~170 files/s by
            // 200,000 photos, 71 % of its time in this walk).
            IndexDefinition(
                "collection_moments_by_startDate", [.sorted("startDate"), .sorted("id")], where: "isList = 0 AND type = 3",
                added: .v13),
        ])
}

/// The `albumAsset` table: a user album's members, in the album's order.
package enum AlbumAssetColumn: Int32, TableColumn {
    case albumID, assetID, position

    package var definition: ColumnDefinition {
        switch self {
        case .albumID: .integer.notNull().references("collection", onDelete: .cascade)
        case .assetID: .integer.notNull().references("asset", onDelete: .cascade)
        case .position: .integer.notNull()
        }
    }

    package static let table = TableDefinition(
        "albumAsset", columns: AlbumAssetColumn.self, primaryKey: ["albumID", "assetID"], withoutRowID: true,
        indexes: [
            IndexDefinition("albumAsset_by_position", [.key("albumID"), .sorted("position"), .implicit("assetID")]),
            IndexDefinition("albumAsset_by_asset", [.key("assetID")]),
        ])
}
