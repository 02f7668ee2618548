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

    /// The full-text index of `words`, which no table description holds:
    /// - SQLite: an FTS5 table over `searchDocument` (external content, `rowid` the asset's
    ///   id) with the `unicode61` tokenizer, kept in step by triggers, ranked by `bm25`;
    /// - PostgreSQL: a stored `tsvector` column (`to_tsvector('simple', words)`) with a GIN
    ///   index, ranked by `ts_rank`.
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
            [
                "ALTER TABLE searchDocument ADD COLUMN vector tsvector GENERATED ALWAYS AS (to_tsvector('simple', words)) STORED",
                "CREATE INDEX searchDocument_vector ON searchDocument USING GIN (vector)",
            ]
        }
    }
}
