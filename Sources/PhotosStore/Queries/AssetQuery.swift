package import Foundation

/// A fetch of assets: where from, which ones, in what order.
package struct AssetQuery: Sendable, Hashable {
    package enum Scope: Sendable, Hashable {
        /// Every asset in the library. Natural order: creation date.
        case library
        /// A user album, by row id. Natural order: the album's order.
        case album(Int64)
        /// A smart album, by `PHAssetCollectionSubtype` raw value. Natural order: creation date.
        case smartAlbum(subtype: Int)
        /// A moment, by row id. Natural order: creation date.
        case moment(Int64)
        /// Members of a burst. Natural order: creation date.
        case burst(String)
        /// Assets with these UUIDs. Natural order: creation date.
        case uuids([String])
        /// Exactly these assets (a transient collection), in this order.
        case ordered([Int64])
        /// Assets in Recently Deleted. Natural order: deletion date, newest first.
        case recentlyDeleted
        /// What a partner (`person.id`) shares with the query's owner. Natural order: creation date.
        case partner(Int64)
        /// The library's assets whose search words match (``SearchMatch``). Natural order: the
        /// engine's relevance (FTS5's `bm25`, PostgreSQL's `ts_rank`), then newest first.
        case search(SearchMatch)
    }

    package var scope: Scope
    package var filter: StoreFilter?
    package var sort: [StoreSort]
    package var includeHidden: Bool
    package var includeAllBurstAssets: Bool
    /// `PHAssetSourceType` bits; 0 means the default (the user's library).
    package var sourceTypes: Int
    /// 0 means no limit.
    package var limit: Int
    /// The clock "Recently Added" is measured against.
    package var now: Date
    /// The person (`person.id`) whose assets the fetch sees; `nil` sees every asset (a library
    /// without people, or one opened without a person).
    package var owner: Int64?
    /// The partners who share their photos with ``owner`` (read when the fetch is made).
    package var partners: [PartnerShare] = []

    package init(
        scope: Scope, filter: StoreFilter? = nil, sort: [StoreSort] = [],
        includeHidden: Bool = false, includeAllBurstAssets: Bool = false, sourceTypes: Int = 0,
        limit: Int = 0, now: Date = Date(), owner: Int64? = nil
    ) {
        self.owner = owner
        self.scope = scope
        self.filter = filter
        self.sort = sort
        self.includeHidden = includeHidden
        self.includeAllBurstAssets = includeAllBurstAssets
        self.sourceTypes = sourceTypes
        self.limit = limit
        self.now = now
    }

    /// The statement selecting matching row ids (or `columns`) in order; `restrictedTo` keeps
    /// only some rows (change details re-run a query over the changed rows).
    func statement(selecting columns: StoreSQL = "asset.id", restrictedTo restriction: RowRestriction? = nil) -> StoreSQL {
        statement(selecting: columns, restrictedTo: restriction, within: nil)
    }

    /// ``statement(selecting:restrictedTo:)`` of the rows whose first sort key is in `range`
    /// (a big fetch read in parts, ``halves(splitAt:)``).
    func statement(selecting columns: StoreSQL, restrictedTo restriction: RowRestriction?, within range: KeyRange?) -> StoreSQL {
        statement(selecting: columns, restrictedTo: restriction, within: range, ordered: true)
    }

    /// A search in its natural order: the matches' ids, ranks and dates, in no order
    /// (``RankedMatch``), for the store to sort (on PostgreSQL, when
    /// ``searchOfDocumentsAlone`` can't answer). SQLite's sorter took 55 of 117 ms for 80,894
    /// matches of 1,000,000 (`sqlite3`, 2026-12-04); Swift sorts them in a few. Nil for any
    /// other fetch.
    var searchInRankOrder: StoreSQL? {
        guard case .search = scope, sort.isEmpty, limit == 0 else { return nil }
        return statement(selecting: "asset.id, \(SearchIndex.rank), asset.creationDate", restrictedTo: nil, within: nil, ordered: false)
    }

    /// PostgreSQL: ``searchInRankOrder`` read from the search documents alone, with the copies
    /// of what it reads of each asset they carry (``SearchDocumentCopies``): no asset looked
    /// up. Sorted (``RankedMatch``), the same ids in the same order as
    /// ``statement(selecting:restrictedTo:)``. Nil for a fetch the copies can't answer: a
    /// filter on other fields than ``SearchDocumentCopies/filterableFields`` (years, months,
    /// kinds and favorites are answered), any sort, other sources or every burst frame.
    ///
    /// PostgreSQL's sort took 33 of 93 ms for "france" (80,894 of 1,000,000, `psql`,
    /// 2026-12-05): the store sorts them instead.
    var searchOfDocumentsAlone: StoreSQL? { searchOfDocuments(in: "searchDocument") }

    /// ``searchOfDocumentsAlone`` of each half of the documents (``SearchDocumentHalves``),
    /// for PostgreSQL to read at once on two connections; their matches together are the
    /// whole's.
    var searchOfDocumentsInHalves: [StoreSQL]? {
        let halves = SearchDocumentHalves.tables.compactMap(searchOfDocuments(in:))
        return halves.count == SearchDocumentHalves.tables.count ? halves : nil
    }

    /// SQLite: ``searchInRankOrder`` of each half of the documents, split at half the highest
    /// asset id (FTS5 reads only its half of each word's list of documents), for the engine to
    /// read at once on two connections; their matches together are the whole's. The rank's
    /// word frequencies are the whole index's in each (``SearchRank``).
    var searchInRankOrderInHalves: [StoreSQL]? {
        guard searchInRankOrder != nil else { return nil }
        let middle: StoreSQL = "(SELECT max(assetID) / 2 FROM searchDocument)"
        return ["searchIndex.rowid <= \(middle)", "searchIndex.rowid > \(middle)"].map { half in
            statement(selecting: "asset.id, \(SearchIndex.rank), asset.creationDate", restrictedTo: nil, within: nil, ordered: false, and: half)
        }
    }

    private func searchOfDocuments(in table: String) -> StoreSQL? {
        guard case .search(let match) = scope, sort.isEmpty, limit == 0, !includeAllBurstAssets, sourceTypes == 0 || sourceTypes == 1,
            filter?.fields.isSubset(of: SearchDocumentCopies.filterableFields) ?? true
        else { return nil }
        // `asset` names the documents, whose copies bear the asset's column names.
        var conditions: [StoreSQL] = ["vector @@ query", "asset.listed"]
        if !includeHidden { conditions.append(StoreSQL(unescaped: VisibleAssetIndexes.Term.notHidden)) }
        if let owner {
            conditions.append(timeline(of: owner))
        }
        // Years, months, kinds, favorites: their fields' copies bear the asset's names.
        if let filter { conditions.append(SQLFilterCompiler.compile(filter)) }
        return """
            SELECT asset.assetID, \(SearchIndex.postgresRank), asset.creationDate \
            FROM \(unescaped: table) AS asset, to_tsquery('simple', \(match.tsquery)) AS query \
            WHERE \(StoreSQL.joined(conditions, separator: " AND "))
            """
    }

    private func statement(
        selecting columns: StoreSQL, restrictedTo restriction: RowRestriction?, within range: KeyRange?, ordered: Bool, and condition: StoreSQL? = nil
    ) -> StoreSQL {
        var hint: StoreSQL = ""
        var join: StoreSQL = ""
        var conditions: [StoreSQL] = []
        var includeHidden = self.includeHidden
        var includeAllBursts = includeAllBurstAssets

        switch scope {
        case .library, .recentlyDeleted:
            break
        case .partner(let partner):
            conditions.append("asset.ownerID = \(partner)")
        case .search:
            break  // The full-text table joins the assets below (`SearchIndex.joiningAssets`).
        case .album(let albumID):
            join = " JOIN albumAsset ON albumAsset.assetID = asset.id AND albumAsset.albumID = \(albumID)"
        case .smartAlbum(let subtype):
            conditions.append(SmartAlbumCatalog.condition(subtype: subtype, now: now) ?? "FALSE")
            if subtype == SmartAlbumCatalog.hiddenSubtype { includeHidden = true }
        case .moment(let momentID):
            conditions.append("asset.momentID = \(momentID)")
        case .burst(let identifier):
            conditions.append("asset.burstIdentifier = \(identifier)")
        case .uuids(let uuids):
            conditions.append("asset.uuid IN (\(StoreSQL.elements(uuids)))")
            includeAllBursts = true
        case .ordered(let ids):
            join = " JOIN \(StoreSQL.orderedElements(ids)) AS transient ON transient.value = asset.id"
            includeAllBursts = true
        }

        if let owner {
            switch scope {
            case .album(let albumID):
                // A shared album shows its members everyone's contributions.
                conditions.append(
                    "(asset.ownerID = \(owner) OR \(albumID) IN (\(CollectionQuery.sharedAlbums(of: owner))))")
            case .uuids:
                // An asset is found by its identifier by whoever sees it: its owner, the
                // members of a shared album holding it, the partners it is shared with.
                conditions.append(
                    """
                    (asset.ownerID = \(owner) OR asset.id IN (SELECT assetID FROM albumAsset \
                    WHERE albumID IN (\(CollectionQuery.sharedAlbums(of: owner))))\(Self.shared(by: partners)))
                    """)
            case .partner(let partner):
                conditions.append("(FALSE\(Self.shared(by: partners.filter { $0.ownerID == partner })))")
            case .library, .smartAlbum, .search:
                // A partner's photos join the timeline (and its smart albums) of a partner who
                // chose to show them there.
                conditions.append(timeline(of: owner))
            default:
                conditions.append("asset.ownerID = \(owner)")
            }
        }

        // The visibility terms, spelled as `VisibleAssetIndexes` builds its partial indexes.
        typealias Term = VisibleAssetIndexes.Term
        var visibility: [String] = []
        if case .recentlyDeleted = scope {
            visibility.append("asset.trashedDate IS NOT NULL")
        } else {
            visibility.append(Term.notTrashed)
        }
        if !includeHidden { visibility.append(Term.notHidden) }
        if !includeAllBursts { visibility.append(Term.burstRepresentative) }
        let sources = sourceTypes == 0 ? 1 : sourceTypes
        if sources & 0b111 != 0b111 { visibility.append(Term.sourceTypes(sources)) }
        // Whether the visible-asset indexes serve this query (SQLite can be told to use one only then).
        let visibleIndexesApply = VisibleAssetIndexes.indexTerms.allSatisfy(visibility.contains)
        if case .album = scope, restriction == nil, filter == nil, sort.isEmpty, visibleIndexesApply {
            // Only the members' visibility is read from `asset`: from the small partial index
            // rather than the table (SQLite's planner prefers the row-id lookup by itself).
            // PostgreSQL's default costs (random_page_cost 4, for spinning disks) pick a nested
            // loop, one probe of that index per member: 190-240 ms for 100,000 members of
            // 1,000,000 assets, where a merge join of the two id-ordered indexes takes 96-114 ms
            // (psql, 2026-12-02). With SSD costs and hash joins set aside for this statement the
            // planner takes the merge for a big album and keeps the nested loop for a small one.
            hint = .hint(.indexedBy(VisibleAssetIndexes.visibleByID))
                + .plannerSetting("random_page_cost", "1.1") + .plannerSetting("enable_hashjoin", "off")
        }
        if case .search = scope, visibleIndexesApply {
            // Each match is looked up by its id in the index that holds what the search reads
            // of it (`VisibleAssetIndexes.forSearch`), not in the table SQLite picks by itself.
            hint = .hint(.indexedBy(VisibleAssetIndexes.forSearch.name))
        }
        conditions += visibility.map(StoreSQL.init(unescaped:))
        if let filter {
            // Filter binds follow the scope's, in textual order.
            conditions.append(SQLFilterCompiler.compile(filter))
        }
        if let restriction { conditions.append(restriction.condition(on: "asset.id")) }
        if let condition { conditions.append(condition) }
        if let range, let key = orderTerms.first { conditions.append(range.condition(on: key.sql)) }
        var from: StoreSQL = "asset\(hint)\(join)"
        if case .search(let match) = scope { from = SearchIndex.joiningAssets(match, hint: hint) }
        var statement: StoreSQL = "SELECT \(columns) FROM \(from) WHERE \(StoreSQL.joined(conditions, separator: " AND "))"
        if ordered { statement += " ORDER BY \(OrderTerm.sql(orderTerms))" }
        if limit > 0 { statement += " LIMIT \(limit)" }
        return statement
    }
}

extension AssetQuery {
    /// A person's timeline (their library, smart albums and searches): their own assets and
    /// the photos of the partners who chose to show them there.
    func timeline(of owner: Int64) -> StoreSQL {
        "(asset.ownerID = \(owner)\(Self.shared(by: partners.filter(\.inTimeline))))"
    }

    /// ` OR` the asset is one of these partners' shared photos (taken from the share's date on,
    /// never a hidden one), one term each, so a fetch without partners stays `ownerID = ?`.
    static func shared(by partners: [PartnerShare]) -> StoreSQL {
        StoreSQL.joined(
            partners.map { share in
                let since: StoreSQL = share.sinceDate.map { " AND asset.creationDate >= \($0)" } ?? ""
                return " OR (asset.ownerID = \(share.ownerID) AND asset.isHidden = 0\(since))"
            }, separator: "")
    }
}

extension AssetQuery: DiffableQuery {
    package var orderTerms: [OrderTerm] {
        switch scope {
        case .album: OrderTerm.order(sort: sort, natural: [OrderTerm("albumAsset.position"), OrderTerm("albumAsset.assetID")], id: "asset.id")
        case .ordered: OrderTerm.order(sort: sort, natural: [OrderTerm("transient.key")], id: "asset.id")
        case .recentlyDeleted:
            OrderTerm.order(
                sort: sort, natural: [OrderTerm("asset.trashedDate", ascending: false), OrderTerm("asset.id")], id: "asset.id")
        case .search:
            OrderTerm.order(
                sort: sort, natural: [OrderTerm(SearchIndex.rank), OrderTerm("asset.creationDate", ascending: false), OrderTerm("asset.id")],
                id: "asset.id")
        default: OrderTerm.order(sort: sort, natural: [OrderTerm("asset.creationDate"), OrderTerm("asset.id")], id: "asset.id")
        }
    }

    package var idColumn: StoreSQL { "asset.id" }
    package var journalEntities: [Int] { [JournalEntity.asset] }

    /// An album's or folder's title is among its members' search words: renamed or deleted, it
    /// changes what a search finds though no member changed.
    package var rereadingEntities: [Int] {
        guard case .search = scope else { return [] }
        return [JournalEntity.assetCollection, JournalEntity.collectionList]
    }

    package var supportsIncrementalDiff: Bool {
        if limit > 0 { return false }
        switch scope {
        // A match's rank moves with every other document (bm25 weighs a word by how rare it
        // is): the whole result is read again.
        case .ordered, .search: return false
        default: return true
        }
    }

    package var dependsOnMembership: Bool {
        switch scope {
        // An album's title is among its members' search words.
        case .album, .moment, .search: true
        case .library, .smartAlbum, .burst, .uuids, .ordered, .recentlyDeleted, .partner: false
        }
    }
}
