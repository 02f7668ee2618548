import Foundation

/// A fetch of collections (asset collections, collection lists, or both).
package struct CollectionQuery: Sendable, Hashable {
    package enum Scope: Sendable, Hashable {
        /// Asset collections of a type and subtype (`nil` = any). Natural order: creation,
        /// except moments (start date).
        case assetCollections(type: Int?, subtype: Int?)
        /// Collection lists of a type and subtype (`nil` = any). Natural order: creation,
        /// except moment lists (start date).
        case collectionLists(type: Int?, subtype: Int?)
        /// Collections with these UUIDs; `lists` restricts the kind (`nil` = both).
        case uuids([String], lists: Bool?)
        /// Albums (and moments) containing an asset; `type` restricts the kind.
        case containingAsset(Int64, type: Int?)
        /// The folder containing a collection, or the moment lists containing a moment.
        case containingCollection(Int64, listSubtype: Int?)
        /// User albums and folders at the top level, in the user's order.
        case topLevelUserCollections
        /// The children of a folder (in the folder's order) or the moments of a moment list.
        case children(of: Int64)
        /// Exactly these collections (a transient collection list), in this order.
        case ordered([Int64])
    }

    package var scope: Scope
    package var filter: StoreFilter?
    package var sort: [StoreSort]
    package var limit: Int
    /// The person (`person.id`) whose collections the fetch sees, besides those every person
    /// sees alike (smart albums, smart folders: no owner); `nil` sees every collection.
    package var owner: Int64?

    package init(scope: Scope, filter: StoreFilter? = nil, sort: [StoreSort] = [], limit: Int = 0, owner: Int64? = nil) {
        self.owner = owner
        self.scope = scope
        self.filter = filter
        self.sort = sort
        self.limit = limit
    }

    /// The statement selecting matching row ids (or `columns`) in order; `restrictedTo` keeps
    /// only some rows.
    func statement(selecting columns: StoreSQL = "collection.id", restrictedTo restriction: RowRestriction? = nil) -> StoreSQL {
        var join: StoreSQL = ""
        var conditions: [StoreSQL] = []

        func kind(isList: Bool, type: Int?, subtype: Int?) {
            conditions.append("collection.isList = \(literal: isList ? 1 : 0)")
            if let type { conditions.append("collection.type = \(type)") }
            if let subtype, subtype != CollectionKind.anySubtype { conditions.append("collection.subtype = \(subtype)") }
        }

        switch scope {
        case .assetCollections(let type, let subtype):
            kind(isList: false, type: type, subtype: subtype)
        case .collectionLists(let type, let subtype):
            kind(isList: true, type: type, subtype: subtype)
        case .uuids(let uuids, let lists):
            conditions.append("collection.uuid IN (\(StoreSQL.elements(uuids)))")
            if let lists { conditions.append("collection.isList = \(literal: lists ? 1 : 0)") }
        case .containingAsset(let assetID, let type):
            conditions.append(
                """
                collection.isList = 0 AND (collection.id IN (SELECT albumID FROM albumAsset WHERE assetID = \(assetID)) \
                OR collection.id = (SELECT momentID FROM asset WHERE id = \(assetID)))
                """)
            if let type { conditions.append("collection.type = \(type)") }
        case .containingCollection(let childID, let listSubtype):
            // The parent folder or moment cluster, plus the year list spanning a moment.
            conditions.append(
                """
                collection.isList = 1 AND (collection.id = (SELECT parentID FROM collection AS child WHERE child.id = \(childID)) \
                OR (collection.type = 1 AND collection.subtype = 2 AND EXISTS (SELECT 1 FROM collection AS child \
                WHERE child.id = \(childID) AND child.type = 3 AND child.isList = 0 \
                AND child.startDate >= collection.startDate AND child.startDate < collection.endDate)))
                """)
            if let listSubtype { conditions.append("collection.subtype = \(listSubtype)") }
        case .topLevelUserCollections:
            conditions.append(
                "collection.parentID IS NULL AND ((collection.isList = 0 AND collection.type = 1) OR (collection.isList = 1 AND collection.type = 2))")
        case .children(let listID):
            // Folder children by parentID; the moments of a year list by date.
            conditions.append(
                """
                (collection.parentID = \(listID) OR (collection.isList = 0 AND collection.type = 3 AND EXISTS \
                (SELECT 1 FROM collection AS year WHERE year.id = \(listID) AND year.isList = 1 AND year.type = 1 \
                AND year.subtype = 2 AND collection.startDate >= year.startDate AND collection.startDate < year.endDate)))
                """)
        case .ordered(let ids):
            join = " JOIN \(StoreSQL.orderedElements(ids)) AS transient ON transient.value = collection.id"
        }

        if let owner { conditions.append(Self.visible(to: owner)) }
        if let filter { conditions.append(SQLFilterCompiler.compile(filter)) }
        if let restriction { conditions.append(restriction.condition(on: "collection.id")) }
        let whereClause = conditions.isEmpty ? "TRUE" : StoreSQL.joined(conditions, separator: " AND ")
        var statement: StoreSQL = "SELECT \(columns) FROM collection\(join) WHERE \(whereClause) ORDER BY \(OrderTerm.sql(orderTerms))"
        if limit > 0 { statement += " LIMIT \(limit)" }
        return statement
    }
}

extension CollectionQuery {
    /// The collections `person` sees: their own, those everyone sees alike (no owner), and the
    /// shared albums they are a member of.
    package static func visible(to person: Int64) -> StoreSQL {
        """
        (collection.ownerID = \(person) OR collection.ownerID IS NULL \
        OR collection.id IN (SELECT albumID FROM albumMember WHERE personID = \(person)))
        """
    }

    /// The shared albums `person` owns or is a member of.
    package static func sharedAlbums(of person: Int64) -> StoreSQL {
        """
        SELECT id FROM collection WHERE isList = 0 AND type = 1 AND subtype = \(literal: CollectionKind.albumCloudShared) \
        AND (ownerID = \(person) OR id IN (SELECT albumID FROM albumMember WHERE personID = \(person)))
        """
    }
}

extension CollectionQuery: DiffableQuery {
    /// The natural order of each scope, before sort descriptors replace it.
    private var naturalOrder: [OrderTerm] {
        let byDate = [OrderTerm("collection.startDate"), OrderTerm("collection.id")]
        switch scope {
        case .assetCollections(let type, _) where type == CollectionKind.moment: return byDate
        case .collectionLists(let type, _) where type == CollectionKind.momentList: return byDate
        case .containingCollection: return byDate
        case .topLevelUserCollections: return [OrderTerm("collection.position"), OrderTerm("collection.id")]
        case .children:
            return [OrderTerm("collection.position"), OrderTerm("collection.startDate"), OrderTerm("collection.id")]
        case .ordered: return [OrderTerm("transient.key")]
        default: return [OrderTerm("collection.id")]
        }
    }

    package var orderTerms: [OrderTerm] { OrderTerm.order(sort: sort, natural: naturalOrder, id: "collection.id") }
    package var idColumn: StoreSQL { "collection.id" }
    package var journalEntities: [Int] { [JournalEntity.assetCollection, JournalEntity.collectionList] }

    package var rereadingEntities: [Int] { [] }

    package var supportsIncrementalDiff: Bool {
        if limit > 0 { return false }
        if case .ordered = scope { return false }
        return true
    }

    /// Collections are ordered and filtered by their own columns and their parent: a changed
    /// parent or position is membership, so every change counts.
    package var dependsOnMembership: Bool { true }
}
