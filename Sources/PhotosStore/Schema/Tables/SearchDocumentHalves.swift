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
    /// ``SearchDocumentCopies``, with the copies v20 adds), the documents copied into it with
    /// their copies made again from their assets, the old one dropped; then the vector's index
    /// and the triggers that keep the copies (a new document's, and the asset's).
    package static let postgresStatements: [String] = {
        let table = SearchDocumentColumn.table
        let copies = SearchDocumentCopies.columns
        let columns = ["assetID", "words"] + copies.map(\.name)
        let values = ["document.assetID", "document.words"] + SearchDocumentCopies.values(of: "asset", copies)
        return [
            "ALTER TABLE searchDocument RENAME TO searchDocument_v19",
            "ALTER INDEX searchDocument_pkey RENAME TO searchDocument_v19_pkey",
            "DROP INDEX searchDocument_vector",
            "DROP TRIGGER searchDocument_copy ON searchDocument_v19",
            table.createSQL(.postgres, asOf: .v26) + " PARTITION BY HASH (assetID)",
            "ALTER TABLE searchDocument ADD COLUMN \(SearchDocumentColumn.postgresVector), "
                + copies.map { "ADD COLUMN \($0.name) \($0.type)" }.joined(separator: ", "),
        ]
            + tables.enumerated().map { remainder, name in
                "CREATE TABLE \(name) PARTITION OF searchDocument FOR VALUES WITH (MODULUS \(tables.count), REMAINDER \(remainder))"
            }
            + [
                """
                INSERT INTO searchDocument (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) \
                FROM searchDocument_v19 AS document JOIN asset ON asset.id = document.assetID
                """,
                "DROP TABLE searchDocument_v19",
                SearchDocumentColumn.postgresVectorIndex,
            ] + SearchDocumentCopies.keeping(copies) + [SearchDocumentCopies.copyingTrigger]
    }()
}
