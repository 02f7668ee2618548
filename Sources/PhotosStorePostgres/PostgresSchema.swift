import Foundation
import PhotosStore

/// The library's tables on PostgreSQL, rendered from the same descriptions as SQLite's
/// (``LibrarySchema``, ``TableColumn``): the tables and columns SQLite's migrations leave, in
/// PostgreSQL's types (`BIGINT`, `DOUBLE PRECISION`, `TEXT COLLATE "C"`, identity columns that
/// never reuse an id, as SQLite's `AUTOINCREMENT`). Names are left unquoted, so PostgreSQL
/// folds them to lower case in the schema and in every statement alike.
enum PostgresSchema {
    /// A migration: a name, recorded in `schemaMigration` once applied, and its statements.
    struct Migration {
        let name: String
        let statements: [String]
        /// Tables whose every row it may update in place: their indexes are rebuilt and their
        /// statistics read again after the migrations (each updated row leaves its old index
        /// entries behind: `v5-owners` left a 1,000,000-asset library's indexes 2-4x their
        /// size, and its plans on stale statistics 3.6x slower).
        var rewrites: [String] = []
        /// Tables whose every row it rewrites: written again compactly once the migrations
        /// commit (`VACUUM FULL`, which rebuilds their indexes too). An `UPDATE` of every row
        /// leaves the old versions beside the new until a vacuum, and a new index takes in
        /// both: `v19-search-document-copies` left the documents at 297 MB against 157 and
        /// a search of 80,894 matches of 1,000,000 at 146 ms against 103.
        var compacts: [String] = []
    }

    /// Every migration, oldest first. A database that records a name not in this list was
    /// written by a newer version (`StoreError.newerSchema`).
    static let migrations: [Migration] = [
        Migration(name: "v1", statements: v1),
        Migration(name: "v2-import-batches", statements: importBatches),
        Migration(name: "v3-null-order-indexes", statements: nullOrderIndexes),
        Migration(name: "v4-people", statements: LibrarySchema.statements(addedIn: .v15, .postgres)),
        Migration(
            name: "v5-owners", statements: LibrarySchema.statements(addedIn: .v16, .postgres) + LibrarySchema.adoptionByOwner,
            rewrites: ["asset", "collection"]),
        Migration(name: "v6-shared-albums", statements: LibrarySchema.statements(addedIn: .v17, .postgres)),
        Migration(name: "v7-partners", statements: LibrarySchema.statements(addedIn: .v18, .postgres)),
        Migration(name: "v8-share-links", statements: LibrarySchema.statements(addedIn: .v19, .postgres)),
        Migration(name: "v9-owner-indexes", statements: LibrarySchema.statements(addedIn: .v20, .postgres)),
        Migration(name: "v10-journal-owners", statements: PostgresJournalSchema.owners),
        Migration(name: "v11-journal-plpgsql", statements: PostgresJournalSchema.plpgsqlRecording),
        Migration(name: "v12-journal-marks", statements: PostgresJournalSchema.recordingMarks),
        Migration(name: "v13-close-on-the-server", statements: PostgresJournalSchema.closingOnTheServer),
        Migration(name: "v14-descriptions", statements: LibrarySchema.statements(addedIn: .v22, .postgres)),
        Migration(
            name: "v15-search",
            statements: LibrarySchema.statements(addedIn: .v23, .postgres) + SearchDocumentColumn.engineStatements(.postgres)
                + TextRecognitionColumn.engineStatements(.postgres)),
        Migration(
            name: "v16-local-time-indexes",
            statements: VisibleAssetIndexes.rebuiltInV24.flatMap { ["DROP INDEX \($0)", LibrarySchema.createIndex($0, .postgres)] }),
        Migration(name: "v17-search-lookups", statements: [VisibleAssetIndexes.forSearchV25.sql(on: "asset", .postgres)]),
        // The column and its index, so both engines have one table; PostgreSQL's rank
        // (`ts_rank`) reads the vector, not the length, which is left unwritten here: filling
        // it rewrote every asset row, 88 s for 1,000,000 (2026-12-04).
        Migration(
            name: "v18-search-lengths",
            statements: LibrarySchema.statements(addedIn: .v26, .postgres) + ["DROP INDEX \(VisibleAssetIndexes.forSearchV25.name)"]),
        // What a search reads of each asset, beside its words (`SearchDocumentCopies`): every
        // document is rewritten once.
        Migration(name: "v19-search-document-copies", statements: SearchDocumentCopies.postgresStatements, compacts: ["searchDocument"]),
        // The documents in two halves, read at once (`SearchDocumentHalves`): copied once, and
        // vacuumed and analyzed after (`compacts`).
        Migration(name: "v20-search-document-halves", statements: SearchDocumentHalves.postgresStatements, compacts: ["searchDocument"]),
    ]

    /// The tables as SQLite's v13 left them, with their indexes; the video renditions'
    /// triggers, the journal (``PostgresJournalSchema``) and the text functions.
    static let v1: [String] = LibrarySchema.statements(through: .v13, .postgres) + [
        // A video or Live Photo gets its rendition row when it arrives or becomes live, and an
        // edit makes it due again (SQLite's videoRendition_new, _live and _edited triggers).
        """
        CREATE FUNCTION videoRendition_add() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            INSERT INTO videoRendition (assetID) VALUES (NEW.id) ON CONFLICT DO NOTHING;
            RETURN NULL;
        END $$
        """,
        """
        CREATE FUNCTION videoRendition_reset() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            UPDATE videoRendition SET state = 0, sourcePath = NULL, attempts = 0, lastError = NULL, notBefore = 0
            WHERE assetID = NEW.id;
            RETURN NULL;
        END $$
        """,
        """
        CREATE TRIGGER videoRendition_new AFTER INSERT ON asset FOR EACH ROW
        WHEN (NEW.mediaType = 2 OR (NEW.mediaSubtypes & 8) != 0) EXECUTE FUNCTION videoRendition_add()
        """,
        """
        CREATE TRIGGER videoRendition_live AFTER UPDATE OF mediaSubtypes ON asset FOR EACH ROW
        WHEN ((NEW.mediaSubtypes & 8) != 0 AND (OLD.mediaSubtypes & 8) = 0) EXECUTE FUNCTION videoRendition_add()
        """,
        """
        CREATE TRIGGER videoRendition_edited AFTER UPDATE OF contentVersion ON asset FOR EACH ROW
        WHEN (NEW.mediaType = 2 OR (NEW.mediaSubtypes & 8) != 0) EXECUTE FUNCTION videoRendition_reset()
        """,
    ] + PostgresJournalSchema.statements + PostgresTextFunctions.statements

    /// Uploads received by one instance and imported by whichever claims them (SQLite's v14).
    static let importBatches: [String] = LibrarySchema.statements(addedIn: .v14, .postgres)

    /// The sorted indexes in the order the store's `ORDER BY` asks for (`StoreSQL.orderTerm`:
    /// SQLite's, `NULL` first ascending and last descending), carrying the row id SQLite's
    /// indexes end with. Databases made before it had them in PostgreSQL's default order
    /// (`NULL` last) and without the id, so no fetch could read one in order: PostgreSQL
    /// filtered, then sorted every match. `PostgresQueryPlanTests` holds the plans to this.
    /// (``v1`` now makes them so already; this makes them again.)
    static let nullOrderIndexes: [String] = {
        let replaced = [
            "asset_by_creationDate", "asset_by_addedDate", "asset_by_moment", "asset_by_trashedDate",
            "albumAsset_by_position", "collection_moments_by_startDate",
        ] + VisibleAssetIndexes.names
        return replaced.map { "DROP INDEX \($0)" } + replaced.map { LibrarySchema.createIndex($0, .postgres) }
    }()
}
