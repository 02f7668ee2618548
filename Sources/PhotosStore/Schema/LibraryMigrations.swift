import Foundation
import GRDB

/// The SQLite library's schema, one migration per released version (``SchemaVersion``).
///
/// Each migration runs what its version added to the tables' descriptions
/// (``LibrarySchema/statements(addedIn:_:)``: the tables it made, the columns and indexes it
/// added), then what no description holds: rows it seeded, triggers, indexes later versions
/// replaced, and table rebuilds.
///
/// Dates are `REAL` seconds since 1970 (UTC). Booleans are `INTEGER` 0/1. Identifiers are
/// upper-case UUID strings; `localIdentifier`s add Apple's `/L0/001` (assets), `/L0/040` (asset
/// collections) or `/L0/020` (collection lists) suffix in the Photos module.
enum LibraryMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        for version in SchemaVersion.allCases {
            migrator.registerMigration(version.migrationName) { db in
                for statement in LibrarySchema.statements(addedIn: version, .sqlite) {
                    try db.execute(sql: statement)
                }
                try migrateFurther(to: version, db)
            }
        }
        return migrator
    }

    /// What `version` did besides its tables, columns and indexes.
    private static func migrateFurther(to version: SchemaVersion, _ db: Database) throws {
        switch version {
        case .v1:
            // The library's identity, and the smart albums every library has. Two indexes
            // v11 replaced (`VisibleAssetIndexes`).
            try db.execute(
                sql: """
                    CREATE INDEX asset_by_mediaType ON asset(mediaType, creationDate);
                    CREATE INDEX asset_by_favorite ON asset(isFavorite, creationDate);
                    INSERT INTO libraryInfo (key, value) VALUES ('libraryIdentifier', ?);
                    INSERT INTO libraryInfo (key, value) VALUES ('createdAt', ?);
                    """,
                arguments: [UUID().uuidString, ISO8601DateFormatter().string(from: Date())])
            try SmartAlbumCatalog.seed(db)
        case .v2:
            // The change journal (see `JournalTriggers`): no change removed from the history yet.
            try db.execute(sql: "INSERT INTO libraryInfo (key, value) VALUES ('historyFloor', '0')")
        case .v3:
            // Files of a size not hashed yet, until v4's signature replaced it.
            try db.execute(sql: "CREATE INDEX resource_by_fileSize ON resource(fileSize) WHERE contentHash IS NULL")
        case .v4:
            try db.execute(sql: "DROP INDEX resource_by_fileSize")
        case .v6:
            try db.execute(sql: "INSERT INTO libraryInfo (key, value) VALUES ('accessVersion', '0')")
        case .v8:
            try createVideoRenditionTriggers(db)
        case .v9:
            try AutoincrementMigration.migrate(db)
        case .v11:
            try db.execute(sql: VisibleAssetIndexes.replaced.map { "DROP INDEX \($0);" }.joined(separator: "\n"))
        case .v16:
            for statement in LibrarySchema.adoptionByOwner { try db.execute(sql: statement) }
        case .v23:
            // The index of the words; the assets already there are indexed at open
            // (`LibraryDatabase.indexUnindexedAssets()`), where the gazetteer is at hand.
            for statement in SearchDocumentColumn.engineStatements(.sqlite) + TextRecognitionColumn.engineStatements(.sqlite) {
                try db.execute(sql: statement)
            }
        case .v24:
            // The visible-asset indexes as their description now says, ending with the time
            // zone offset (`VisibleAssetIndexes`): a library's new at v11 and v20 already; an
            // older one's are built again.
            for name in VisibleAssetIndexes.rebuiltInV24 {
                try db.execute(sql: "DROP INDEX \(name)")
                try db.execute(sql: LibrarySchema.createIndex(name, .sqlite))
            }
        case .v25:
            // The search's lookup index as v25 made it, which v26 replaced.
            try db.execute(sql: VisibleAssetIndexes.forSearchV25.sql(on: "asset", .sqlite))
        case .v26:
            // The documents' lengths, then their index built over them (rather than updated
            // row by row), in place of v25's.
            try db.execute(sql: "DROP INDEX \(VisibleAssetIndexes.forSearch.name)")
            try db.execute(sql: SearchDocumentColumn.fillLengths)
            try db.execute(sql: VisibleAssetIndexes.forSearch.sql(on: "asset", .sqlite))
            try db.execute(sql: "DROP INDEX \(VisibleAssetIndexes.forSearchV25.name)")
        case .v5, .v7, .v10, .v12, .v13, .v14, .v15, .v17, .v18, .v19, .v20, .v21, .v22:
            break
        }
    }

    /// The videos and Live Photos already there get their rendition rows, and triggers keep the
    /// table whole on every write path: a new one is pending; an edit or revert (a new
    /// `contentVersion`) makes it pending again; deleting the asset deletes the row.
    private static func createVideoRenditionTriggers(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO videoRendition (assetID) SELECT id FROM asset WHERE mediaType = 2 OR (mediaSubtypes & 8) != 0;
                CREATE TRIGGER videoRendition_new AFTER INSERT ON asset WHEN NEW.mediaType = 2 OR (NEW.mediaSubtypes & 8) != 0
                BEGIN
                    INSERT OR IGNORE INTO videoRendition (assetID) VALUES (NEW.id);
                END;
                CREATE TRIGGER videoRendition_live AFTER UPDATE OF mediaSubtypes ON asset
                WHEN (NEW.mediaSubtypes & 8) != 0 AND (OLD.mediaSubtypes & 8) = 0
                BEGIN
                    INSERT OR IGNORE INTO videoRendition (assetID) VALUES (NEW.id);
                END;
                CREATE TRIGGER videoRendition_edited AFTER UPDATE OF contentVersion ON asset
                WHEN NEW.mediaType = 2 OR (NEW.mediaSubtypes & 8) != 0
                BEGIN
                    UPDATE videoRendition SET state = 0, sourcePath = NULL, attempts = 0, lastError = NULL, notBefore = 0
                    WHERE assetID = NEW.id;
                END;
                """)
    }
}
