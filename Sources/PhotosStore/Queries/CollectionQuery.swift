import Foundation
import GRDB

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

    package init(scope: Scope, filter: StoreFilter? = nil, sort: [StoreSort] = [], limit: Int = 0) {
        self.scope = scope
        self.filter = filter
        self.sort = sort
        self.limit = limit
    }

    func sql(selecting columns: String = "collection.id") -> (sql: String, arguments: StatementArguments) {
        var arguments = StatementArguments()
        var joins = ""
        var conditions: [String] = []
        var natural = ["collection.id"]

        func kind(isList: Bool, type: Int?, subtype: Int?) {
            conditions.append("collection.isList = \(isList ? 1 : 0)")
            if let type {
                conditions.append("collection.type = ?")
                arguments += [type]
            }
            if let subtype, subtype != CollectionKind.anySubtype {
                conditions.append("collection.subtype = ?")
                arguments += [subtype]
            }
        }

        switch scope {
        case .assetCollections(let type, let subtype):
            kind(isList: false, type: type, subtype: subtype)
            if type == CollectionKind.moment { natural = ["collection.startDate", "collection.id"] }
        case .collectionLists(let type, let subtype):
            kind(isList: true, type: type, subtype: subtype)
            if type == CollectionKind.momentList { natural = ["collection.startDate", "collection.id"] }
        case .uuids(let uuids, let lists):
            conditions.append("collection.uuid IN (SELECT value FROM json_each(?))")
            arguments += [StoreValue.jsonArray(uuids.map(StoreValue.text))]
            if let lists { conditions.append("collection.isList = \(lists ? 1 : 0)") }
        case .containingAsset(let assetID, let type):
            conditions.append(
                """
                collection.isList = 0 AND (collection.id IN (SELECT albumID FROM albumAsset WHERE assetID = ?) \
                OR collection.id = (SELECT momentID FROM asset WHERE id = ?))
                """)
            arguments += [assetID, assetID]
            if let type {
                conditions.append("collection.type = ?")
                arguments += [type]
            }
        case .containingCollection(let childID, let listSubtype):
            // The parent folder or moment cluster, plus the year list spanning a moment.
            conditions.append(
                """
                collection.isList = 1 AND (collection.id = (SELECT parentID FROM collection AS child WHERE child.id = ?) \
                OR (collection.type = 1 AND collection.subtype = 2 AND EXISTS (SELECT 1 FROM collection AS child \
                WHERE child.id = ? AND child.type = 3 AND child.isList = 0 \
                AND child.startDate >= collection.startDate AND child.startDate < collection.endDate)))
                """)
            arguments += [childID, childID]
            if let listSubtype {
                conditions.append("collection.subtype = ?")
                arguments += [listSubtype]
            }
            natural = ["collection.startDate", "collection.id"]
        case .topLevelUserCollections:
            conditions.append(
                "collection.parentID IS NULL AND ((collection.isList = 0 AND collection.type = 1) OR (collection.isList = 1 AND collection.type = 2))")
            natural = ["collection.position", "collection.id"]
        case .children(let listID):
            // Folder children by parentID; the moments of a year list by date.
            conditions.append(
                """
                (collection.parentID = ? OR (collection.isList = 0 AND collection.type = 3 AND EXISTS \
                (SELECT 1 FROM collection AS year WHERE year.id = ? AND year.isList = 1 AND year.type = 1 \
                AND year.subtype = 2 AND collection.startDate >= year.startDate AND collection.startDate < year.endDate)))
                """)
            arguments += [listID, listID]
            natural = ["collection.position", "collection.startDate", "collection.id"]
        case .ordered(let ids):
            joins = " JOIN json_each(?) AS transient ON transient.value = collection.id"
            arguments += [StoreValue.jsonArray(ids.map(StoreValue.integer))]
            natural = ["transient.key"]
        }

        if let filter {
            var compiler = SQLFilterCompiler()
            conditions.append(compiler.compile(filter))
            arguments += compiler.arguments
        }
        var order = sort.map { "\($0.field.sql) \($0.ascending ? "ASC" : "DESC")" }
        if order.isEmpty {
            order = natural
        } else {
            order.append("collection.id")
        }
        let whereClause = conditions.isEmpty ? "1" : conditions.joined(separator: " AND ")
        var sql = "SELECT \(columns) FROM collection\(joins) WHERE \(whereClause) ORDER BY \(order.joined(separator: ", "))"
        if limit > 0 {
            sql += " LIMIT ?"
            arguments += [limit]
        }
        return (sql, arguments)
    }
}
