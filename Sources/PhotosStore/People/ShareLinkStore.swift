package import Foundation

/// A row of `shareLink`.
package struct ShareLinkRecord: Sendable, Hashable {
    package var id: Int64
    package var identifier: String
    package var ownerID: Int64?
    package var albumID: Int64?
    package var title: String
    package var expiresDate: Date?
    /// The bcrypt hash of the link's password, when it has one.
    package var passwordHash: String?
    package var allowsDownload: Bool
    package var createdDate: Date
    /// The album's UUID, for a link to an album.
    package var albumUUID: String?

    /// Reads a row selected with ``ShareLinkStore/selection``.
    init(row: some ColumnReading) {
        id = row[ShareLinkColumn.id]
        identifier = row[ShareLinkColumn.identifier]
        ownerID = row[ShareLinkColumn.ownerID]
        albumID = row[ShareLinkColumn.albumID]
        title = row[ShareLinkColumn.title]
        expiresDate = row[ShareLinkColumn.expiresDate]
        passwordHash = row[ShareLinkColumn.passwordHash]
        allowsDownload = row[ShareLinkColumn.allowsDownload]
        createdDate = row[ShareLinkColumn.createdDate]
        albumUUID = row[after: ShareLinkColumn.self, 0]
    }
}

/// Public links to an album or a selection: the `shareLink` and `shareLinkAsset` tables.
/// Making and revoking one counts in `libraryInfo.accessVersion`, so every server drops what it
/// remembered of it at once. Reached as ``LibraryDatabase/shareLinks``.
package struct ShareLinkStore: Sendable {
    let database: LibraryDatabase

    /// A link's columns and its album's UUID.
    static let selection: StoreSQL = "\(ShareLinkColumn.selection), (SELECT uuid FROM collection WHERE collection.id = shareLink.albumID)"

    /// Stores a link to the album with this UUID, or to the assets with these UUIDs; in a
    /// library with people each must be `ownerID`'s own (a member of a shared album can't
    /// publish its other photos). Unknown ones, and others', fail with `.missingObject`.
    package func create(
        identifier: String, secretHash: String, ownerID: Int64?, albumUUID: String?, assetUUIDs: [String], title: String,
        expiresDate: Date?, passwordHash: String?, allowsDownload: Bool, date: Date
    ) throws(StoreError) -> ShareLinkRecord {
        try database.write { db -> ShareLinkRecord in
            var row = TableRow<ShareLinkColumn>()
            row[.identifier] = identifier
            row[.secretHash] = secretHash
            row[.ownerID] = ownerID
            if let albumUUID {
                guard let album = try db.int64("SELECT id FROM collection WHERE uuid = \(albumUUID) AND isList = 0 AND type = 1\(Self.owned(by: ownerID))") else {
                    throw StoreError(.missingObject, "No album \(albumUUID)")
                }
                row[.albumID] = album
            }
            row[.title] = title
            row[.expiresDate] = expiresDate
            row[.passwordHash] = passwordHash
            row[.allowsDownload] = allowsDownload
            row[.createdDate] = date
            let id = try db.insert(ShareLinkColumn.insert(row))
            for uuid in assetUUIDs {
                guard let asset = try db.int64("SELECT id FROM asset WHERE uuid = \(uuid)\(Self.owned(by: ownerID))") else {
                    throw StoreError(.missingObject, "No asset \(uuid)")
                }
                try db.execute("INSERT INTO shareLinkAsset (linkID, assetID) VALUES (\(id), \(asset)) ON CONFLICT DO NOTHING")
            }
            try AccessTokenStore.bumpAccessVersion(db)
            return try db.row("SELECT \(Self.selection) FROM shareLink WHERE id = \(id)") { ShareLinkRecord(row: $0) }!
        }
    }

    /// ` AND ownerID = ?` for a person's link; nothing in a library without people.
    static func owned(by ownerID: Int64?) -> StoreSQL {
        ownerID.map { " AND ownerID = \($0)" } ?? ""
    }

    /// The link whose secret hashes to `secretHash`.
    package func link(secretHash: String) throws(StoreError) -> ShareLinkRecord? {
        try database.read { db in
            try db.row("SELECT \(Self.selection) FROM shareLink WHERE secretHash = \(secretHash)") { ShareLinkRecord(row: $0) }
        }
    }

    /// A person's links (every link in a library without people: `ownerID` nil), newest first.
    package func links(ownerID: Int64?) throws(StoreError) -> [ShareLinkRecord] {
        try database.read { db in
            try db.rows(
                """
                SELECT \(Self.selection) FROM shareLink WHERE \(StoreSQL.isNotDistinct("ownerID", "\(ownerID)")) \
                ORDER BY createdDate DESC, id DESC
                """
            ) { ShareLinkRecord(row: $0) }
        }
    }

    /// What a link never shows: a photo in Recently Deleted, or hidden.
    static let shown: StoreSQL = "asset.trashedDate IS NULL AND asset.isHidden = 0"

    /// The UUIDs of the assets a link shows: its album's members, or its selection.
    package func assetUUIDs(of link: ShareLinkRecord) throws(StoreError) -> [String] {
        try database.read { db in
            if let album = link.albumID {
                return try db.texts(
                    "SELECT asset.uuid FROM albumAsset JOIN asset ON asset.id = albumAsset.assetID WHERE albumID = \(album) AND \(Self.shown)")
            }
            return try db.texts(
                "SELECT asset.uuid FROM shareLinkAsset JOIN asset ON asset.id = shareLinkAsset.assetID WHERE linkID = \(link.id) AND \(Self.shown)")
        }
    }

    /// Revokes a person's link; `false` when they have none with this identifier.
    package func delete(identifier: String, ownerID: Int64?) throws(StoreError) -> Bool {
        try database.write { db in
            let deleted =
                try db.execute(
                    "DELETE FROM shareLink WHERE identifier = \(identifier) AND \(StoreSQL.isNotDistinct("ownerID", "\(ownerID)"))") > 0
            if deleted { try AccessTokenStore.bumpAccessVersion(db) }
            return deleted
        }
    }
}

extension LibraryDatabase {
    /// The library's public links (``ShareLinkStore``).
    package var shareLinks: ShareLinkStore { ShareLinkStore(database: self) }
}
