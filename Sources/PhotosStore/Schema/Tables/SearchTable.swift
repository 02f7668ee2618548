/// The `searchDocument` table (v23): the words search finds an asset by, one row per asset,
/// written by the change that alters them (``SearchDocuments``): its file names, title,
/// caption and keywords, camera, the places of its location, the albums holding it. `words`
/// is ``SearchText/document(_:)``'s text, already folded and split, so both engines' indexes
/// hold the same words. Each engine indexes it its own way (``engineStatements(_:)``).
package enum SearchDocumentColumn: Int32, TableColumn {
    case assetID, words

    package var definition: ColumnDefinition {
        switch self {
        case .assetID: .integer.primaryKey().references("asset", onDelete: .cascade)
        case .words: .text.notNull()
        }
    }

    package static let table = TableDefinition("searchDocument", columns: SearchDocumentColumn.self, added: .v23)

    /// Sets `asset.searchLength` of the assets a `WHERE` that follows names to their
    /// documents' number of words (SQLite only, ``SearchRank``): the words are joined by
    /// single spaces (``SearchText/document(_:)``).
    package static let settingLengths =
        "UPDATE asset SET searchLength = (SELECT \(lengthOfWords) FROM searchDocument WHERE searchDocument.assetID = asset.id)"

    /// ``settingLengths`` of every asset with a document (v26, a copy from PostgreSQL).
    package static let fillLengths = settingLengths + " WHERE id IN (SELECT assetID FROM searchDocument)"

    /// The number of words in `words`, in SQL both engines run.
    package static let lengthOfWords = "CASE WHEN words = '' THEN 0 ELSE length(words) - length(replace(words, ' ', '')) + 1 END"

    /// The full-text index of `words`, which no table description holds:
    /// - SQLite: an FTS5 table over `searchDocument` (external content, `rowid` the asset's
    ///   id) with the `unicode61` tokenizer, kept in step by triggers, ranked by `bm25`;
    /// - PostgreSQL: a stored `tsvector` column (`to_tsvector('simple', words)`) with a GIN
    ///   index, ranked by `ts_rank`; since its v19, with copies of what a search reads of the
    ///   asset beside it (``SearchDocumentCopies``); since its v20, in two halves by the
    ///   asset's id (``SearchDocumentHalves``).
    package static func engineStatements(_ dialect: SQLDialect) -> [String] {
        switch dialect {
        case .sqlite:
            [
                """
                CREATE VIRTUAL TABLE searchIndex USING fts5(words, content='searchDocument', content_rowid='assetID', \
                tokenize='unicode61')
                """,
                """
                CREATE TRIGGER searchIndex_insert AFTER INSERT ON searchDocument BEGIN
                    INSERT INTO searchIndex (rowid, words) VALUES (NEW.assetID, NEW.words);
                END
                """,
                """
                CREATE TRIGGER searchIndex_delete AFTER DELETE ON searchDocument BEGIN
                    INSERT INTO searchIndex (searchIndex, rowid, words) VALUES ('delete', OLD.assetID, OLD.words);
                END
                """,
                """
                CREATE TRIGGER searchIndex_update AFTER UPDATE OF words ON searchDocument BEGIN
                    INSERT INTO searchIndex (searchIndex, rowid, words) VALUES ('delete', OLD.assetID, OLD.words);
                    INSERT INTO searchIndex (rowid, words) VALUES (NEW.assetID, NEW.words);
                END
                """,
            ]
        case .postgres:
            ["ALTER TABLE searchDocument ADD COLUMN \(postgresVector)", postgresVectorIndex]
        }
    }

    /// PostgreSQL's column of the words as a `tsvector` (its `simple` configuration: each word
    /// as it is, `SearchText` having folded them).
    package static let postgresVector = "vector tsvector GENERATED ALWAYS AS (to_tsvector('simple', words)) STORED"

    /// PostgreSQL's index of ``postgresVector``.
    package static let postgresVectorIndex = "CREATE INDEX searchDocument_vector ON searchDocument USING GIN (vector)"
}

/// The `textRecognition` table (v23): the words Tesseract read in each photo, as work to do
/// (``TextRecognitionQueue``): one row per photo, pending until read, then `done` with its
/// words (`words`, the search index's; `boxes`, a JSON array of ``RecognizedTextBox``es in
/// fractions of the shown image), `failed` with its reason and a time to retry, or `skipped`
/// (Tesseract choked on it, or it failed too often): never tried again by itself. Triggers
/// keep it whole: a new photo is pending, an edit (a new `contentVersion`) makes it pending
/// again (``engineStatements(_:)``).
package enum TextRecognitionColumn: Int32, TableColumn {
    case assetID, state, sourcePath, attempts, lastError, notBefore, updatedDate, words, boxes

    package var definition: ColumnDefinition {
        switch self {
        case .assetID: .integer.primaryKey().references("asset", onDelete: .cascade)
        case .state, .attempts: .integer.notNull().defaults(to: 0)
        case .sourcePath, .lastError, .words, .boxes: .text
        case .notBefore, .updatedDate: .real.notNull().defaults(to: 0)
        }
    }

    package static let table = TableDefinition(
        "textRecognition", columns: TextRecognitionColumn.self,
        indexes: [IndexDefinition("textRecognition_due", [.key("state"), .key("notBefore")], added: .v23)], added: .v23)

    /// The photos already there get their rows; triggers give new photos theirs and make an
    /// edited photo's due again, on either engine.
    package static func engineStatements(_ dialect: SQLDialect) -> [String] {
        let existing = "INSERT INTO textRecognition (assetID) SELECT id FROM asset WHERE mediaType = 1"
        let reset = "UPDATE textRecognition SET state = 0, sourcePath = NULL, attempts = 0, lastError = NULL, notBefore = 0"
        switch dialect {
        case .sqlite:
            return [
                existing,
                """
                CREATE TRIGGER textRecognition_new AFTER INSERT ON asset WHEN NEW.mediaType = 1 BEGIN
                    INSERT OR IGNORE INTO textRecognition (assetID) VALUES (NEW.id);
                END
                """,
                """
                CREATE TRIGGER textRecognition_edited AFTER UPDATE OF contentVersion ON asset WHEN NEW.mediaType = 1 BEGIN
                    \(reset) WHERE assetID = NEW.id;
                END
                """,
            ]
        case .postgres:
            return [
                existing,
                """
                CREATE FUNCTION textRecognition_add() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    INSERT INTO textRecognition (assetID) VALUES (NEW.id) ON CONFLICT DO NOTHING;
                    RETURN NULL;
                END $$
                """,
                """
                CREATE FUNCTION textRecognition_reset() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    \(reset) WHERE assetID = NEW.id;
                    RETURN NULL;
                END $$
                """,
                "CREATE TRIGGER textRecognition_new AFTER INSERT ON asset FOR EACH ROW WHEN (NEW.mediaType = 1) EXECUTE FUNCTION textRecognition_add()",
                """
                CREATE TRIGGER textRecognition_edited AFTER UPDATE OF contentVersion ON asset FOR EACH ROW WHEN (NEW.mediaType = 1) \
                EXECUTE FUNCTION textRecognition_reset()
                """,
            ]
        }
    }
}
