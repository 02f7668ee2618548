/// What a search reads of each asset, kept beside its words on PostgreSQL (its v19), so a
/// search of the whole library reads its matches from `searchDocument` alone
/// (``AssetQuery/searchOfDocumentsAlone``): its rank (`ts_rank`, from the vector), whether it
/// is shown, its owner and its date (the order after the rank).
///
/// Without them PostgreSQL looked each match up in the asset index ``VisibleAssetIndexes``
/// keeps for searches: for "france" (82,547 matches of 1,000,000) 106 ms of index probes
/// beside 51 ms reading the documents; read from one table, the same answer took 136 →
/// 69 ms unsorted, 165 → 101 ms sorted (`psql`, 2026-12-05). SQLite needs no copies: its
/// lookups are cheaper than its rank (``SearchRank``).
///
/// Triggers keep them, in the statement that changes the asset: a document takes its asset's
/// values when written, and a change to any of them is copied to its document.
///
/// Not in the table's description (``SearchDocumentColumn``): like the vector, columns of one
/// engine's index, not of the library.
package enum SearchDocumentCopies {
    /// The columns and their types: `listed` is the asset passing the visible-asset indexes'
    /// terms (``VisibleAssetIndexes/indexTerms``: not in Recently Deleted, a burst's
    /// representative or pick, from the user's library); the others are the asset's own. The
    /// first four since v19; the others since v20, for a search with years, months, kinds or
    /// favorites (``filterableFields``).
    package static let columns: [(name: String, type: String)] = v19Columns + [
        ("creationTimeZoneOffset", "BIGINT"), ("mediaType", "BIGINT NOT NULL DEFAULT 0"), ("mediaSubtypes", "BIGINT NOT NULL DEFAULT 0"),
        ("isFavorite", "BIGINT NOT NULL DEFAULT 0"),
    ]

    /// The columns v19 made (its statements are kept as they ran).
    static let v19Columns: [(name: String, type: String)] = [
        ("listed", "BOOLEAN NOT NULL DEFAULT FALSE"), ("isHidden", "BIGINT NOT NULL DEFAULT 0"), ("ownerID", "BIGINT"),
        ("creationDate", "DOUBLE PRECISION"),
    ]

    /// The fields a search's filter may test for the documents alone to answer it
    /// (``AssetQuery/searchOfDocumentsAlone``): their copies bear the asset's column names.
    package static let filterableFields: Set<StoreField> = [
        .creationDate, .localCreationDate, .localCreationMonth, .mediaType, .mediaSubtypes, .isFavorite, .isHidden,
    ]

    /// The asset columns `listed` is made of.
    private static let listedOf = ["trashedDate", "burstIdentifier", "representsBurst", "burstSelectionTypes", "sourceType"]

    /// The asset columns copies of `columns` are made of: a change to any of them is copied.
    static func assetColumns(_ columns: [(name: String, type: String)]) -> [String] {
        listedOf + columns.map(\.name).filter { $0 != "listed" }
    }

    /// The copies' values for the asset row `row` (`asset`, `NEW`, `OLD`), in `columns`' order.
    package static func values(of row: String, _ columns: [(name: String, type: String)] = columns) -> [String] {
        columns.map { column in
            guard column.name == "listed" else { return "\(row).\(column.name)" }
            return "(" + VisibleAssetIndexes.indexTerms.joined(separator: " AND ").replacingOccurrences(of: "asset.", with: "\(row).") + ")"
        }
    }

    /// The trigger that gives a new document its asset's values.
    static let copyingTrigger =
        "CREATE TRIGGER searchDocument_copy BEFORE INSERT ON searchDocument FOR EACH ROW EXECUTE FUNCTION searchDocument_copyAsset()"

    /// The functions and the asset's trigger that keep `columns`: a new document takes its
    /// asset's values (with ``copyingTrigger``); a change to one of them is copied.
    static func keeping(_ columns: [(name: String, type: String)]) -> [String] {
        let names = columns.map(\.name)
        let following = zip(names, values(of: "NEW", columns)).map { "\($0) = \($1)" }.joined(separator: ", ")
        let changed = zip(values(of: "OLD", columns), values(of: "NEW", columns)).map { "\($0) IS DISTINCT FROM \($1)" }.joined(separator: " OR ")
        return [
            """
            CREATE OR REPLACE FUNCTION searchDocument_copyAsset() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                SELECT \(values(of: "asset", columns).joined(separator: ", "))
                INTO \(names.map { "NEW.\($0)" }.joined(separator: ", ")) FROM asset WHERE asset.id = NEW.assetID;
                RETURN NEW;
            END $$
            """,
            """
            CREATE OR REPLACE FUNCTION searchDocument_followAsset() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE searchDocument SET \(following) WHERE assetID = NEW.id;
                RETURN NULL;
            END $$
            """,
            "DROP TRIGGER IF EXISTS searchDocument_follow ON asset",
            """
            CREATE TRIGGER searchDocument_follow AFTER UPDATE OF \(assetColumns(columns).joined(separator: ", ")) ON asset FOR EACH ROW
            WHEN (\(changed)) EXECUTE FUNCTION searchDocument_followAsset()
            """,
        ]
    }

    /// PostgreSQL's v19: the columns, filled from the assets (the vector's index dropped while
    /// every document is rewritten, and built again), and the triggers.
    package static let postgresStatements: [String] = {
        let assignments = zip(v19Columns.map(\.name), values(of: "asset", v19Columns)).map { "\($0) = \($1)" }.joined(separator: ", ")
        let triggers = keeping(v19Columns)
        return [
            "ALTER TABLE searchDocument " + v19Columns.map { "ADD COLUMN \($0.name) \($0.type)" }.joined(separator: ", "),
            "DROP INDEX searchDocument_vector",
            "UPDATE searchDocument SET \(assignments) FROM asset WHERE asset.id = searchDocument.assetID",
            SearchDocumentColumn.postgresVectorIndex,
            triggers[0],
            copyingTrigger,
        ] + triggers[1...]
    }()
}
