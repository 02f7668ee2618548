package import Foundation

/// A row of `accessToken`: an API token of the server, without its secret.
package struct AccessTokenRecord: Sendable, Hashable {
    package var id: Int64
    package var identifier: String
    package var name: String
    package var level: Int
    package var createdDate: Date
    package var lastUsedDate: Date?
    /// The person the token belongs to (nil in a library without people).
    package var personID: Int64?

    /// Reads a row selected with `AccessTokenColumn.selection` (its secret's hash is left).
    init(row: some ColumnReading) {
        id = row[AccessTokenColumn.id]
        identifier = row[AccessTokenColumn.identifier]
        name = row[AccessTokenColumn.name]
        level = row[AccessTokenColumn.level]
        createdDate = row[AccessTokenColumn.createdDate]
        lastUsedDate = row[AccessTokenColumn.lastUsedDate]
        personID = row[AccessTokenColumn.personID]
    }
}

/// How ``AccessTokenStore/changeAllowedAssets(tokenIdentifier:uuids:mode:)`` edits a list.
package enum AllowListEdit: Sendable {
    case add, remove, replace
}

/// The server's access tokens, their allow-lists and sign-in sessions: the `accessToken`,
/// `accessTokenAsset` and `accessSession` tables, and `libraryInfo.accessVersion`, which counts
/// changes to tokens and allow-lists so every process notices another's `photos token`
/// commands. Reached as ``LibraryDatabase/accessTokens``.
package struct AccessTokenStore: Sendable {
    let database: LibraryDatabase

    /// Stores a new token; `secretHash` is the SHA-256 of its secret, which is not stored. In
    /// a library with people the token belongs to `personID`, or else to the library's owner.
    package func create(
        identifier: String, name: String, level: Int, secretHash: String, date: Date, personID: Int64? = nil
    ) throws(StoreError) -> AccessTokenRecord {
        let record = try database.write { db -> AccessTokenRecord in
            var row = TableRow<AccessTokenColumn>()
            let owner = try db.text("SELECT value FROM libraryInfo WHERE key = 'ownerPersonID'").flatMap { Int64($0) }
            row[.personID] = personID ?? owner
            row[.identifier] = identifier
            row[.name] = name
            row[.level] = level
            row[.secretHash] = secretHash
            row[.createdDate] = date
            try db.execute(AccessTokenColumn.insert(row))
            try Self.bumpAccessVersion(db)
            return try Self.token(db, "identifier = \(identifier)")!
        }
        postAccessChange()
        return record
    }

    /// Every token, oldest first.
    package func all() throws(StoreError) -> [AccessTokenRecord] {
        try database.read { db in
            try db.rows("SELECT \(AccessTokenColumn.selection) FROM accessToken ORDER BY id") { AccessTokenRecord(row: $0) }
        }
    }

    /// The token whose secret hashes to `secretHash`.
    package func token(secretHash: String) throws(StoreError) -> AccessTokenRecord? {
        try database.read { db in try Self.token(db, "secretHash = \(secretHash)") }
    }

    /// The token with this identifier.
    package func token(identifier: String) throws(StoreError) -> AccessTokenRecord? {
        try database.read { db in try Self.token(db, "identifier = \(identifier)") }
    }

    /// Removes a token and its allow-list; `false` when there was none.
    package func delete(identifier: String) throws(StoreError) -> Bool {
        let deleted = try database.write { db -> Bool in
            guard try db.execute("DELETE FROM accessToken WHERE identifier = \(identifier)") > 0 else { return false }
            try Self.bumpAccessVersion(db)
            return true
        }
        if deleted { postAccessChange() }
        return deleted
    }

    /// Records that a token was used (not counted as a change of access).
    package func markUsed(id: Int64, date: Date) throws(StoreError) {
        try database.write { db in
            try db.execute("UPDATE accessToken SET lastUsedDate = \(date) WHERE id = \(id)")
        }
    }

    /// The UUIDs of the assets a token may see, in no particular order.
    package func allowedAssetUUIDs(tokenID: Int64) throws(StoreError) -> [String] {
        try database.read { db in
            try db.texts(
                "SELECT asset.uuid FROM accessTokenAsset JOIN asset ON asset.id = accessTokenAsset.assetID WHERE tokenID = \(tokenID)")
        }
    }

    /// Adds assets to a token's allow-list, removes them, or replaces the list; unknown assets
    /// fail the whole edit (`.missingObject`, naming them). Returns the list's new size.
    package func changeAllowedAssets(tokenIdentifier: String, uuids: [String], mode: AllowListEdit) throws(StoreError) -> Int {
        let count = try database.write { db -> Int in
            guard let token = try Self.token(db, "identifier = \(tokenIdentifier)") else {
                throw StoreError(.missingObject, "No access token '\(tokenIdentifier)'")
            }
            var ids: [Int64] = []
            var missing: [String] = []
            for uuid in uuids {
                if let id = try db.int64("SELECT id FROM asset WHERE uuid = \(uuid)") { ids.append(id) } else { missing.append(uuid) }
            }
            guard missing.isEmpty else {
                throw StoreError(.missingObject, "No asset with identifier \(missing.prefix(5).joined(separator: ", "))")
            }
            if mode == .replace {
                try db.execute("DELETE FROM accessTokenAsset WHERE tokenID = \(token.id)")
            }
            for id in ids {
                try db.execute(
                    mode == .remove
                        ? "DELETE FROM accessTokenAsset WHERE tokenID = \(token.id) AND assetID = \(id)"
                        : "INSERT INTO accessTokenAsset (tokenID, assetID) VALUES (\(token.id), \(id)) ON CONFLICT DO NOTHING")
            }
            try Self.bumpAccessVersion(db)
            return try db.int("SELECT COUNT(*) FROM accessTokenAsset WHERE tokenID = \(token.id)") ?? 0
        }
        postAccessChange()
        return count
    }

    /// Counts changes to tokens and allow-lists (in any process).
    package func version() throws(StoreError) -> Int64 {
        try database.singleInt64("SELECT CAST(value AS BIGINT) FROM libraryInfo WHERE key = 'accessVersion'") ?? 0
    }

    static func token(_ db: any StoreConnection, _ condition: StoreSQL) throws -> AccessTokenRecord? {
        try db.row("SELECT \(AccessTokenColumn.selection) FROM accessToken WHERE \(condition)") { AccessTokenRecord(row: $0) }
    }

    /// Counts a change to access in the transaction of `db`; on PostgreSQL the commit also
    /// wakes the access watchers of every instance (`NOTIFY`, sent at commit, with
    /// ``ChangeJournal/postgresAccessPayload``), and only them.
    static func bumpAccessVersion(_ db: any StoreConnection) throws {
        try db.execute(
            """
                INSERT INTO libraryInfo (key, value) VALUES ('accessVersion', '1')
                ON CONFLICT(key) DO UPDATE SET value = CAST(CAST(libraryInfo.value AS BIGINT) + 1 AS TEXT)
                """)
        if db.dialect == .postgres {
            try db.execute("SELECT pg_notify(\(ChangeJournal.postgresChannel), \(ChangeJournal.postgresAccessPayload))")
        }
    }

    /// Wakes watchers in other processes (the change signal's folder is what they watch),
    /// unless the commit announced itself (PostgreSQL: ``bumpAccessVersion(_:)``).
    private func postAccessChange() {
        database.engine.postCommit(position: (try? database.currentPosition()) ?? 0)
    }

    // MARK: - Sessions

    /// Stores a session of a token; `secretHash` is the SHA-256 of its secret. Sessions created
    /// before `expiredBefore` are removed at the same time.
    package func createSession(
        tokenIdentifier: String, secretHash: String, date: Date, expiredBefore: Date
    ) throws(StoreError) {
        try database.write { db in
            try db.execute("DELETE FROM accessSession WHERE createdDate < \(expiredBefore)")
            guard let token = try db.int64("SELECT id FROM accessToken WHERE identifier = \(tokenIdentifier)")
            else {
                throw StoreError(.missingObject, "No access token '\(tokenIdentifier)'")
            }
            try db.execute("INSERT INTO accessSession (secretHash, tokenID, createdDate) VALUES (\(secretHash), \(token), \(date))")
        }
    }

    /// The token of the session whose secret hashes to `secretHash`, when the session was
    /// created at or after `createdAfter` and its token exists.
    package func token(sessionHash: String, createdAfter: Date) throws(StoreError) -> AccessTokenRecord? {
        try database.read { db in
            try Self.token(db, "id = (SELECT tokenID FROM accessSession WHERE secretHash = \(sessionHash) AND createdDate >= \(createdAfter))")
        }
    }

    /// Ends a session; `false` when there was none.
    @discardableResult
    package func deleteSession(secretHash: String) throws(StoreError) -> Bool {
        try database.write { db in
            try db.execute("DELETE FROM accessSession WHERE secretHash = \(secretHash)") > 0
        }
    }
}

extension LibraryDatabase {
    /// The access tokens and sessions of the server (``AccessTokenStore``).
    package var accessTokens: AccessTokenStore { AccessTokenStore(database: self) }
}
