package import Foundation
import GRDB

/// A row of `accessToken`: an API token of the server, without its secret.
package struct AccessTokenRecord: Sendable, Hashable {
    package var id: Int64
    package var identifier: String
    package var name: String
    package var level: Int
    package var createdDate: Date
    package var lastUsedDate: Date?

    init(row: Row) {
        id = row["id"]
        identifier = row["identifier"]
        name = row["name"]
        level = row["level"]
        createdDate = Date(timeIntervalSince1970: row["createdDate"])
        lastUsedDate = (row["lastUsedDate"] as Double?).map(Date.init(timeIntervalSince1970:))
    }

    static let columns = "id, identifier, name, level, createdDate, lastUsedDate"
}

/// How ``LibraryDatabase/changeAllowedAssets(tokenIdentifier:uuids:mode:)`` edits a list.
package enum AllowListEdit: Sendable {
    case add, remove, replace
}

extension LibraryDatabase {
    /// Stores a new token; `secretHash` is the SHA-256 of its secret, which is not stored.
    package func createAccessToken(
        identifier: String, name: String, level: Int, secretHash: String, date: Date
    ) throws(StoreError) -> AccessTokenRecord {
        let record = try write { db -> AccessTokenRecord in
            try db.execute(
                sql: "INSERT INTO accessToken (identifier, name, level, secretHash, createdDate) VALUES (?, ?, ?, ?, ?)",
                arguments: [identifier, name, level, secretHash, date.timeIntervalSince1970])
            try Self.bumpAccessVersion(db)
            return try Self.token(db, "identifier = ?", [identifier])!
        }
        postAccessChange()
        return record
    }

    /// Every token, oldest first.
    package func accessTokens() throws(StoreError) -> [AccessTokenRecord] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(AccessTokenRecord.columns) FROM accessToken ORDER BY id")
                .map(AccessTokenRecord.init(row:))
        }
    }

    /// The token whose secret hashes to `secretHash`.
    package func accessToken(secretHash: String) throws(StoreError) -> AccessTokenRecord? {
        try read { db in try Self.token(db, "secretHash = ?", [secretHash]) }
    }

    /// The token with this identifier.
    package func accessToken(identifier: String) throws(StoreError) -> AccessTokenRecord? {
        try read { db in try Self.token(db, "identifier = ?", [identifier]) }
    }

    /// Removes a token and its allow-list; `false` when there was none.
    package func deleteAccessToken(identifier: String) throws(StoreError) -> Bool {
        let deleted = try write { db -> Bool in
            try db.execute(sql: "DELETE FROM accessToken WHERE identifier = ?", arguments: [identifier])
            guard db.changesCount > 0 else { return false }
            try Self.bumpAccessVersion(db)
            return true
        }
        if deleted { postAccessChange() }
        return deleted
    }

    /// Records that a token was used (not counted as a change of access).
    package func markAccessTokenUsed(id: Int64, date: Date) throws(StoreError) {
        try write { db in
            try db.execute(
                sql: "UPDATE accessToken SET lastUsedDate = ? WHERE id = ?", arguments: [date.timeIntervalSince1970, id])
        }
    }

    /// The UUIDs of the assets a token may see, in no particular order.
    package func allowedAssetUUIDs(tokenID: Int64) throws(StoreError) -> [String] {
        try read { db in
            try String.fetchAll(
                db,
                sql: "SELECT asset.uuid FROM accessTokenAsset JOIN asset ON asset.id = accessTokenAsset.assetID WHERE tokenID = ?",
                arguments: [tokenID])
        }
    }

    /// Adds assets to a token's allow-list, removes them, or replaces the list; unknown assets
    /// fail the whole edit (`.missingObject`, naming them). Returns the list's new size.
    package func changeAllowedAssets(tokenIdentifier: String, uuids: [String], mode: AllowListEdit) throws(StoreError) -> Int {
        let count = try write { db -> Int in
            guard let token = try Self.token(db, "identifier = ?", [tokenIdentifier]) else {
                throw StoreError(.missingObject, "No access token '\(tokenIdentifier)'")
            }
            var ids: [Int64] = []
            var missing: [String] = []
            let lookup = try db.makeStatement(sql: "SELECT id FROM asset WHERE uuid = ?")
            for uuid in uuids {
                if let id = try Int64.fetchOne(lookup, arguments: [uuid]) { ids.append(id) } else { missing.append(uuid) }
            }
            guard missing.isEmpty else {
                throw StoreError(.missingObject, "No asset with identifier \(missing.prefix(5).joined(separator: ", "))")
            }
            if mode == .replace {
                try db.execute(sql: "DELETE FROM accessTokenAsset WHERE tokenID = ?", arguments: [token.id])
            }
            let sql = mode == .remove
                ? "DELETE FROM accessTokenAsset WHERE tokenID = ? AND assetID = ?"
                : "INSERT OR IGNORE INTO accessTokenAsset (tokenID, assetID) VALUES (?, ?)"
            let statement = try db.makeStatement(sql: sql)
            for id in ids { try statement.execute(arguments: [token.id, id]) }
            try Self.bumpAccessVersion(db)
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM accessTokenAsset WHERE tokenID = ?", arguments: [token.id]) ?? 0
        }
        postAccessChange()
        return count
    }

    /// Counts changes to tokens and allow-lists (in any process).
    package func accessVersion() throws(StoreError) -> Int64 {
        try read { db in
            try Int64.fetchOne(db, sql: "SELECT CAST(value AS INTEGER) FROM libraryInfo WHERE key = 'accessVersion'") ?? 0
        }
    }

    static func token(_ db: Database, _ condition: String, _ arguments: StatementArguments) throws -> AccessTokenRecord? {
        try Row.fetchOne(db, sql: "SELECT \(AccessTokenRecord.columns) FROM accessToken WHERE \(condition)", arguments: arguments)
            .map(AccessTokenRecord.init(row:))
    }

    private static func bumpAccessVersion(_ db: Database) throws {
        try db.execute(
            sql: """
                INSERT INTO libraryInfo (key, value) VALUES ('accessVersion', '1')
                ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1
                """)
    }

    /// Wakes watchers in other processes (the change signal's folder is what they watch).
    private func postAccessChange() {
        changeSignal.post(position: (try? currentPosition()) ?? 0)
    }
}
