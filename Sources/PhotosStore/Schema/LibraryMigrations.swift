import Foundation
import GRDB

/// The library schema, one migration per released version.
///
/// Dates are `REAL` seconds since 1970 (UTC). Booleans are `INTEGER` 0/1. Identifiers are
/// upper-case UUID strings; `localIdentifier`s add Apple's `/L0/001` (assets), `/L0/040` (asset
/// collections) or `/L0/020` (collection lists) suffix in the Photos module.
enum LibraryMigrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try createAssetTables(db)
            try createCollectionTables(db)
            try createLibraryInfo(db)
            try SmartAlbumCatalog.seed(db)
        }
        migrator.registerMigration("v2-change-journal") { db in
            try createChangeJournal(db)
        }
        migrator.registerMigration("v3-content-hash-camera") { db in
            try addContentHashAndCamera(db)
        }
        migrator.registerMigration("v4-content-signature") { db in
            try addContentSignature(db)
        }
        migrator.registerMigration("v5-content-version") { db in
            // Bumped by every edit and revert, so observers see `assetContentChanged` even when
            // an edit keeps the same adjustment format.
            try db.execute(sql: "ALTER TABLE asset ADD COLUMN contentVersion INTEGER NOT NULL DEFAULT 0")
        }
        migrator.registerMigration("v6-access-tokens") { db in
            try createAccessTokens(db)
        }
        migrator.registerMigration("v7-access-sessions") { db in
            // A signed-in browser's session, by the SHA-256 of its secret (the cookie), so
            // sessions outlive a server restart; revoking the token ends them.
            try db.execute(
                sql: """
                    CREATE TABLE accessSession (
                        secretHash TEXT PRIMARY KEY,
                        tokenID INTEGER NOT NULL REFERENCES accessToken(id) ON DELETE CASCADE,
                        createdDate REAL NOT NULL
                    ) WITHOUT ROWID;
                    CREATE INDEX accessSession_by_token ON accessSession(tokenID);
                    """)
        }
        migrator.registerMigration("v8-video-renditions") { db in
            try createVideoRenditions(db)
        }
        migrator.registerMigration("v9-ids-never-reused") { db in
            try AutoincrementMigration.migrate(db)
        }
        migrator.registerMigration(RenderFailureMigration.name) { db in
            try RenderFailureMigration.migrate(db)
        }
        migrator.registerMigration(VisibleAssetIndexes.name) { db in
            try VisibleAssetIndexes.migrate(db)
        }
        migrator.registerMigration("v12-referenced-file-times") { db in
            // The modification time of an original referenced in place, as it was imported, so
            // importing the same folder again can tell an unchanged file by `stat` alone.
            try db.execute(sql: "ALTER TABLE resource ADD COLUMN fileModificationDate REAL")
        }
        migrator.registerMigration("v13-moments-by-start") { db in
            // Moments in time order, for the grouper's walk to the nearest cluster split: without
            // it every page of 64 sorted all the library's moments, and a commit's walk over a
            // run of moments with no 36-hour gap (a daily photographer's) grew with the square
            // of their number (issue 19: an import slowed from ~1,000 to ~170 files/s by
            // 200,000 photos, 71 % of its time in this walk).
            try db.execute(
                sql: "CREATE INDEX collection_moments_by_startDate ON collection(startDate, id) WHERE isList = 0 AND type = 3")
        }
        migrator.registerMigration("v14-import-batches") { db in
            try db.execute(sql: ImportBatchSchema.sqlite)
        }
        return migrator
    }

    /// The browser-playable renditions of videos and Live Photos' movies, as work to do: one
    /// row per video or Live Photo (`mediaSubtypes` bit 8), pending until made (or found
    /// playable as it is), failed with its reason and a time to retry. Triggers keep it whole
    /// on every write path: a new one is pending; an edit or revert (a new `contentVersion`)
    /// makes it pending again; deleting the asset deletes the row.
    private static func createVideoRenditions(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE videoRendition (
                    assetID INTEGER PRIMARY KEY REFERENCES asset(id) ON DELETE CASCADE,
                    state INTEGER NOT NULL DEFAULT 0,
                    sourcePath TEXT,
                    attempts INTEGER NOT NULL DEFAULT 0,
                    lastError TEXT,
                    notBefore REAL NOT NULL DEFAULT 0,
                    updatedDate REAL NOT NULL DEFAULT 0
                );
                CREATE INDEX videoRendition_due ON videoRendition(state, notBefore);
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

    private static func createAssetTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE asset (
                    id INTEGER PRIMARY KEY,
                    uuid TEXT NOT NULL UNIQUE,
                    mediaType INTEGER NOT NULL,
                    mediaSubtypes INTEGER NOT NULL DEFAULT 0,
                    sourceType INTEGER NOT NULL DEFAULT 1,
                    pixelWidth INTEGER NOT NULL DEFAULT 0,
                    pixelHeight INTEGER NOT NULL DEFAULT 0,
                    creationDate REAL,
                    creationTimeZoneOffset INTEGER,
                    modificationDate REAL,
                    addedDate REAL NOT NULL,
                    latitude REAL,
                    longitude REAL,
                    altitude REAL,
                    horizontalAccuracy REAL,
                    verticalAccuracy REAL,
                    locationTimestamp REAL,
                    duration REAL NOT NULL DEFAULT 0,
                    isFavorite INTEGER NOT NULL DEFAULT 0,
                    isHidden INTEGER NOT NULL DEFAULT 0,
                    burstIdentifier TEXT,
                    burstSelectionTypes INTEGER NOT NULL DEFAULT 0,
                    representsBurst INTEGER NOT NULL DEFAULT 0,
                    playbackStyle INTEGER NOT NULL DEFAULT 1,
                    hasAdjustments INTEGER NOT NULL DEFAULT 0,
                    adjustmentFormatIdentifier TEXT,
                    uniformTypeIdentifier TEXT NOT NULL,
                    originalFilename TEXT,
                    traits INTEGER NOT NULL DEFAULT 0,
                    momentID INTEGER REFERENCES collection(id) ON DELETE SET NULL,
                    trashedDate REAL
                );
                CREATE INDEX asset_by_creationDate ON asset(creationDate);
                CREATE INDEX asset_by_mediaType ON asset(mediaType, creationDate);
                CREATE INDEX asset_by_favorite ON asset(isFavorite, creationDate);
                CREATE INDEX asset_by_addedDate ON asset(addedDate);
                CREATE INDEX asset_by_burst ON asset(burstIdentifier) WHERE burstIdentifier IS NOT NULL;
                CREATE INDEX asset_by_moment ON asset(momentID, creationDate);
                CREATE INDEX asset_by_trashedDate ON asset(trashedDate) WHERE trashedDate IS NOT NULL;

                CREATE TABLE resource (
                    id INTEGER PRIMARY KEY,
                    assetID INTEGER NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                    type INTEGER NOT NULL,
                    uniformTypeIdentifier TEXT NOT NULL,
                    originalFilename TEXT NOT NULL,
                    path TEXT NOT NULL UNIQUE,
                    fileSize INTEGER NOT NULL,
                    pixelWidth INTEGER NOT NULL DEFAULT 0,
                    pixelHeight INTEGER NOT NULL DEFAULT 0,
                    UNIQUE (assetID, type)
                );
                """)
    }

    private static func createCollectionTables(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE collection (
                    id INTEGER PRIMARY KEY,
                    uuid TEXT NOT NULL UNIQUE,
                    isList INTEGER NOT NULL,
                    type INTEGER NOT NULL,
                    subtype INTEGER NOT NULL,
                    title TEXT,
                    startDate REAL,
                    endDate REAL,
                    latitude REAL,
                    longitude REAL,
                    locationNames TEXT,
                    parentID INTEGER REFERENCES collection(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL DEFAULT 0,
                    creationDate REAL NOT NULL
                );
                CREATE INDEX collection_by_kind ON collection(isList, type, subtype);
                CREATE INDEX collection_by_parent ON collection(parentID, position);

                CREATE TABLE albumAsset (
                    albumID INTEGER NOT NULL REFERENCES collection(id) ON DELETE CASCADE,
                    assetID INTEGER NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    PRIMARY KEY (albumID, assetID)
                ) WITHOUT ROWID;
                CREATE INDEX albumAsset_by_position ON albumAsset(albumID, position);
                CREATE INDEX albumAsset_by_asset ON albumAsset(assetID);
                """)
    }

    private static func createLibraryInfo(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE libraryInfo (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
                INSERT INTO libraryInfo (key, value) VALUES ('libraryIdentifier', ?);
                INSERT INTO libraryInfo (key, value) VALUES ('createdAt', ?);
                """,
            arguments: [UUID().uuidString, ISO8601DateFormatter().string(from: Date())])
    }

    /// `resource.contentHash`: the SHA-256 of the file (NULL for files imported before it
    /// existed; filled when a same-sized file is checked against them). The camera that took
    /// an asset, for later use (lens-based selfies, search).
    private static func addContentHashAndCamera(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE resource ADD COLUMN contentHash TEXT;
                CREATE INDEX resource_by_contentHash ON resource(contentHash);
                CREATE INDEX resource_by_fileSize ON resource(fileSize) WHERE contentHash IS NULL;
                ALTER TABLE asset ADD COLUMN cameraMake TEXT;
                ALTER TABLE asset ADD COLUMN cameraModel TEXT;
                ALTER TABLE asset ADD COLUMN lensModel TEXT;
                """)
    }

    /// `accessToken`: the server's API tokens, by the SHA-256 of their secret (the secret itself
    /// is never stored); `accessTokenAsset`: the assets a limited token may see.
    /// `libraryInfo.accessVersion` counts changes to either, so a server notices another
    /// process's `photos token` commands.
    private static func createAccessTokens(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE accessToken (
                    id INTEGER PRIMARY KEY,
                    identifier TEXT NOT NULL UNIQUE,
                    name TEXT NOT NULL,
                    level INTEGER NOT NULL,
                    secretHash TEXT NOT NULL UNIQUE,
                    createdDate REAL NOT NULL,
                    lastUsedDate REAL
                );
                CREATE TABLE accessTokenAsset (
                    tokenID INTEGER NOT NULL REFERENCES accessToken(id) ON DELETE CASCADE,
                    assetID INTEGER NOT NULL REFERENCES asset(id) ON DELETE CASCADE,
                    PRIMARY KEY (tokenID, assetID)
                ) WITHOUT ROWID;
                INSERT INTO libraryInfo (key, value) VALUES ('accessVersion', '0');
                """)
    }

    /// `resource.contentSignature`: the ``ContentSignature`` (size, first and last 64 KiB) the
    /// duplicate check looks files up by (NULL for files imported before it existed; filled
    /// when a same-sized file is checked against them). `resource.path` may now also be
    /// absolute: an original referenced where it is instead of copied in.
    private static func addContentSignature(_ db: Database) throws {
        try db.execute(
            sql: """
                ALTER TABLE resource ADD COLUMN contentSignature TEXT;
                DROP INDEX resource_by_fileSize;
                CREATE INDEX resource_by_size_signature ON resource(fileSize, contentSignature);
                """)
    }

    /// The change journal (see `JournalTriggers`): one `change` row per committed change,
    /// its id never reused (`AUTOINCREMENT`), and the objects each change touched.
    private static func createChangeJournal(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE change (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    date REAL NOT NULL,
                    processID INTEGER NOT NULL
                );
                CREATE TABLE changedObject (
                    changeID INTEGER NOT NULL,
                    entity INTEGER NOT NULL,
                    objectID INTEGER NOT NULL,
                    uuid TEXT NOT NULL,
                    wasVisible INTEGER NOT NULL,
                    isVisible INTEGER NOT NULL,
                    flags INTEGER NOT NULL,
                    PRIMARY KEY (changeID, entity, objectID)
                ) WITHOUT ROWID;
                INSERT INTO libraryInfo (key, value) VALUES ('historyFloor', '0');
                """)
    }
}
