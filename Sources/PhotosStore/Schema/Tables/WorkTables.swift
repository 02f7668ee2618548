/// The `videoRendition` table: the browser-playable renditions of videos and Live Photos'
/// movies, as work to do: one row per video or Live Photo (`mediaSubtypes` bit 8), pending
/// until made (or found playable as it is), failed with its reason and a time to retry
/// (``RenditionState``). Triggers keep it whole on every write path (`LibraryMigrations`).
package enum VideoRenditionColumn: Int32, TableColumn {
    case assetID, state, sourcePath, attempts, lastError, notBefore, updatedDate

    package var definition: ColumnDefinition {
        switch self {
        case .assetID: .integer.primaryKey().references("asset", onDelete: .cascade)
        case .state, .attempts: .integer.notNull().defaults(to: 0)
        case .sourcePath, .lastError: .text
        case .notBefore, .updatedDate: .real.notNull().defaults(to: 0)
        }
    }

    package static let table = TableDefinition(
        "videoRendition", columns: VideoRenditionColumn.self,
        indexes: [IndexDefinition("videoRendition_due", [.key("state"), .key("notBefore")], added: .v8)], added: .v8)
}

/// The `renderFailure` table (issue 18): the photos and videos the library accepted but could
/// not render (a thumbnail or poster frame failed to decode), so `photos check` lists them and
/// a gallery marks their cells. A row holds the path of the file that failed; it counts only
/// while that path is still the asset's current version (``RenderFailureLog/all(limit:)``).
package enum RenderFailureColumn: Int32, TableColumn {
    case assetID, sourcePath, reason, failedDate

    package var definition: ColumnDefinition {
        switch self {
        case .assetID: .integer.primaryKey().references("asset", onDelete: .cascade)
        case .sourcePath, .reason: .text.notNull()
        case .failedDate: .real.notNull()
        }
    }

    package static let table = TableDefinition("renderFailure", columns: RenderFailureColumn.self, added: .v10)
}

/// The `importBatch` table (v14): uploads received by one instance and imported by whichever
/// claims them (``ImportBatchQueue/enqueue(uuid:owner:clientKey:tokenIdentifier:files:now:startingUntil:)``).
/// `files` is a JSON array of ``ImportBatchFile``s, `assetUUIDs` one of strings.
package enum ImportBatchColumn: Int32, TableColumn {
    case id, uuid, owner, clientKey, tokenIdentifier, files, state, attempts, errorCode, lastError, notBefore, assetUUIDs
    case createdDate, updatedDate

    package var definition: ColumnDefinition {
        switch self {
        case .id: .identity
        case .uuid: .text.notNull().unique()
        case .owner, .files: .text.notNull()
        case .clientKey, .tokenIdentifier, .lastError, .assetUUIDs: .text
        case .state, .attempts: .integer.notNull().defaults(to: 0)
        case .errorCode: .integer
        case .notBefore: .real.notNull().defaults(to: 0)
        case .createdDate, .updatedDate: .real.notNull()
        }
    }

    package static let table = TableDefinition(
        "importBatch", columns: ImportBatchColumn.self, autoincrement: .v14,
        indexes: [
            IndexDefinition(
                "importBatch_by_clientKey", [.key("owner"), .key("clientKey")], where: "clientKey IS NOT NULL", unique: true, added: .v14),
            IndexDefinition("importBatch_due", [.key("state"), .key("notBefore")], added: .v14),
        ],
        added: .v14)
}
