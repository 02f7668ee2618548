/// The search documents on PostgreSQL split in two halves by their asset's id (its v20:
/// `PARTITION BY HASH (assetID)`), so a search of the whole library reads them on two
/// connections at once (``AssetQuery/searchOfDocumentsInHalves``), each half a GIN index and
/// heap of its own.
///
/// A match of `searchDocument`'s index is looked up in its heap page: "every 10th" (97,999
/// matches of 1,000,000) read all 21,007 pages, 50 of its 102 ms on the server, and its
/// rank and arrays 34 more. A filter on the asset's id in two statements still read every page
/// (70 ms each, at once); two halves of their own take 49 ms each, 50-60 ms both at once
/// (`psql`, 2026-12-05). SQLite needs none: its FTS5 table is read in place.
///
/// Statements on `searchDocument` see one table (PostgreSQL routes each row to its half);
/// only the reads in halves name them.
///
/// Linux note: Apple's PhotoKit has no PostgreSQL; this is the server deployment's.
package enum SearchDocumentHalves {
    /// The halves' tables, in the order of their remainder of the hash of `assetID` by 2.
    package static let tables = ["searchDocument_0", "searchDocument_1"]

    /// PostgreSQL's statements: the v19 table renamed, the partitioned one made as the
    /// description and the engine's columns say (``SearchDocumentColumn``,
    /// ``SearchDocumentCopies``), the documents copied into it with their copies, the old one
    /// dropped; then the vector's index and the trigger that fills the copies of a new
    /// document (the asset's trigger updates `searchDocument` by name, and follows).
    package static let postgresStatements: [String] = {
        let table = SearchDocumentColumn.table
        let columns = ["assetID", "words"] + SearchDocumentCopies.columns.map(\.name)
        return [
            "ALTER TABLE searchDocument RENAME TO searchDocument_v19",
            "ALTER INDEX searchDocument_pkey RENAME TO searchDocument_v19_pkey",
            "DROP INDEX searchDocument_vector",
            "DROP TRIGGER searchDocument_copy ON searchDocument_v19",
            table.createSQL(.postgres, asOf: .v26) + " PARTITION BY HASH (assetID)",
            "ALTER TABLE searchDocument ADD COLUMN \(SearchDocumentColumn.postgresVector), "
                + SearchDocumentCopies.columns.map { "ADD COLUMN \($0.name) \($0.type)" }.joined(separator: ", "),
        ]
            + tables.enumerated().map { remainder, name in
                "CREATE TABLE \(name) PARTITION OF searchDocument FOR VALUES WITH (MODULUS \(tables.count), REMAINDER \(remainder))"
            }
            + [
                "INSERT INTO searchDocument (\(columns.joined(separator: ", "))) SELECT \(columns.joined(separator: ", ")) FROM searchDocument_v19",
                "DROP TABLE searchDocument_v19",
                SearchDocumentColumn.postgresVectorIndex,
                SearchDocumentCopies.copyingTrigger,
            ]
    }()
}
