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
    /// representative or pick, from the user's library); the others are the asset's own.
    package static let columns: [(name: String, type: String)] = [
        ("listed", "BOOLEAN NOT NULL DEFAULT FALSE"), ("isHidden", "BIGINT NOT NULL DEFAULT 0"), ("ownerID", "BIGINT"),
        ("creationDate", "DOUBLE PRECISION"),
    ]

    /// The asset columns the copies are made of: a change to any of them is copied.
    static let assetColumns = ["trashedDate", "burstIdentifier", "representsBurst", "burstSelectionTypes", "sourceType", "isHidden", "ownerID", "creationDate"]

    /// The copies' values for the asset row `row` (`asset`, `NEW`, `OLD`), in ``columns``'
    /// order.
    static func values(of row: String) -> [String] {
        let listed = VisibleAssetIndexes.indexTerms.joined(separator: " AND ").replacingOccurrences(of: "asset.", with: "\(row).")
        return ["(\(listed))", "\(row).isHidden", "\(row).ownerID", "\(row).creationDate"]
    }

    /// The trigger that gives a new document its asset's values.
    static let copyingTrigger =
        "CREATE TRIGGER searchDocument_copy BEFORE INSERT ON searchDocument FOR EACH ROW EXECUTE FUNCTION searchDocument_copyAsset()"

    /// PostgreSQL's statements: the columns, filled from the assets (the vector's index
    /// dropped while every document is rewritten, and built again), and the triggers.
    package static let postgresStatements: [String] = {
        let names = columns.map(\.name)
        let assignments = zip(names, values(of: "asset")).map { "\($0) = \($1)" }.joined(separator: ", ")
        let following = zip(names, values(of: "NEW")).map { "\($0) = \($1)" }.joined(separator: ", ")
        let changed = zip(values(of: "OLD"), values(of: "NEW")).map { "\($0) IS DISTINCT FROM \($1)" }.joined(separator: " OR ")
        return [
            "ALTER TABLE searchDocument " + columns.map { "ADD COLUMN \($0.name) \($0.type)" }.joined(separator: ", "),
            "DROP INDEX searchDocument_vector",
            "UPDATE searchDocument SET \(assignments) FROM asset WHERE asset.id = searchDocument.assetID",
            SearchDocumentColumn.postgresVectorIndex,
            """
            CREATE FUNCTION searchDocument_copyAsset() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                SELECT \(values(of: "asset").joined(separator: ", "))
                INTO \(names.map { "NEW.\($0)" }.joined(separator: ", ")) FROM asset WHERE asset.id = NEW.assetID;
                RETURN NEW;
            END $$
            """,
            copyingTrigger,
            """
            CREATE FUNCTION searchDocument_followAsset() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE searchDocument SET \(following) WHERE assetID = NEW.id;
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER searchDocument_follow AFTER UPDATE OF \(assetColumns.joined(separator: ", ")) ON asset FOR EACH ROW
            WHEN (\(changed)) EXECUTE FUNCTION searchDocument_followAsset()
            """,
        ]
    }()
}
