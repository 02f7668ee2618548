import Foundation
import GRDB
import Testing

@testable import PhotosStore

/// The schema a new SQLite library gets, as released (v26: v14, the people's tables, the owners' columns, shared albums' members, partner shares, public links, the owners' indexes, the journal's owners, the assets' titles, captions and keywords, the search index with its FTS5 table, the text recognition work, the visible-asset indexes ending with the time zone offset, and the search's lookup index with each document's length): every
/// table, index and trigger, one per line (`type name table SQL`, whitespace folded). The migrations render the tables from
/// their descriptions; a description changed without a new migration changes what a new library
/// gets but not what an existing one has, and this test says so. (Taken from the library the
/// version before the descriptions made: the redesign changed nothing.)
@Suite("Released schema")
struct ReleasedSchemaTests {
    static let v26 = """
        index accessSession_by_token accessSession CREATE INDEX accessSession_by_token ON accessSession(tokenID)
        index albumAsset_by_asset albumAsset CREATE INDEX albumAsset_by_asset ON albumAsset(assetID)
        index albumAsset_by_position albumAsset CREATE INDEX albumAsset_by_position ON albumAsset(albumID, position)
        index albumMember_by_person albumMember CREATE INDEX albumMember_by_person ON albumMember(personID)
        index asset_by_addedDate asset CREATE INDEX asset_by_addedDate ON asset(addedDate)
        index asset_by_burst asset CREATE INDEX asset_by_burst ON asset(burstIdentifier) WHERE burstIdentifier IS NOT NULL
        index asset_by_creationDate asset CREATE INDEX asset_by_creationDate ON asset(creationDate)
        index asset_by_moment asset CREATE INDEX asset_by_moment ON asset(momentID, creationDate)
        index asset_by_owner asset CREATE INDEX asset_by_owner ON asset(ownerID, creationDate) WHERE ownerID IS NOT NULL
        index asset_by_trashedDate asset CREATE INDEX asset_by_trashedDate ON asset(trashedDate) WHERE trashedDate IS NOT NULL
        index asset_owner_visible_by_creationDate asset CREATE INDEX asset_owner_visible_by_creationDate ON asset(ownerID, isHidden, creationDate, id, mediaSubtypes, traits, creationTimeZoneOffset) WHERE trashedDate IS NULL AND (burstIdentifier IS NULL OR representsBurst = 1 OR (burstSelectionTypes & 2) != 0) AND (sourceType & 1) != 0 AND ownerID IS NOT NULL
        index asset_owner_visible_by_favorite asset CREATE INDEX asset_owner_visible_by_favorite ON asset(ownerID, isFavorite, isHidden, creationDate, id, creationTimeZoneOffset) WHERE trashedDate IS NULL AND (burstIdentifier IS NULL OR representsBurst = 1 OR (burstSelectionTypes & 2) != 0) AND (sourceType & 1) != 0 AND ownerID IS NOT NULL
        index asset_owner_visible_by_mediaType asset CREATE INDEX asset_owner_visible_by_mediaType ON asset(ownerID, mediaType, isHidden, creationDate, id, creationTimeZoneOffset) WHERE trashedDate IS NULL AND (burstIdentifier IS NULL OR representsBurst = 1 OR (burstSelectionTypes & 2) != 0) AND (sourceType & 1) != 0 AND ownerID IS NOT NULL
        index asset_visible_by_creationDate asset CREATE INDEX asset_visible_by_creationDate ON asset(isHidden, creationDate, id, mediaSubtypes, traits, creationTimeZoneOffset) WHERE trashedDate IS NULL AND (burstIdentifier IS NULL OR representsBurst = 1 OR (burstSelectionTypes & 2) != 0) AND (sourceType & 1) != 0
        index asset_visible_by_favorite asset CREATE INDEX asset_visible_by_favorite ON asset(isFavorite, isHidden, creationDate, id, creationTimeZoneOffset) WHERE trashedDate IS NULL AND (burstIdentifier IS NULL OR representsBurst = 1 OR (burstSelectionTypes & 2) != 0) AND (sourceType & 1) != 0
        index asset_visible_by_id asset CREATE INDEX asset_visible_by_id ON asset(id, isHidden) WHERE trashedDate IS NULL AND (burstIdentifier IS NULL OR representsBurst = 1 OR (burstSelectionTypes & 2) != 0) AND (sourceType & 1) != 0
        index asset_visible_by_mediaType asset CREATE INDEX asset_visible_by_mediaType ON asset(mediaType, isHidden, creationDate, id, creationTimeZoneOffset) WHERE trashedDate IS NULL AND (burstIdentifier IS NULL OR representsBurst = 1 OR (burstSelectionTypes & 2) != 0) AND (sourceType & 1) != 0
        index asset_visible_search_lookup asset CREATE INDEX asset_visible_search_lookup ON asset(id, isHidden, creationDate, creationTimeZoneOffset, mediaType, mediaSubtypes, isFavorite, ownerID, searchLength) WHERE trashedDate IS NULL AND (burstIdentifier IS NULL OR representsBurst = 1 OR (burstSelectionTypes & 2) != 0) AND (sourceType & 1) != 0
        index collection_by_kind collection CREATE INDEX collection_by_kind ON collection(isList, type, subtype)
        index collection_by_parent collection CREATE INDEX collection_by_parent ON collection(parentID, position)
        index collection_moments_by_startDate collection CREATE INDEX collection_moments_by_startDate ON collection(startDate, id) WHERE isList = 0 AND type = 3
        index importBatch_by_clientKey importBatch CREATE UNIQUE INDEX importBatch_by_clientKey ON importBatch(owner, clientKey) WHERE clientKey IS NOT NULL
        index importBatch_due importBatch CREATE INDEX importBatch_due ON importBatch(state, notBefore)
        index partnerShare_by_partner partnerShare CREATE INDEX partnerShare_by_partner ON partnerShare(partnerID)
        index personSession_by_person personSession CREATE INDEX personSession_by_person ON personSession(personID)
        index resource_by_contentHash resource CREATE INDEX resource_by_contentHash ON resource(contentHash)
        index resource_by_size_signature resource CREATE INDEX resource_by_size_signature ON resource(fileSize, contentSignature)
        index sqlite_autoindex_accessToken_1 accessToken 
        index sqlite_autoindex_accessToken_2 accessToken 
        index sqlite_autoindex_asset_1 asset 
        index sqlite_autoindex_collection_1 collection 
        index sqlite_autoindex_grdb_migrations_1 grdb_migrations 
        index sqlite_autoindex_importBatch_1 importBatch 
        index sqlite_autoindex_person_1 person 
        index sqlite_autoindex_person_2 person 
        index sqlite_autoindex_resource_1 resource 
        index sqlite_autoindex_resource_2 resource 
        index sqlite_autoindex_shareLink_1 shareLink 
        index sqlite_autoindex_shareLink_2 shareLink 
        index textRecognition_due textRecognition CREATE INDEX textRecognition_due ON textRecognition(state, notBefore)
        index videoRendition_due videoRendition CREATE INDEX videoRendition_due ON videoRendition(state, notBefore)
        table accessSession accessSession CREATE TABLE accessSession (secretHash TEXT PRIMARY KEY, tokenID INTEGER NOT NULL REFERENCES accessToken(id) ON DELETE CASCADE, createdDate REAL NOT NULL) WITHOUT ROWID
        table accessToken accessToken CREATE TABLE accessToken (id INTEGER PRIMARY KEY, identifier TEXT NOT NULL UNIQUE, name TEXT NOT NULL, level INTEGER NOT NULL, secretHash TEXT NOT NULL UNIQUE, createdDate REAL NOT NULL, lastUsedDate REAL , personID INTEGER REFERENCES person(id) ON DELETE CASCADE)
        table accessTokenAsset accessTokenAsset CREATE TABLE accessTokenAsset (tokenID INTEGER NOT NULL REFERENCES accessToken(id) ON DELETE CASCADE, assetID INTEGER NOT NULL REFERENCES asset(id) ON DELETE CASCADE, PRIMARY KEY (tokenID, assetID)) WITHOUT ROWID
        table albumAsset albumAsset CREATE TABLE albumAsset (albumID INTEGER NOT NULL REFERENCES collection(id) ON DELETE CASCADE, assetID INTEGER NOT NULL REFERENCES asset(id) ON DELETE CASCADE, position INTEGER NOT NULL, PRIMARY KEY (albumID, assetID)) WITHOUT ROWID
        table albumMember albumMember CREATE TABLE albumMember (albumID INTEGER NOT NULL REFERENCES collection(id) ON DELETE CASCADE, personID INTEGER NOT NULL REFERENCES person(id) ON DELETE CASCADE, role INTEGER NOT NULL, addedDate REAL NOT NULL, PRIMARY KEY (albumID, personID)) WITHOUT ROWID
        table asset asset CREATE TABLE "asset" (id INTEGER PRIMARY KEY AUTOINCREMENT, uuid TEXT NOT NULL UNIQUE, mediaType INTEGER NOT NULL, mediaSubtypes INTEGER NOT NULL DEFAULT 0, sourceType INTEGER NOT NULL DEFAULT 1, pixelWidth INTEGER NOT NULL DEFAULT 0, pixelHeight INTEGER NOT NULL DEFAULT 0, creationDate REAL, creationTimeZoneOffset INTEGER, modificationDate REAL, addedDate REAL NOT NULL, latitude REAL, longitude REAL, altitude REAL, horizontalAccuracy REAL, verticalAccuracy REAL, locationTimestamp REAL, duration REAL NOT NULL DEFAULT 0, isFavorite INTEGER NOT NULL DEFAULT 0, isHidden INTEGER NOT NULL DEFAULT 0, burstIdentifier TEXT, burstSelectionTypes INTEGER NOT NULL DEFAULT 0, representsBurst INTEGER NOT NULL DEFAULT 0, playbackStyle INTEGER NOT NULL DEFAULT 1, hasAdjustments INTEGER NOT NULL DEFAULT 0, adjustmentFormatIdentifier TEXT, uniformTypeIdentifier TEXT NOT NULL, originalFilename TEXT, traits INTEGER NOT NULL DEFAULT 0, momentID INTEGER REFERENCES collection(id) ON DELETE SET NULL, trashedDate REAL , cameraMake TEXT, cameraModel TEXT, lensModel TEXT, contentVersion INTEGER NOT NULL DEFAULT 0, ownerID INTEGER, title TEXT, caption TEXT, keywords TEXT, searchLength INTEGER)
        table change change CREATE TABLE change (id INTEGER PRIMARY KEY AUTOINCREMENT, date REAL NOT NULL, processID INTEGER NOT NULL)
        table changedObject changedObject CREATE TABLE changedObject (changeID INTEGER NOT NULL, entity INTEGER NOT NULL, objectID INTEGER NOT NULL, uuid TEXT NOT NULL, wasVisible INTEGER NOT NULL, isVisible INTEGER NOT NULL, flags INTEGER NOT NULL, ownerID INTEGER, PRIMARY KEY (changeID, entity, objectID)) WITHOUT ROWID
        table collection collection CREATE TABLE "collection" (id INTEGER PRIMARY KEY AUTOINCREMENT, uuid TEXT NOT NULL UNIQUE, isList INTEGER NOT NULL, type INTEGER NOT NULL, subtype INTEGER NOT NULL, title TEXT, startDate REAL, endDate REAL, latitude REAL, longitude REAL, locationNames TEXT, parentID INTEGER REFERENCES collection(id) ON DELETE CASCADE, position INTEGER NOT NULL DEFAULT 0, creationDate REAL NOT NULL , ownerID INTEGER)
        table grdb_migrations grdb_migrations CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)
        table importBatch importBatch CREATE TABLE importBatch (id INTEGER PRIMARY KEY AUTOINCREMENT, uuid TEXT NOT NULL UNIQUE, owner TEXT NOT NULL, clientKey TEXT, tokenIdentifier TEXT, files TEXT NOT NULL, state INTEGER NOT NULL DEFAULT 0, attempts INTEGER NOT NULL DEFAULT 0, errorCode INTEGER, lastError TEXT, notBefore REAL NOT NULL DEFAULT 0, assetUUIDs TEXT, createdDate REAL NOT NULL, updatedDate REAL NOT NULL)
        table libraryInfo libraryInfo CREATE TABLE libraryInfo (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID
        table partnerShare partnerShare CREATE TABLE partnerShare (ownerID INTEGER NOT NULL REFERENCES person(id) ON DELETE CASCADE, partnerID INTEGER NOT NULL REFERENCES person(id) ON DELETE CASCADE, sinceDate REAL, inTimeline INTEGER NOT NULL DEFAULT 0, createdDate REAL NOT NULL, PRIMARY KEY (ownerID, partnerID)) WITHOUT ROWID
        table person person CREATE TABLE person (id INTEGER PRIMARY KEY, identifier TEXT NOT NULL UNIQUE, name TEXT NOT NULL, nameKey TEXT NOT NULL UNIQUE, isAdmin INTEGER NOT NULL DEFAULT 0, passwordHash TEXT NOT NULL, createdDate REAL NOT NULL, passwordChangedDate REAL NOT NULL)
        table personSession personSession CREATE TABLE personSession (secretHash TEXT PRIMARY KEY, personID INTEGER NOT NULL REFERENCES person(id) ON DELETE CASCADE, createdDate REAL NOT NULL) WITHOUT ROWID
        table renderFailure renderFailure CREATE TABLE renderFailure (assetID INTEGER PRIMARY KEY REFERENCES asset(id) ON DELETE CASCADE, sourcePath TEXT NOT NULL, reason TEXT NOT NULL, failedDate REAL NOT NULL)
        table resource resource CREATE TABLE resource (id INTEGER PRIMARY KEY, assetID INTEGER NOT NULL REFERENCES asset(id) ON DELETE CASCADE, type INTEGER NOT NULL, uniformTypeIdentifier TEXT NOT NULL, originalFilename TEXT NOT NULL, path TEXT NOT NULL UNIQUE, fileSize INTEGER NOT NULL, pixelWidth INTEGER NOT NULL DEFAULT 0, pixelHeight INTEGER NOT NULL DEFAULT 0, contentHash TEXT, contentSignature TEXT, fileModificationDate REAL, UNIQUE (assetID, type))
        table searchDocument searchDocument CREATE TABLE searchDocument (assetID INTEGER PRIMARY KEY REFERENCES asset(id) ON DELETE CASCADE, words TEXT NOT NULL)
        table searchIndex searchIndex CREATE VIRTUAL TABLE searchIndex USING fts5(words, content='searchDocument', content_rowid='assetID', tokenize='unicode61')
        table searchIndex_config searchIndex_config CREATE TABLE 'searchIndex_config'(k PRIMARY KEY, v) WITHOUT ROWID
        table searchIndex_data searchIndex_data CREATE TABLE 'searchIndex_data'(id INTEGER PRIMARY KEY, block BLOB)
        table searchIndex_docsize searchIndex_docsize CREATE TABLE 'searchIndex_docsize'(id INTEGER PRIMARY KEY, sz BLOB)
        table searchIndex_idx searchIndex_idx CREATE TABLE 'searchIndex_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID
        table shareLink shareLink CREATE TABLE shareLink (id INTEGER PRIMARY KEY, identifier TEXT NOT NULL UNIQUE, secretHash TEXT NOT NULL UNIQUE, ownerID INTEGER REFERENCES person(id) ON DELETE CASCADE, albumID INTEGER REFERENCES collection(id) ON DELETE CASCADE, title TEXT NOT NULL, expiresDate REAL, passwordHash TEXT, allowsDownload INTEGER NOT NULL DEFAULT 0, createdDate REAL NOT NULL)
        table shareLinkAsset shareLinkAsset CREATE TABLE shareLinkAsset (linkID INTEGER NOT NULL REFERENCES shareLink(id) ON DELETE CASCADE, assetID INTEGER NOT NULL REFERENCES asset(id) ON DELETE CASCADE, PRIMARY KEY (linkID, assetID)) WITHOUT ROWID
        table signInFailure signInFailure CREATE TABLE signInFailure (key TEXT PRIMARY KEY, failures INTEGER NOT NULL, firstDate REAL NOT NULL, lastDate REAL NOT NULL) WITHOUT ROWID
        table sqlite_sequence sqlite_sequence CREATE TABLE sqlite_sequence(name,seq)
        table textRecognition textRecognition CREATE TABLE textRecognition (assetID INTEGER PRIMARY KEY REFERENCES asset(id) ON DELETE CASCADE, state INTEGER NOT NULL DEFAULT 0, sourcePath TEXT, attempts INTEGER NOT NULL DEFAULT 0, lastError TEXT, notBefore REAL NOT NULL DEFAULT 0, updatedDate REAL NOT NULL DEFAULT 0, words TEXT, boxes TEXT)
        table videoRendition videoRendition CREATE TABLE videoRendition (assetID INTEGER PRIMARY KEY REFERENCES asset(id) ON DELETE CASCADE, state INTEGER NOT NULL DEFAULT 0, sourcePath TEXT, attempts INTEGER NOT NULL DEFAULT 0, lastError TEXT, notBefore REAL NOT NULL DEFAULT 0, updatedDate REAL NOT NULL DEFAULT 0)
        trigger searchIndex_delete searchDocument CREATE TRIGGER searchIndex_delete AFTER DELETE ON searchDocument BEGIN INSERT INTO searchIndex (searchIndex, rowid, words) VALUES ('delete', OLD.assetID, OLD.words); END
        trigger searchIndex_insert searchDocument CREATE TRIGGER searchIndex_insert AFTER INSERT ON searchDocument BEGIN INSERT INTO searchIndex (rowid, words) VALUES (NEW.assetID, NEW.words); END
        trigger searchIndex_update searchDocument CREATE TRIGGER searchIndex_update AFTER UPDATE OF words ON searchDocument BEGIN INSERT INTO searchIndex (searchIndex, rowid, words) VALUES ('delete', OLD.assetID, OLD.words); INSERT INTO searchIndex (rowid, words) VALUES (NEW.assetID, NEW.words); END
        trigger textRecognition_edited asset CREATE TRIGGER textRecognition_edited AFTER UPDATE OF contentVersion ON asset WHEN NEW.mediaType = 1 BEGIN UPDATE textRecognition SET state = 0, sourcePath = NULL, attempts = 0, lastError = NULL, notBefore = 0 WHERE assetID = NEW.id; END
        trigger textRecognition_new asset CREATE TRIGGER textRecognition_new AFTER INSERT ON asset WHEN NEW.mediaType = 1 BEGIN INSERT OR IGNORE INTO textRecognition (assetID) VALUES (NEW.id); END
        trigger videoRendition_edited asset CREATE TRIGGER videoRendition_edited AFTER UPDATE OF contentVersion ON asset WHEN NEW.mediaType = 2 OR (NEW.mediaSubtypes & 8) != 0 BEGIN UPDATE videoRendition SET state = 0, sourcePath = NULL, attempts = 0, lastError = NULL, notBefore = 0 WHERE assetID = NEW.id; END
        trigger videoRendition_live asset CREATE TRIGGER videoRendition_live AFTER UPDATE OF mediaSubtypes ON asset WHEN (NEW.mediaSubtypes & 8) != 0 AND (OLD.mediaSubtypes & 8) = 0 BEGIN INSERT OR IGNORE INTO videoRendition (assetID) VALUES (NEW.id); END
        trigger videoRendition_new asset CREATE TRIGGER videoRendition_new AFTER INSERT ON asset WHEN NEW.mediaType = 2 OR (NEW.mediaSubtypes & 8) != 0 BEGIN INSERT OR IGNORE INTO videoRendition (assetID) VALUES (NEW.id); END
        """

    /// v23's visible-asset indexes, as it released them (before the time zone offset).
    static let v23VisibleIndexes = [
        "CREATE INDEX asset_visible_by_creationDate ON asset(isHidden, creationDate, id, mediaSubtypes, traits) WHERE \(visible)",
        "CREATE INDEX asset_visible_by_mediaType ON asset(mediaType, isHidden, creationDate) WHERE \(visible)",
        "CREATE INDEX asset_visible_by_favorite ON asset(isFavorite, isHidden, creationDate) WHERE \(visible)",
        "CREATE INDEX asset_owner_visible_by_creationDate ON asset(ownerID, isHidden, creationDate, id, mediaSubtypes, traits) WHERE \(visible) AND ownerID IS NOT NULL",
        "CREATE INDEX asset_owner_visible_by_mediaType ON asset(ownerID, mediaType, isHidden, creationDate) WHERE \(visible) AND ownerID IS NOT NULL",
        "CREATE INDEX asset_owner_visible_by_favorite ON asset(ownerID, isFavorite, isHidden, creationDate) WHERE \(visible) AND ownerID IS NOT NULL",
    ]
    static let visible = "trashedDate IS NULL AND (burstIdentifier IS NULL OR representsBurst = 1 OR (burstSelectionTypes & 2) != 0) AND (sourceType & 1) != 0"

    /// A library made at v23 gets the visible-asset indexes built again ending with the time
    /// zone offset, its assets kept, and a year is then read from the index alone.
    @Test func v24BuildsTheVisibleIndexesAgainWithTheOffset() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("v24-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try Self.open(madeAt: .v23, in: folder) { db in
            for name in VisibleAssetIndexes.rebuiltInV24 { try db.execute(sql: "DROP INDEX \(name)") }
            for statement in Self.v23VisibleIndexes { try db.execute(sql: statement) }
        }
        try store.sqliteRead { db in
            for name in VisibleAssetIndexes.rebuiltInV24 {
                let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [name])
                #expect(sql == LibrarySchema.createIndex(name, .sqlite))
                #expect(sql?.contains("creationTimeZoneOffset") == true, "\(name)")
            }
            #expect(try String.fetchAll(db, sql: "SELECT uuid FROM asset") == ["P"])
            // The local time of the visible assets, read by the index (which holds it: SQLite
            // seeks the row only for a column the index lacks).
            let plan = try Row.fetchAll(
                db, sql: "EXPLAIN QUERY PLAN SELECT id FROM asset WHERE \(Self.visible) AND isHidden = 0 AND creationDate + COALESCE(creationTimeZoneOffset, 0) > 0"
            ).map { $0["detail"] as String }
            #expect(plan.contains { $0.contains("USING INDEX asset_visible_by_creationDate") }, "\(plan)")
        }
    }

    /// A library made at v24 gets v25's search lookup index with its assets in it (v26 then
    /// replaces it: `v26WritesTheDocumentsLengthsIntoTheLookupIndex`).
    @Test func v25AddsTheSearchLookupIndex() throws {
        let queue = try DatabaseQueue()
        try LibraryMigrations.migrator.migrate(queue, upTo: SchemaVersion.v24.migrationName)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO asset (id, uuid, mediaType, addedDate, uniformTypeIdentifier) VALUES (7, 'P', 1, 0, 'public.jpeg')")
        }
        try LibraryMigrations.migrator.migrate(queue, upTo: SchemaVersion.v25.migrationName)
        try queue.read { db in
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'asset_visible_for_search'")
            #expect(sql == VisibleAssetIndexes.forSearchV25.sql(on: "asset", .sqlite))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM asset INDEXED BY asset_visible_for_search WHERE \(Self.visible)") == 1)
        }
    }

    /// A library made at v25 gets each document's length written beside its asset, and the
    /// search's lookup index, holding it, in place of v25's.
    @Test func v26WritesTheDocumentsLengthsIntoTheLookupIndex() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("v26-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let before: (Database) throws -> Void = { db in
            let index = try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE name = 'asset_visible_for_search'")
            #expect(index != nil)
        }
        let store = try Self.open(madeAt: .v25, in: folder, before) { db in
            try db.execute(sql: "INSERT INTO searchDocument (assetID, words) VALUES (7, 'img 0001 heic lisbon portugal')")
        }
        try store.sqliteRead { db in
            #expect(try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE name = 'asset_visible_for_search'") == nil)
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'asset_visible_search_lookup'")
            #expect(sql == LibrarySchema.createIndex("asset_visible_search_lookup", .sqlite))
            #expect(
                try Int.fetchOne(db, sql: "SELECT searchLength FROM asset INDEXED BY asset_visible_search_lookup WHERE \(Self.visible) AND id = 7")
                    == 5)
        }
    }

    /// A library made at `version` in `folder`, changed by `prepare`, with one asset ('P', taken
    /// at 1577800000 at +09:00), then opened: migrated to the newest version.
    static func open(
        madeAt version: SchemaVersion, in folder: URL, _ prepare: (Database) throws -> Void, then fill: (Database) throws -> Void = { _ in }
    ) throws -> LibraryDatabase {
        let layout = LibraryLayout(root: folder)
        try layout.createFolders()
        do {
            let queue = try DatabaseQueue(path: layout.databaseFile.path)
            try LibraryMigrations.migrator.migrate(queue, upTo: version.migrationName)
            try queue.write { db in
                try prepare(db)
                try db.execute(
                    sql: """
                        INSERT INTO asset (id, uuid, mediaType, addedDate, uniformTypeIdentifier, creationDate, creationTimeZoneOffset) \
                        VALUES (7, 'P', 1, 0, 'public.jpeg', 1577800000, 32400)
                        """)
                try fill(db)
            }
        }
        return try LibraryDatabase.open(at: folder)
    }

    @Test func aNewLibraryHasTheReleasedSchema() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("released-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = try LibraryDatabase.open(at: folder)
        let lines = try store.sqliteRead { db in
            try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").map { row -> String in
                let sql = (row["sql"] as String?) ?? ""
                let folded = sql.split(whereSeparator: \.isWhitespace).joined(separator: " ")
                    .replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")")
                return "\(row["type"] as String) \(row["name"] as String) \(row["tbl_name"] as String) \(folded)"
            }
        }
        let expected = Self.v26.split(separator: "\n").map(String.init)
        #expect(lines.count == expected.count)
        for (line, wanted) in zip(lines, expected) {
            #expect(line == wanted)
        }
    }
}
