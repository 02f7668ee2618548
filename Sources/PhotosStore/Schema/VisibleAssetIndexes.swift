import Foundation

/// Issue 19: partial indexes over the assets a fetch can return, so the common fetches of a
/// large library read an index in order instead of looking every row up in the table.
///
/// A default fetch (`PHFetchOptions()` on the user's library) keeps assets that are not in
/// Recently Deleted, not a burst's unpicked frame, from the user's library (the three
/// ``indexTerms``, the indexes' `WHERE`) and not hidden (`isHidden`, the indexes' first or
/// second column: hiding is an option, `includeHiddenAssets`, and a key column serves both
/// answers). SQLite uses a partial index only when every term of its `WHERE` appears among
/// the query's own terms, so ``AssetQuery`` writes exactly these strings (the `sourceType`
/// mask as a literal) and the indexes are built from them. `AssetQueryPlanTests` holds the
/// plans to that.
///
/// They replace `asset_by_mediaType` and `asset_by_favorite` (same leading columns, which
/// served the same fetches through a table lookup per row), so toggling a favorite updates as
/// many indexes as before. On a 1,000,000-asset library (`Benchmarks/run-store-benchmark.sh`)
/// the 833k-image fetch went from 1,446 ms to an index-only read of the ids in order.
package enum VisibleAssetIndexes {
    static let name = "v11-visible-asset-indexes"

    /// The conditions a fetch puts on the `asset` table. `AssetQuery` adds each unless an
    /// option lifts it (`includeHiddenAssets`, `includeAllBurstAssets`, other source types,
    /// the Recently Deleted and Hidden albums).
    enum Term {
        static let notTrashed = "asset.trashedDate IS NULL"
        static let notHidden = "asset.isHidden = 0"
        static let burstRepresentative =
            "(asset.burstIdentifier IS NULL OR asset.representsBurst = 1 OR (asset.burstSelectionTypes & 2) != 0)"
        /// `PHAssetSourceType.typeUserLibrary`.
        static let userLibrary = sourceTypes(1)

        /// Assets whose source type is among `mask`'s bits; written as a literal (an integer,
        /// never user text) so the query's term is the index's.
        static func sourceTypes(_ mask: Int) -> String { "(asset.sourceType & \(mask)) != 0" }
    }

    /// The partial indexes' `WHERE`, in the order `AssetQuery` writes the terms.
    static let indexTerms = [Term.notTrashed, Term.burstRepresentative, Term.userLibrary]

    /// The partial indexes, with the ``indexTerms`` as their `WHERE` (without the `asset.`
    /// prefix: SQLite compares the resolved expressions, so the qualified and unqualified
    /// spellings match). `visibleByCreationDate` carries the row id after the date, so its
    /// order is the fetch's (`creationDate`, then `id`), and the bit-mask columns smart albums
    /// test (Screenshots, Selfies, Panoramas…), so they are answered from the index alone.
    /// `visibleByID` serves albums: each member's visibility is read from a small index
    /// instead of the table.
    ///
    /// Each ends with `creationTimeZoneOffset` (v24): a search's years and months are read on
    /// the clock where the photo was taken (`creationDate + creationTimeZoneOffset`), so with
    /// it a year or a month is answered from the index alone, on both engines ("2019" on
    /// 1,000,000 assets on PostgreSQL: 195 → 42 ms in `psql`, a bitmap scan of the table
    /// before, an index-only scan after). The id is named before it, so the order stays
    /// `creationDate`, then `id`. v24 builds them again on a library made before it
    /// (``rebuiltInV24``).
    ///
    /// On PostgreSQL the sorted terms say `NULLS FIRST` and carry `id` after the date
    /// (``IndexDefinition/Term``): PostgreSQL puts `NULL` last by default and reads an index in
    /// order only when its `NULL` order is the query's, and its indexes don't end with the row
    /// id as SQLite's do. Without it PostgreSQL filtered and then sorted: 220 ms for 49,052
    /// favorites of 1,000,000, 1.2 s for 833,068 images.
    static let indexes: [IndexDefinition] = {
        func index(_ name: String, _ terms: [IndexDefinition.Term]) -> IndexDefinition {
            IndexDefinition(name, terms, where: condition(indexTerms), added: .v11)
        }
        return [
            index(
                visibleByCreationDate,
                [.key("isHidden"), .sorted("creationDate"), .sorted("id"), .key("mediaSubtypes"), .key("traits"), .key(localTime)]),
            index(visibleByMediaType, [.key("mediaType"), .key("isHidden"), .sorted("creationDate"), .sorted("id"), .key(localTime)]),
            index(visibleByFavorite, [.key("isFavorite"), .key("isHidden"), .sorted("creationDate"), .sorted("id"), .key(localTime)]),
            index(visibleByID, [.key("id"), .key("isHidden")]),
        ]
    }()

    /// The same indexes led by `ownerID`, for a person's fetches (`asset.ownerID = ?` first),
    /// partial on `ownerID IS NOT NULL` too, so a library without people keeps them empty and
    /// pays nothing on writes. Without them a person's image fetch in a library of 1,000,000
    /// shared by 10 read the owner-less indexes and filtered: 692 ms against 6.4 ms for the
    /// same 83,000 images in a library of 100,000 (`Benchmarks/run-people-benchmark.sh`).
    static let ownerIndexes: [IndexDefinition] = {
        func index(_ name: String, _ terms: [IndexDefinition.Term]) -> IndexDefinition {
            IndexDefinition(name, [.key("ownerID")] + terms, where: condition(indexTerms + ["asset.ownerID IS NOT NULL"]), added: .v20)
        }
        return [
            index(
                "asset_owner_visible_by_creationDate",
                [.key("isHidden"), .sorted("creationDate"), .sorted("id"), .key("mediaSubtypes"), .key("traits"), .key(localTime)]),
            index("asset_owner_visible_by_mediaType", [.key("mediaType"), .key("isHidden"), .sorted("creationDate"), .sorted("id"), .key(localTime)]),
            index("asset_owner_visible_by_favorite", [.key("isFavorite"), .key("isHidden"), .sorted("creationDate"), .sorted("id"), .key(localTime)]),
        ]
    }()

    /// A search's lookups (v26): each match's visibility and every column its order, its
    /// rank (``SearchRank``: the document's length), its filters (years and months, kinds,
    /// favorites) and a person's view of it read, by id, so a search looks each match up in
    /// this index instead of the table (an index-only lookup on PostgreSQL too).
    /// ``AssetQuery`` names it to SQLite, whose planner takes the table's row id lookup by
    /// itself. It replaces v25's ``forSearchV25``, which lacked the length.
    ///
    /// A separate index rather than a wider `visibleByID`: a big album reads all of that
    /// one in id order on PostgreSQL, a merge join that took 104 → 151 ms for an album of
    /// 100,000 of 1,000,000 assets with these columns in it (`psql`, 2026-12-04). "france"
    /// (80,894 matches of 1,000,000) in `sqlite3`: 309 → 170 ms; in `psql`: 453 → 210 ms.
    static let forSearch = IndexDefinition(
        "asset_visible_search_lookup", searchLookupTerms + [.key("searchLength")], where: condition(indexTerms), added: .v26)

    /// v25's search lookup index, without the length: made by v25 (on PostgreSQL, v17), dropped
    /// by v26 (v18) once ``forSearch`` is built.
    package static let forSearchV25 = IndexDefinition(
        "asset_visible_for_search", searchLookupTerms, where: condition(indexTerms), added: .v25)

    /// What both search lookup indexes hold: the id, then what a search reads of each match.
    private static let searchLookupTerms: [IndexDefinition.Term] = [
        .key("id"), .key("isHidden"), .key("creationDate"), .key(localTime), .key("mediaType"), .key("mediaSubtypes"),
        .key("isFavorite"), .key("ownerID"),
    ]

    /// A partial index's `WHERE` of `terms`, without the `asset.` prefix (SQLite compares the
    /// resolved expressions, so the qualified and unqualified spellings match).
    private static func condition(_ terms: [String]) -> String {
        terms.joined(separator: " AND ").replacingOccurrences(of: "asset.", with: "")
    }

    /// The column that with `creationDate` gives the local time a photo was taken.
    private static let localTime = "creationTimeZoneOffset"

    /// The indexes v24 built again with ``localTime`` (all but `visibleByID`), on both engines.
    package static let rebuiltInV24 = (indexes + ownerIndexes).map(\.name).filter { $0 != visibleByID }

    static let visibleByCreationDate = "asset_visible_by_creationDate"
    static let visibleByMediaType = "asset_visible_by_mediaType"
    static let visibleByFavorite = "asset_visible_by_favorite"
    static let visibleByID = "asset_visible_by_id"

    /// The indexes' names.
    package static var names: [String] { indexes.map(\.name) }

    /// The indexes these replace (made by v1, dropped by v11).
    static let replaced = ["asset_by_mediaType", "asset_by_favorite"]
}
