package import Foundation

/// A row of `person`.
package struct PersonRecord: Sendable, Hashable {
    package var id: Int64
    package var identifier: String
    package var name: String
    package var isAdmin: Bool
    /// The bcrypt hash of the password (`$2b$...`), never the password.
    package var passwordHash: String
    package var createdDate: Date
    package var passwordChangedDate: Date

    init(row: some ColumnReading) {
        id = row[PersonColumn.id]
        identifier = row[PersonColumn.identifier]
        name = row[PersonColumn.name]
        isAdmin = row[PersonColumn.isAdmin]
        passwordHash = row[PersonColumn.passwordHash]
        createdDate = row[PersonColumn.createdDate]
        passwordChangedDate = row[PersonColumn.passwordChangedDate]
    }
}

/// The people of a library, their sign-in sessions and the failed sign-ins counted against
/// guessing: the `person`, `personSession` and `signInFailure` tables, and
/// `libraryInfo.ownerPersonID`, the first person, who owns what the library held before it had
/// people. Every change to people counts in `libraryInfo.accessVersion` (as tokens' changes do),
/// so each server drops what it remembered of them. Reached as ``LibraryDatabase/people``.
package struct PeopleStore: Sendable {
    let database: LibraryDatabase

    /// The folded form two names must not share.
    package static func nameKey(_ name: String) -> String { name.lowercased() }

    /// Adds a person. The first one becomes the library's owner and an administrator, and the
    /// tokens made before the library had people become theirs. A name another person has
    /// (in any case) fails with `.notAllowed`.
    package func create(
        identifier: String, name: String, isAdmin: Bool, passwordHash: String, date: Date
    ) throws(StoreError) -> PersonRecord {
        try database.write { db -> PersonRecord in
            if try db.int64("SELECT id FROM person WHERE nameKey = \(Self.nameKey(name))") != nil {
                throw StoreError(.notAllowed, "There is already a person named '\(name)'")
            }
            let isFirst = try db.int64("SELECT COUNT(*) FROM person") == 0
            var row = TableRow<PersonColumn>()
            row[.identifier] = identifier
            row[.name] = name
            row[.nameKey] = Self.nameKey(name)
            row[.isAdmin] = isAdmin || isFirst
            row[.passwordHash] = passwordHash
            row[.createdDate] = date
            row[.passwordChangedDate] = date
            let id = try db.insert(PersonColumn.insert(row))
            if isFirst {
                // What the library held becomes the first person's: its photos, albums,
                // moments and tokens.
                try db.execute("INSERT INTO libraryInfo (key, value) VALUES ('ownerPersonID', \(String(id)))")
                try db.execute("UPDATE accessToken SET personID = \(id) WHERE personID IS NULL")
                for statement in LibrarySchema.adoptionByOwner { try db.execute(StoreSQL(unescaped: statement)) }
            }
            try AccessTokenStore.bumpAccessVersion(db)
            return try Self.person(db, "id = \(id)")!
        }
    }

    /// Every person, in the order they were added.
    package func all() throws(StoreError) -> [PersonRecord] {
        try database.read { db in try db.rows("SELECT \(PersonColumn.selection) FROM person ORDER BY id") { PersonRecord(row: $0) } }
    }

    /// Whether the library has people (then everyone signs in as one of them).
    package func exist() throws(StoreError) -> Bool {
        try database.read { db in try db.int64("SELECT id FROM person LIMIT 1") != nil }
    }

    /// The person with this name, in any case.
    package func person(named name: String) throws(StoreError) -> PersonRecord? {
        try database.read { db in try Self.person(db, "nameKey = \(Self.nameKey(name))") }
    }

    /// The person with this `pe_` identifier, else with this name (in any case).
    package func person(nameOrIdentifier text: String) throws(StoreError) -> PersonRecord? {
        if text.hasPrefix("pe_"), let found = try person(identifier: text) { return found }
        return try person(named: text)
    }

    /// The person with this identifier (`pe_...`).
    package func person(identifier: String) throws(StoreError) -> PersonRecord? {
        try database.read { db in try Self.person(db, "identifier = \(identifier)") }
    }

    /// The person with this row id.
    package func person(id: Int64) throws(StoreError) -> PersonRecord? {
        try database.read { db in try Self.person(db, "id = \(id)") }
    }

    /// The library's owner: the first person (nil while the library has none).
    package func ownerID() throws(StoreError) -> Int64? {
        if let known = database.knownOwnerID.withLock({ $0 }) { return known }
        let owner = try database.read { db in
            try db.text("SELECT value FROM libraryInfo WHERE key = 'ownerPersonID'").flatMap { Int64($0) }
        }
        if let owner { database.knownOwnerID.withLock { $0 = owner } }
        return owner
    }

    /// Removes a person with their sessions and tokens; `false` when there was none. The
    /// library's owner can't be removed (`.notAllowed`).
    package func delete(identifier: String) throws(StoreError) -> Bool {
        try database.write { db -> Bool in
            guard let person = try Self.person(db, "identifier = \(identifier)") else { return false }
            let owner = try db.text("SELECT value FROM libraryInfo WHERE key = 'ownerPersonID'").flatMap { Int64($0) }
            if person.id == owner {
                throw StoreError(.notAllowed, "\(person.name) owns the library and can't be removed")
            }
            let assets = try db.int64("SELECT COUNT(*) FROM asset WHERE ownerID = \(person.id)") ?? 0
            if assets > 0 {
                throw StoreError(
                    .notAllowed, "\(person.name) still has \(assets) photo\(assets == 1 ? "" : "s") or video\(assets == 1 ? "" : "s"): delete them first")
            }
            try db.execute("DELETE FROM collection WHERE ownerID = \(person.id)")
            try db.execute("DELETE FROM accessToken WHERE personID = \(person.id)")
            try db.execute("DELETE FROM person WHERE id = \(person.id)")
            try AccessTokenStore.bumpAccessVersion(db)
            return true
        }
    }

    /// Sets a person's password hash and ends their sessions but the one whose secret hashes to
    /// `keptSession` (the browser that changed it).
    package func setPassword(personID: Int64, passwordHash: String, date: Date, keptSession: String?) throws(StoreError) {
        try database.write { db in
            var row = TableRow<PersonColumn>()
            row[.passwordHash] = passwordHash
            row[.passwordChangedDate] = date
            guard try db.execute(PersonColumn.update(row, where: "id = \(personID)")) > 0 else {
                throw StoreError(.missingObject, "No person with id \(personID)")
            }
            try db.execute("DELETE FROM personSession WHERE personID = \(personID) AND secretHash <> \(keptSession ?? "")")
            try AccessTokenStore.bumpAccessVersion(db)
        }
    }

    /// Makes a person an administrator or not; the library keeps at least one.
    package func setAdmin(personID: Int64, _ isAdmin: Bool) throws(StoreError) {
        try database.write { db in
            if !isAdmin, try db.int64("SELECT COUNT(*) FROM person WHERE isAdmin = 1 AND id <> \(personID)") == 0 {
                throw StoreError(.notAllowed, "The library needs at least one administrator")
            }
            try db.execute("UPDATE person SET isAdmin = \(isAdmin) WHERE id = \(personID)")
            try AccessTokenStore.bumpAccessVersion(db)
        }
    }

    static func person(_ db: any StoreConnection, _ condition: StoreSQL) throws -> PersonRecord? {
        try db.row("SELECT \(PersonColumn.selection) FROM person WHERE \(condition)") { PersonRecord(row: $0) }
    }

    // MARK: - Sessions

    /// Stores a session of a person; `secretHash` is the SHA-256 of its secret. Sessions
    /// created before `expiredBefore` are removed at the same time.
    package func createSession(personID: Int64, secretHash: String, date: Date, expiredBefore: Date) throws(StoreError) {
        try database.write { db in
            try db.execute("DELETE FROM personSession WHERE createdDate < \(expiredBefore)")
            try db.execute(
                "INSERT INTO personSession (secretHash, personID, createdDate) VALUES (\(secretHash), \(personID), \(date))")
        }
    }

    /// The person of the session whose secret hashes to `secretHash`, when it was created at or
    /// after `createdAfter`.
    package func person(sessionHash: String, createdAfter: Date) throws(StoreError) -> PersonRecord? {
        try database.read { db in
            try Self.person(
                db, "id = (SELECT personID FROM personSession WHERE secretHash = \(sessionHash) AND createdDate >= \(createdAfter))")
        }
    }

    /// Ends a session; `false` when there was none.
    @discardableResult
    package func deleteSession(secretHash: String) throws(StoreError) -> Bool {
        try database.write { db in try db.execute("DELETE FROM personSession WHERE secretHash = \(secretHash)") > 0 }
    }

    // MARK: - Failed sign-ins

    /// The failures each of `keys` counts since `since` and when the last was (keys without
    /// any are left out).
    package func failures(keys: [String], since: Date) throws(StoreError) -> [String: SignInFailures] {
        try database.read { db in
            var counts: [String: SignInFailures] = [:]
            for key in keys {
                counts[key] = try db.row(
                    "SELECT \(SignInFailureColumn.selection) FROM signInFailure WHERE key = \(key) AND firstDate >= \(since)"
                ) { SignInFailures(count: $0[SignInFailureColumn.failures], last: $0[SignInFailureColumn.lastDate]) }
            }
            return counts
        }
    }

    /// Counts a failure against each key: a count older than `windowStart` starts again at 1.
    /// Rows of every key older than the window go at the same time.
    package func recordFailure(keys: [String], date: Date, windowStart: Date) throws(StoreError) {
        try database.write { db in
            try db.execute("DELETE FROM signInFailure WHERE firstDate < \(windowStart)")
            for key in keys {
                try db.execute(
                    """
                    INSERT INTO signInFailure (key, failures, firstDate, lastDate) VALUES (\(key), 1, \(date), \(date))
                    ON CONFLICT(key) DO UPDATE SET failures = signInFailure.failures + 1, lastDate = \(date)
                    """)
            }
        }
    }

    /// Forgets the failures counted against `key` (a successful sign-in clears its name's).
    package func clearFailures(key: String) throws(StoreError) {
        try database.write { db in _ = try db.execute("DELETE FROM signInFailure WHERE key = \(key)") }
    }
}

/// What ``PeopleStore/failures(keys:since:)`` reads of one key.
package struct SignInFailures: Sendable, Hashable {
    package var count: Int
    package var last: Date
}

extension LibraryDatabase {
    /// The people of the library, their sessions and failed sign-ins (``PeopleStore``).
    package var people: PeopleStore { PeopleStore(database: self) }
}

extension PeopleStore {
    /// The members of the shared album with this UUID, by when they were added, with their
    /// role (``SharingRole``) and the date.
    package func members(ofAlbum uuid: String) throws(StoreError) -> [(person: PersonRecord, role: Int, added: Date)] {
        try database.read { db in
            try db.rows(
                """
                SELECT \(PersonColumn.selection), albumMember.role, albumMember.addedDate FROM albumMember
                JOIN person ON person.id = albumMember.personID JOIN collection ON collection.id = albumMember.albumID
                WHERE collection.uuid = \(uuid) ORDER BY albumMember.addedDate, person.id
                """
            ) { row in
                let role: Int? = row[after: PersonColumn.self, 0]
                let added: Double = row[after: PersonColumn.self, 1]
                return (PersonRecord(row: row), role ?? 0, Date(timeIntervalSince1970: added))
            }
        }
    }
}

/// A row of `partnerShare`: `ownerID` shares their photos (from `sinceDate` on) with `partnerID`.
package struct PartnerShare: Sendable, Hashable {
    package var ownerID: Int64
    package var partnerID: Int64
    package var sinceDate: Date?
    /// Whether the partner shows these photos in their own timeline.
    package var inTimeline: Bool
    package var createdDate: Date

    init(row: some ColumnReading) {
        ownerID = row[PartnerShareColumn.ownerID]
        partnerID = row[PartnerShareColumn.partnerID]
        sinceDate = row[PartnerShareColumn.sinceDate]
        inTimeline = row[PartnerShareColumn.inTimeline]
        createdDate = row[PartnerShareColumn.createdDate]
    }
}

extension PeopleStore {
    /// The shares of photos with `partnerID` (who shares with them).
    package func partnerShares(with partnerID: Int64) throws(StoreError) -> [PartnerShare] {
        try database.read { db in
            try db.rows("SELECT \(PartnerShareColumn.selection) FROM partnerShare WHERE partnerID = \(partnerID) ORDER BY ownerID") {
                PartnerShare(row: $0)
            }
        }
    }

    /// The shares `ownerID` made (whom they share with).
    package func partnerShares(by ownerID: Int64) throws(StoreError) -> [PartnerShare] {
        try database.read { db in
            try db.rows("SELECT \(PartnerShareColumn.selection) FROM partnerShare WHERE ownerID = \(ownerID) ORDER BY partnerID") {
                PartnerShare(row: $0)
            }
        }
    }

    /// Shares `ownerID`'s photos (from `since` on) with `partnerID`, or changes the date of a
    /// share made before (the partner's timeline choice stays).
    package func sharePhotos(of ownerID: Int64, with partnerID: Int64, since: Date?, date: Date) throws(StoreError) {
        guard ownerID != partnerID else { throw StoreError(.notAllowed, "A person's photos are theirs already") }
        try database.write { db in
            try db.execute(
                """
                INSERT INTO partnerShare (ownerID, partnerID, sinceDate, inTimeline, createdDate)
                VALUES (\(ownerID), \(partnerID), \(since), 0, \(date))
                ON CONFLICT (ownerID, partnerID) DO UPDATE SET sinceDate = excluded.sinceDate
                """)
            try AccessTokenStore.bumpAccessVersion(db)
        }
    }

    /// Ends a share; `false` when there was none.
    package func stopSharingPhotos(of ownerID: Int64, with partnerID: Int64) throws(StoreError) -> Bool {
        try database.write { db in
            let ended = try db.execute("DELETE FROM partnerShare WHERE ownerID = \(ownerID) AND partnerID = \(partnerID)") > 0
            if ended { try AccessTokenStore.bumpAccessVersion(db) }
            return ended
        }
    }

    /// The partner's choice: `ownerID`'s shared photos in their timeline or not; `false` when
    /// `ownerID` shares nothing with them.
    package func showInTimeline(photosOf ownerID: Int64, partner partnerID: Int64, _ show: Bool) throws(StoreError) -> Bool {
        try database.write { db in
            let changed =
                try db.execute("UPDATE partnerShare SET inTimeline = \(show) WHERE ownerID = \(ownerID) AND partnerID = \(partnerID)") > 0
            if changed { try AccessTokenStore.bumpAccessVersion(db) }
            return changed
        }
    }
}
