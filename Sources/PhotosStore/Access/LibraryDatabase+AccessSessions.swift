package import Foundation

extension LibraryDatabase {
    /// Stores a session of a token; `secretHash` is the SHA-256 of its secret. Sessions created
    /// before `expiredBefore` are removed at the same time.
    package func createAccessSession(
        tokenIdentifier: String, secretHash: String, date: Date, expiredBefore: Date
    ) throws(StoreError) {
        try write { db in
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
    package func accessToken(sessionHash: String, createdAfter: Date) throws(StoreError) -> AccessTokenRecord? {
        try read { db in
            try Self.token(db, "id = (SELECT tokenID FROM accessSession WHERE secretHash = \(sessionHash) AND createdDate >= \(createdAfter))")
        }
    }

    /// Ends a session; `false` when there was none.
    @discardableResult
    package func deleteAccessSession(secretHash: String) throws(StoreError) -> Bool {
        try write { db in
            try db.execute("DELETE FROM accessSession WHERE secretHash = \(secretHash)") > 0
        }
    }
}
