/// The `asset` table: one row per photo or video, everything a `PHAsset` shows.
///
/// Dates are `REAL` seconds since 1970 (UTC); booleans `INTEGER` 0/1; `uuid` is the upper-case
/// UUID a `localIdentifier` starts with. Columns journaled as properties are the ones a
/// `PHAsset` shows: a change to any is an update for observers; content columns also mean the
/// pixels changed.
package enum AssetColumn: Int32, TableColumn {
    case id, uuid, mediaType, mediaSubtypes, sourceType, pixelWidth, pixelHeight, creationDate
    /// Seconds east of UTC at capture, when the file said so.
    case creationTimeZoneOffset
    case modificationDate, addedDate
    case latitude, longitude, altitude, horizontalAccuracy, verticalAccuracy, locationTimestamp
    case duration, isFavorite, isHidden
    case burstIdentifier, burstSelectionTypes, representsBurst, playbackStyle
    case hasAdjustments, adjustmentFormatIdentifier, uniformTypeIdentifier, originalFilename
    /// ``AssetTraits`` bits: metadata only smart albums look at.
    case traits
    /// The moment the asset belongs to (none while it is in Recently Deleted).
    case momentID
    case trashedDate
    /// The camera that took it, for later use (lens-based selfies, search).
    case cameraMake, cameraModel, lensModel
    /// Bumped by every edit and revert, so observers see `assetContentChanged` even when an
    /// edit keeps the same adjustment format.
    case contentVersion
    /// The person whose asset it is (`person.id`), in a library with people; `NULL` in a
    /// library without. Not a foreign key: a person's removal decides what becomes of theirs.
    case ownerID
    /// The title, caption and keywords the file carried (XMP, IPTC), for search; keywords one
    /// a line.
    case title, caption, keywords
    /// How many words the asset's search document holds (``SearchText/document(_:)``), for
    /// SQLite's rank of a search (``SearchRank``): written with the document, `NULL` for an
    /// asset without one, and on PostgreSQL, whose `ts_rank` reads the vector instead. Not a
    /// property: nothing a `PHAsset` shows.
    case searchLength

    package var definition: ColumnDefinition {
        switch self {
        case .id: .identity
        case .uuid: .text.notNull().unique()
        case .mediaType: .integer.notNull().journaled(.property)
        case .mediaSubtypes, .pixelWidth, .pixelHeight, .isFavorite, .isHidden, .burstSelectionTypes, .representsBurst, .traits:
            .integer.notNull().defaults(to: 0).journaled(.property)
        case .sourceType, .playbackStyle: .integer.notNull().defaults(to: 1).journaled(.property)
        case .creationDate, .modificationDate, .latitude, .longitude, .altitude, .horizontalAccuracy, .verticalAccuracy,
            .locationTimestamp:
            .real.journaled(.property)
        case .creationTimeZoneOffset: .integer.journaled(.property)
        case .addedDate: .real.notNull()
        case .duration: .real.notNull().defaults(to: 0).journaled(.property)
        case .burstIdentifier, .originalFilename: .text.journaled(.property)
        case .hasAdjustments: .integer.notNull().defaults(to: 0).journaled(.content)
        case .adjustmentFormatIdentifier: .text.journaled(.content)
        case .uniformTypeIdentifier: .text.notNull().journaled(.property)
        case .momentID: .integer.references("collection", onDelete: .setNull)
        case .trashedDate: .real
        case .cameraMake, .cameraModel, .lensModel: .text.added(in: .v3)
        case .contentVersion: .integer.notNull().defaults(to: 0).journaled(.content).added(in: .v5)
        case .ownerID: .integer.added(in: .v16)
        case .title, .caption, .keywords: .text.added(in: .v22)
        case .searchLength: .integer.added(in: .v26)
        }
    }

    package static let table = TableDefinition(
        "asset", columns: AssetColumn.self, autoincrement: .v9,
        indexes: [
            IndexDefinition("asset_by_creationDate", [.sorted("creationDate"), .implicit("id")]),
            IndexDefinition("asset_by_addedDate", [.sorted("addedDate"), .implicit("id")]),
            IndexDefinition("asset_by_burst", [.key("burstIdentifier")], where: "burstIdentifier IS NOT NULL"),
            IndexDefinition("asset_by_moment", [.key("momentID"), .sorted("creationDate"), .implicit("id")]),
            // Recently Deleted: newest deletion first, then the id ascending (read backwards).
            IndexDefinition(
                "asset_by_trashedDate", [.sorted("trashedDate"), .implicit("id", descending: true)], where: "trashedDate IS NOT NULL"),
            // A person's assets in time order; empty (and free) in a library without people.
            IndexDefinition(
                "asset_by_owner", [.key("ownerID"), .sorted("creationDate"), .implicit("id")], where: "ownerID IS NOT NULL",
                added: .v16),
        ] + VisibleAssetIndexes.indexes + VisibleAssetIndexes.ownerIndexes + [VisibleAssetIndexes.forSearch])
}
