import Foundation

extension ChangeApplier {
    /// Applies one request's ordered edits to an album, a folder, or the top level.
    mutating func applyMembership(_ edit: MembershipEdit) throws {
        switch edit.container {
        case .album(let uuid):
            let album = try collectionRow(uuid)
            guard !album.isList && album.type == CollectionKind.album else {
                throw StoreError(.notAllowed, "Can't change the assets of \(album.title.map { "'\($0)'" } ?? uuid): it is not a user album")
            }
            let full = try db.texts(
                "SELECT asset.uuid FROM albumAsset JOIN asset ON asset.id = albumAsset.assetID WHERE albumID = \(album.id) ORDER BY position")
            let view = try edit.view ?? defaultAlbumView(albumID: album.id)
            let members = try OrderedMembership.apply(
                full: full, view: view, operations: edit.operations, containerName: "album '\(album.title ?? uuid)'")
            guard members != full else { return }
            try db.execute("DELETE FROM albumAsset WHERE albumID = \(album.id)")
            for (position, member) in members.enumerated() {
                let asset = try assetRow(member)
                try db.execute("INSERT INTO albumAsset (albumID, assetID, position) VALUES (\(album.id), \(asset.id), \(position))")
            }

        case .folder(let uuid):
            let folder = try collectionRow(uuid)
            guard folder.isList && folder.type == CollectionKind.folder else {
                throw StoreError(.notAllowed, "Can't change the children of \(folder.title.map { "'\($0)'" } ?? uuid): it is not a folder")
            }
            try applyChildren(parentID: folder.id, parentUUID: uuid, edit: edit, name: "folder '\(folder.title ?? uuid)'")

        case .topLevel:
            try applyChildren(parentID: nil, parentUUID: nil, edit: edit, name: "the top-level collections")
        }
    }

    /// What `fetchAssets(in: album, options: nil)` shows: no hidden, trashed or non-picked burst assets.
    private func defaultAlbumView(albumID: Int64) throws -> [String] {
        try db.texts(AssetQuery(scope: .album(albumID)).statement(selecting: "asset.uuid"))
    }

    private mutating func applyChildren(parentID: Int64?, parentUUID: String?, edit: MembershipEdit, name: String) throws {
        let children = try db.texts(
            """
                SELECT uuid FROM collection WHERE \(StoreSQL.isNotDistinct("parentID", "\(parentID)"))
                AND ((isList = 0 AND type = 1) OR (isList = 1 AND type = 2))
                ORDER BY position, id
                """)
        let members = try OrderedMembership.apply(
            full: children, view: edit.view ?? children, operations: edit.operations, containerName: name)
        guard members != children else { return }
        let kept = Set(members)
        // Children removed from a folder move to the top level (they are not deleted).
        for removed in children where !kept.contains(removed) {
            let position = try db.int("SELECT COALESCE(MAX(position) + 1, 0) FROM collection WHERE parentID IS NULL") ?? 0
            try db.execute("UPDATE collection SET parentID = NULL, position = \(position) WHERE uuid = \(removed)")
        }
        for (position, member) in members.enumerated() {
            let child = try collectionRow(member)
            try requireUserCollection(child, uuid: member, action: "move")
            if let parentID, try isAncestor(child.id, of: parentID) {
                throw StoreError(.notAllowed, "Can't put '\(child.title ?? member)' inside \(name): that would put a folder inside itself")
            }
            try db.execute("UPDATE collection SET parentID = \(parentID), position = \(position) WHERE id = \(child.id)")
        }
    }

    /// Whether `candidate` is `collection` itself or one of its ancestors.
    private func isAncestor(_ candidate: Int64, of collection: Int64) throws -> Bool {
        try db.bool(
            """
                WITH RECURSIVE up(id) AS (
                    SELECT \(collection) UNION ALL
                    SELECT collection.parentID FROM collection JOIN up ON collection.id = up.id WHERE collection.parentID IS NOT NULL)
                SELECT EXISTS (SELECT 1 FROM up WHERE id = \(candidate))
                """) ?? false
    }
}
