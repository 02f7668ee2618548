import BenchmarkSupport
import Foundation

/// The SQL the store runs for each measured fetch, with its bound values written in, for the
/// `sqlite3` peer.
///
/// Copied by hand, not imported (the `PhotosStore` module is internal to the package):
/// - the `WHERE` conditions and `ORDER BY` from `AssetQuery.sql(selecting:)` in
///   `Sources/PhotosStore/Queries/AssetQuery.swift` (scope `.library`, default options:
///   not trashed, not hidden, burst representatives and picks only, `sourceType & 1`),
/// - the filter text from `SQLFilterCompiler` (`Sources/PhotosStore/Queries/SQLFilterCompiler.swift`):
///   `fetchAssets(with: .image, …)` adds `(asset.mediaType IS ?)` and `isFavorite == YES`
///   binds to `(asset.isFavorite IS ?)` with 1,
/// - a sort on `creationDate` becomes `ORDER BY asset.creationDate ASC, asset.id`,
/// - the column list: the store reads an asset as its table's columns through `trashedDate`,
///   in table order (`AssetRecord.selection`, from the table's one description in
///   `Sources/PhotosStore/Schema/Tables/AssetTable.swift`), so the peer asks the database for
///   the same list (``assetColumns(_:)``) rather than keeping a copy.
///
/// The benchmark checks that each peer query returns as many rows as the Swift fetch (and, for
/// the all-assets fetch, the same rows in the same order at sampled indexes), so a change in
/// the store's SQL shows up as a loud failure instead of a silently unfair comparison.
enum PeerQueries {
    /// `AssetQuery`'s conditions for the library scope with default options, in its order.
    static let defaultConditions = [
        "asset.trashedDate IS NULL",
        "asset.isHidden = 0",
        "(asset.burstIdentifier IS NULL OR asset.representsBurst = 1 OR (asset.burstSelectionTypes & 2) != 0)",
        "(asset.sourceType & 1) != 0",
    ]

    /// `includeHiddenAssets = true` drops the `isHidden` condition.
    static let includingHiddenConditions = defaultConditions.filter { $0 != "asset.isHidden = 0" }

    static let creationDateOrder = "ORDER BY asset.creationDate ASC, asset.id"

    /// What the store reads for each object (`AssetRecord.selection`): the `asset` table's
    /// columns, qualified, in table order, the first through `trashedDate`, as the database
    /// lists them.
    static func assetColumns(_ cli: SQLiteCLI) throws -> String {
        let columns = try cli.run(
            """
            SELECT group_concat('asset.' || name, ', ') FROM (SELECT name FROM pragma_table_info('asset') \
            WHERE cid <= (SELECT cid FROM pragma_table_info('asset') WHERE name = 'trashedDate') ORDER BY cid);
            """)
            .output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard columns.hasPrefix("asset.id, asset.uuid") else { throw BenchmarkFailure("the asset table lists no columns: \(columns)") }
        return columns
    }

    /// `PHAsset.fetchAssets(with: .image, options:)` sorted by `creationDate`.
    static func images(selecting columns: String = "asset.id") -> String {
        query(columns, defaultConditions + ["(asset.mediaType IS 1)"])
    }

    /// `PHAsset.fetchAssets(with:)` with `isFavorite == YES`, sorted by `creationDate`.
    static func favorites(selecting columns: String = "asset.id") -> String {
        query(columns, defaultConditions + ["(asset.isFavorite IS 1)"])
    }

    /// `PHAsset.fetchAssets(with:)` with `includeHiddenAssets`, sorted by `creationDate`:
    /// every asset of the generated library, the 1M result.
    static func everything(selecting columns: String = "asset.id") -> String {
        query(columns, includingHiddenConditions)
    }

    /// `PHAsset.fetchAssets(with:)` with default options, sorted by `creationDate`: every
    /// visible asset (hidden ones excluded).
    static func visible(selecting columns: String = "asset.id") -> String {
        query(columns, defaultConditions)
    }

    /// The Screenshots smart album (`PHAsset.fetchAssets(in:options:)`, natural order): the
    /// catalog's condition first, as `AssetQuery` writes it.
    static func screenshots(selecting columns: String = "asset.id") -> String {
        query(columns, ["(asset.mediaSubtypes & 4) != 0"] + defaultConditions)
    }

    /// A user album in its own order (`PHAsset.fetchAssets(in:options:)`): each member's
    /// visibility read from the `asset_visible_by_id` partial index, which SQLite's planner
    /// does not pick by itself for the join (the row-id lookup costs ~1.8× as much).
    static func album(id: Int64, selecting columns: String = "asset.id") -> String {
        "SELECT \(columns) FROM asset INDEXED BY asset_visible_by_id JOIN albumAsset ON albumAsset.assetID = asset.id "
            + "AND albumAsset.albumID = \(id) WHERE \(defaultConditions.joined(separator: " AND ")) "
            + "ORDER BY albumAsset.position ASC, albumAsset.assetID ASC"
    }

    /// The first row of `sql` with every asset column: what `firstObject` needs, for a peer
    /// that streams rows instead of reading the ids first.
    static func firstRow(_ sql: (String) -> String, columns: String) -> String {
        sql(columns) + " LIMIT 1"
    }

    /// ``everything(selecting:)`` with `creationDate < date` (`NSPredicate(format: "creationDate < %@")`
    /// binds the date as seconds since 1970).
    static func everything(before date: Date?) -> String {
        guard let date else { return everything() }
        return query("asset.id", includingHiddenConditions + ["(asset.creationDate < \(date.timeIntervalSince1970))"])
    }

    /// The store's single-row read (`LibraryDatabase.fetchAssets(_:ids:)` with one id).
    static func singleRow(id: Int64, columns: String) -> String {
        "SELECT \(columns) FROM asset WHERE asset.id = \(id)"
    }

    private static func query(_ columns: String, _ conditions: [String]) -> String {
        "SELECT \(columns) FROM asset WHERE \(conditions.joined(separator: " AND ")) \(creationDateOrder)"
    }
}
