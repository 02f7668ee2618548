import Foundation
import HummingbirdBcrypt
import Logging
import PhotosLocking
import PhotosStore

/// A library's people, their passwords and sign-in sessions, and the counting of failed
/// sign-ins, on its store's ``PeopleStore``: what `photos user` and `photos serve` use.
/// Reached as ``PHPhotoLibrary/people``; the public people methods of ``PHPhotoLibrary`` (Linux
/// additions) forward here.
///
/// Passwords are hashed with bcrypt (hummingbird-auth's `HummingbirdBcrypt`) at
/// ``PHPhotoLibrary/Configuration/passwordHashCost``: 2^12 rounds unless a test asks for fewer.
/// A sign-in with a name nobody has checks the password against a hash made for the purpose,
/// so it takes as long as one with a wrong password.
package struct LibraryPeople: Sendable {
    let store: LibraryDatabase
    let hashCost: UInt8
    let logger: Logger

    /// The bytes bcrypt reads of a password; longer ones are refused rather than cut.
    package static let maximumPasswordBytes = 72
    /// The fewest characters a password may have.
    package static let minimumPasswordLength = 8
    /// The longest name.
    package static let maximumNameLength = 64

    /// Adds a person; the first one added owns the library and is an administrator whatever
    /// `isAdmin` says.
    package func add(named name: String, password: String, isAdmin: Bool) throws -> PHLibraryPerson {
        let name = try Self.validName(name)
        try Self.validate(password: password)
        let hash = Bcrypt.hash(password, cost: hashCost)
        let identifier = "pe_" + LibraryAccess.randomText(bytes: 8).prefix(10)
        do {
            let record = try store.people.create(identifier: identifier, name: name, isAdmin: isAdmin, passwordHash: hash, date: Date())
            return try person(record)
        } catch {
            throw PHPhotosError(error)
        }
    }

    /// Every person, in the order they were added.
    package func all() throws -> [PHLibraryPerson] {
        do {
            let owner = try store.people.ownerID()
            return try store.people.all().map { PHLibraryPerson($0, owner: owner) }
        } catch {
            throw PHPhotosError(error)
        }
    }

    /// Whether the library has people.
    package func exist() throws -> Bool {
        do { return try store.people.exist() } catch { throw PHPhotosError(error) }
    }

    /// The person with this name (in any case) or identifier (`pe_...`).
    package func person(named nameOrIdentifier: String) throws -> PHLibraryPerson? {
        try record(named: nameOrIdentifier).map(person)
    }

    /// The person with this identifier (`pe_...`).
    package func person(withIdentifier identifier: String) throws -> PHLibraryPerson? {
        do { return try store.people.person(identifier: identifier).map(person) } catch { throw PHPhotosError(error) }
    }

    /// Removes a person, their sessions and their tokens; `false` when there was none.
    @discardableResult
    package func remove(named nameOrIdentifier: String) throws -> Bool {
        guard let record = try record(named: nameOrIdentifier) else { return false }
        do {
            return try store.people.delete(identifier: record.identifier)
        } catch {
            throw PHPhotosError(error.code == .notAllowed ? .changeNotSupported : .internalError, error.message)
        }
    }

    /// Sets a person's password, ending every session of theirs but `keptSessionSecret`'s.
    package func setPassword(_ password: String, forPersonNamed nameOrIdentifier: String, keptSessionSecret: String? = nil) throws {
        try Self.validate(password: password)
        guard let record = try record(named: nameOrIdentifier) else {
            throw PHPhotosError(.identifierNotFound, "No person named '\(nameOrIdentifier.prefix(80))'")
        }
        let hash = Bcrypt.hash(password, cost: hashCost)
        do {
            try store.people.setPassword(
                personID: record.id, passwordHash: hash, date: Date(), keptSession: keptSessionSecret.map(Self.sessionHash))
        } catch {
            throw PHPhotosError(error)
        }
    }

    /// Makes a person an administrator or not (the library keeps at least one).
    package func setAdmin(_ isAdmin: Bool, forPersonNamed nameOrIdentifier: String) throws {
        guard let record = try record(named: nameOrIdentifier) else {
            throw PHPhotosError(.identifierNotFound, "No person named '\(nameOrIdentifier.prefix(80))'")
        }
        do {
            try store.people.setAdmin(personID: record.id, isAdmin)
        } catch {
            throw PHPhotosError(error.code == .notAllowed ? .changeNotSupported : .internalError, error.message)
        }
    }

    /// The person whose name and password these are, or `nil`. Takes as long for a name
    /// nobody has as for a wrong password: the password is checked against a stand-in hash of
    /// the same cost.
    package func authenticate(name: String, password: String) throws -> PHLibraryPerson? {
        guard password.utf8.count <= Self.maximumPasswordBytes, !password.utf8.contains(0) else {
            _ = Bcrypt.verify("", hash: standInHash)
            return nil
        }
        let record: PersonRecord?
        do {
            record = name.count <= Self.maximumNameLength ? try store.people.person(named: name) : nil
        } catch {
            throw PHPhotosError(error)
        }
        guard let record else {
            _ = Bcrypt.verify(password, hash: standInHash)
            return nil
        }
        guard Bcrypt.verify(password, hash: record.passwordHash) else { return nil }
        return try person(record)
    }

    /// Whether `password` is this person's.
    package func verify(password: String, of person: PHLibraryPerson) throws -> Bool {
        guard let record = try record(named: person.identifier) else { return false }
        return password.utf8.count <= Self.maximumPasswordBytes && Bcrypt.verify(password, hash: record.passwordHash)
    }

    // MARK: - Sessions

    /// Starts a session of a person (a browser signed in) and returns its secret, for a cookie:
    /// the library keeps only its SHA-256. Sessions older than `lifetime` go at the same time.
    package func createSession(for person: PHLibraryPerson, lifetime: TimeInterval) throws -> String {
        let secret = "ps_" + LibraryAccess.randomText(bytes: 32)
        let now = Date()
        do {
            guard let record = try store.people.person(identifier: person.identifier) else {
                throw PHPhotosError(.identifierNotFound, "No person '\(person.identifier)'")
            }
            try store.people.createSession(
                personID: record.id, secretHash: Self.sessionHash(secret), date: now, expiredBefore: now.addingTimeInterval(-lifetime))
        } catch let error as StoreError {
            throw PHPhotosError(error)
        }
        return secret
    }

    /// The person of the session with this secret, or `nil` (no such session, older than
    /// `lifetime`, or ended by a password change or the person's removal).
    package func person(forSessionSecret secret: String, lifetime: TimeInterval) throws -> PHLibraryPerson? {
        guard secret.hasPrefix("ps_"), secret.utf8.count < 256 else { return nil }
        do {
            return try store.people.person(sessionHash: Self.sessionHash(secret), createdAfter: Date().addingTimeInterval(-lifetime))
                .map(person)
        } catch let error as StoreError {
            throw PHPhotosError(error)
        }
    }

    /// Ends the session with this secret; `false` when there was none.
    @discardableResult
    package func endSession(secret: String) throws -> Bool {
        do { return try store.people.deleteSession(secretHash: Self.sessionHash(secret)) } catch { throw PHPhotosError(error) }
    }

    static func sessionHash(_ secret: String) -> String { ContentHash.sha256(of: Data(secret.utf8)) }

    /// What a session's state-changing requests carry (`X-CSRF-Token` in `photos serve`):
    /// the SHA-256 of the session's secret under a label of its own, so it is fixed for the
    /// session, needs no storage, and tells nothing of the secret.
    package static func csrfToken(forSession secret: String) -> String {
        ContentHash.sha256(of: Data("photos-csrf:\(secret)".utf8))
    }

    // MARK: - Failed sign-ins

    /// The failures counted against each of `keys` within `window`, and when the last was.
    package func failures(keys: [String], within window: TimeInterval) throws -> [String: (count: Int, last: Date)] {
        do {
            return try store.people.failures(keys: keys, since: Date().addingTimeInterval(-window)).mapValues { ($0.count, $0.last) }
        } catch {
            throw PHPhotosError(error)
        }
    }

    /// Counts a failed sign-in against each key, forgetting counts older than `window`.
    package func recordFailure(keys: [String], window: TimeInterval) throws {
        let now = Date()
        do { try store.people.recordFailure(keys: keys, date: now, windowStart: now.addingTimeInterval(-window)) } catch {
            throw PHPhotosError(error)
        }
    }

    /// Forgets the failures counted against `key`.
    package func clearFailures(key: String) throws {
        do { try store.people.clearFailures(key: key) } catch { throw PHPhotosError(error) }
    }

    // MARK: -

    /// Makes the stand-in hash a sign-in with an unknown name is checked against, so the first
    /// such sign-in costs what the others do (a server calls it when it starts).
    package func prepareSignIns() {
        _ = standInHash
    }

    private var standInHash: String { StandInHash.hash(cost: hashCost) }

    private func record(named nameOrIdentifier: String) throws -> PersonRecord? {
        do { return try store.people.person(nameOrIdentifier: nameOrIdentifier) } catch { throw PHPhotosError(error) }
    }

    private func person(_ record: PersonRecord) throws -> PHLibraryPerson {
        do { return PHLibraryPerson(record, owner: try store.people.ownerID()) } catch { throw PHPhotosError(error) }
    }

    /// A name as stored: trimmed, 1 to 64 characters, no control characters, not starting
    /// with `pe_` (which names identifiers).
    static func validName(_ name: String) throws -> String {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw PHPhotosError(.invalidResource, "A person needs a name") }
        guard trimmed.count <= maximumNameLength else {
            throw PHPhotosError(.invalidResource, "A name has at most \(maximumNameLength) characters, not \(trimmed.count)")
        }
        guard !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw PHPhotosError(.invalidResource, "A name can't hold control characters")
        }
        guard !trimmed.lowercased().hasPrefix("pe_") else {
            throw PHPhotosError(.invalidResource, "A name can't start with 'pe_' (identifiers do)")
        }
        return trimmed
    }

    static func validate(password: String) throws {
        guard password.count >= minimumPasswordLength else {
            throw PHPhotosError(.invalidResource, "A password needs at least \(minimumPasswordLength) characters")
        }
        guard password.utf8.count <= maximumPasswordBytes else {
            throw PHPhotosError(
                .invalidResource, "A password has at most \(maximumPasswordBytes) bytes (bcrypt reads no more), not \(password.utf8.count)")
        }
        guard !password.utf8.contains(0) else { throw PHPhotosError(.invalidResource, "A password can't hold a NUL character") }
    }
}

/// A bcrypt hash of a random password per cost, made once a process: what a sign-in with an
/// unknown name is checked against, so it costs what a wrong password costs.
private enum StandInHash {
    private static let hashes = Mutex<[UInt8: String]>([:])

    static func hash(cost: UInt8) -> String {
        if let hash = hashes.withLock({ $0[cost] }) { return hash }
        let made = Bcrypt.hash(LibraryAccess.randomText(bytes: 16), cost: cost)
        hashes.withLock { $0[cost] = made }
        return made
    }
}

extension PHLibraryPerson {
    init(_ record: PersonRecord, owner: Int64?) {
        self.init(
            identifier: record.identifier, name: record.name, isAdmin: record.isAdmin, isOwner: record.id == owner,
            creationDate: record.createdDate, passwordChangeDate: record.passwordChangedDate)
    }
}
