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
            let present = try db.rows(
                "SELECT asset.uuid, asset.id, asset.ownerID FROM albumAsset JOIN asset ON asset.id = albumAsset.assetID WHERE albumID = \(album.id) ORDER BY position"
            ) { (uuid: $0.text(0), id: $0.int64(1), owner: $0.optionalInt64(2)) }
            let full = present.map(\.uuid)
            let view = try edit.view ?? defaultAlbumView(albumID: album.id)
            let members = try OrderedMembership.apply(
                full: full, view: view, operations: edit.operations, containerName: "album '\(album.title ?? uuid)'")
            guard members != full else { return }
            try requireMayEdit(album, uuid: uuid, removing: present.filter { !Set(members).contains($0.uuid) }.map(\.owner))
            let kept = Dictionary(present.map { ($0.uuid, $0.id) }, uniquingKeysWith: { first, _ in first })
            try db.execute("DELETE FROM albumAsset WHERE albumID = \(album.id)")
            var memberIDs: Set<Int64> = []
            for (position, member) in members.enumerated() {
                // A member already there stays whoever's it is; one added must be the actor's.
                let id = try kept[member] ?? assetRow(member).id
                try db.execute("INSERT INTO albumAsset (albumID, assetID, position) VALUES (\(album.id), \(id), \(position))")
                memberIDs.insert(id)
            }
            // Those who joined or left have the album's title among their words, or no longer.
            searchStale.formUnion(memberIDs.symmetricDifference(present.map(\.id)))

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

    /// Who may change an album's assets, when a person acts: its owner, any of them; a shared
    /// album's contributor, adding their own and removing their own (`removed` are the owners of
    /// the assets leaving); a viewer, nothing.
    private func requireMayEdit(_ album: CollectionRow, uuid: String, removing removed: [Int64?]) throws {
        guard let acting = changes.actingPerson, album.owner != acting else { return }
        let name = album.title.map { "'\($0)'" } ?? uuid
        let role = try db.int("SELECT role FROM albumMember WHERE albumID = \(album.id) AND personID = \(acting)")
        guard role == SharingRole.contributor else {
            throw StoreError(.notAllowed, "Can't change the assets of \(name): you may view it, not contribute")
        }
        guard removed.allSatisfy({ $0 == acting }) else {
            throw StoreError(.notAllowed, "Can't remove another person's photo from \(name): only its owner and the album's can")
        }
    }

    /// Applies a change to who a shared album is shared with, and journals the album as
    /// changed, so each member's (and former member's) fetches of albums see it come or go.
    mutating func applySharing(_ edit: SharingEdit) throws {
        let album = try collectionRow(edit.album)
        let name = album.title.map { "'\($0)'" } ?? edit.album
        guard !album.isList, album.type == CollectionKind.album, album.subtype == CollectionKind.albumCloudShared else {
            throw StoreError(.notAllowed, "\(name) is not a shared album")
        }
        switch edit.action {
        case .share(let person, let role):
            try requireCollectionOwner(album, uuid: edit.album, action: "share")
            let id = try personID(person)
            guard id != album.owner else { throw StoreError(.notAllowed, "\(person) owns \(name)") }
            try db.execute(
                """
                INSERT INTO albumMember (albumID, personID, role, addedDate) VALUES (\(album.id), \(id), \(role), \(changes.now))
                ON CONFLICT (albumID, personID) DO UPDATE SET role = excluded.role
                """)
        case .unshare(let person):
            try requireCollectionOwner(album, uuid: edit.album, action: "unshare")
            try db.execute("DELETE FROM albumMember WHERE albumID = \(album.id) AND personID = \(try personID(person))")
        case .leave:
            guard let acting = changes.actingPerson else { throw StoreError(.notAllowed, "Only a person leaves a shared album") }
            guard try db.execute("DELETE FROM albumMember WHERE albumID = \(album.id) AND personID = \(acting)") > 0 else {
                throw StoreError(.notAllowed, "You are not a member of \(name)")
            }
        }
        try ChangeJournal.recordUpdate(
            db, change: try changeID(), of: .collection(album.id), flags: JournalFlags.updated | JournalFlags.membership)
    }

    /// The row id of the person with this `pe_` identifier or name.
    private func personID(_ person: String) throws -> Int64 {
        guard let id = try db.int64("SELECT id FROM person WHERE identifier = \(person) OR nameKey = \(PeopleStore.nameKey(person))") else {
            throw StoreError(.missingObject, "No person named '\(person)'")
        }
        return id
    }

    /// What `fetchAssets(in: album, options: nil)` shows: no hidden, trashed or non-picked burst assets.
    private func defaultAlbumView(albumID: Int64) throws -> [String] {
        try db.texts(AssetQuery(scope: .album(albumID)).statement(selecting: "asset.uuid"))
    }

    private mutating func applyChildren(parentID: Int64?, parentUUID: String?, edit: MembershipEdit, name: String) throws {
        let children = try db.texts(
            """
                SELECT uuid FROM collection WHERE \(StoreSQL.isNotDistinct("parentID", "\(parentID)"))
                AND ((isList = 0 AND type = 1) OR (isList = 1 AND type = 2))\(ownedChildren)
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
            try requireCollectionOwner(child, uuid: member, action: "move")
            if let parentID, try isAncestor(child.id, of: parentID) {
                throw StoreError(.notAllowed, "Can't put '\(child.title ?? member)' inside \(name): that would put a folder inside itself")
            }
            try db.execute("UPDATE collection SET parentID = \(parentID), position = \(position) WHERE id = \(child.id)")
        }
    }

    /// An acting person's folders and top level hold their own albums and folders only (a
    /// shared album of someone else's shows at their top level but stays where its owner put it).
    private var ownedChildren: StoreSQL {
        changes.actingPerson.map { " AND ownerID = \($0)" } ?? ""
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
