import Foundation
import Photos
import PhotosStore
import PhotosTestSupport
import Testing

/// A household's people (`PHLibraryPerson`): names, bcrypt passwords, the owner, sessions, and
/// what their removal and a new password end. On both engines (the PostgreSQL pass runs it too).
@Suite("People")
struct PeopleTests {
    static func library(function: String = #function) throws -> TemporaryLibrary {
        var configuration = PHPhotoLibrary.Configuration()
        configuration.passwordHashCost = 4
        return try TemporaryLibrary(configuration: configuration, function: function)
    }

    @Test func theFirstPersonOwnsTheLibraryAndItsTokens() throws {
        let temporary = try Self.library()
        let library = temporary.library
        let (before, _) = try library.createAccessToken(named: "frame", level: .readWrite)
        #expect(before.personIdentifier == nil)
        #expect(try library.libraryPeople().isEmpty)

        let ana = try library.addPerson(named: "  Ana ", password: "correct horse")
        #expect(ana.name == "Ana" && ana.isOwner && ana.isAdmin && ana.identifier.hasPrefix("pe_"))
        let ben = try library.addPerson(named: "Ben", password: "battery staple")
        #expect(!ben.isOwner && !ben.isAdmin)
        #expect(try library.libraryPeople().map(\.name) == ["Ana", "Ben"])
        // The token made before the library had people became the owner's; new ones are the
        // owner's unless another person is named.
        #expect(try library.accessToken(withIdentifier: before.identifier)?.personIdentifier == ana.identifier)
        #expect(try library.createAccessToken(named: "owner's", level: .limited).token.personIdentifier == ana.identifier)
        #expect(try library.createAccessToken(named: "ben's", level: .readWrite, person: "ben").token.personIdentifier == ben.identifier)
        #expect(throws: PHPhotosError.self) { try library.createAccessToken(named: "nobody's", level: .readWrite, person: "Cy") }
    }

    @Test func namesAreUniqueWithoutRegardToCaseAndPasswordsFollowTheRules() throws {
        let library = try Self.library().library
        try library.addPerson(named: "Ana", password: "correct horse")
        #expect(throws: PHPhotosError.self) { try library.addPerson(named: "ANA", password: "another one") }
        for (name, password, reason) in [
            ("", "long enough", "needs a name"), ("Cy", "short", "at least 8"),
            ("Cy", String(repeating: "é", count: 37), "at most 72 bytes"), ("pe_cy", "long enough", "start with 'pe_'"),
            ("C\u{7}y", "long enough", "control characters"), (String(repeating: "x", count: 65), "long enough", "at most 64"),
        ] {
            let error = try #require(throws: PHPhotosError.self) { try library.addPerson(named: name, password: password) }
            #expect(error.code == .invalidResource)
            #expect(error.localizedDescription.contains(reason), "\(error.localizedDescription)")
        }
        #expect(try library.libraryPeople().count == 1)
    }

    /// Every secret the library is given or makes (a person's password, a session's and a
    /// token's secret, a link's secret and its password) is nowhere in any column of any
    /// table: each is kept as a hash.
    @Test func noSecretIsKeptInTheClear() throws {
        let temporary = try Self.library()
        let library = temporary.library
        let ana = try library.addPerson(named: "Ana", password: "ana's password 1")
        let session = try library.people.createSession(for: ana, lifetime: 3600)
        let token = try library.createAccessToken(named: "phone", level: .readWrite).secret
        try library.performChangesAndWait {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, data: try! TestImages.jpeg(), options: nil)
        }
        let assets = library.withCurrent { PHAsset.fetchAssets(with: nil).map { $0 } }
        let link = try library.library(forPerson: "Ana").createShareLink(assets: assets, title: "Trip", password: "link password 1").secret
        let secrets = ["ana's password 1", session, token, link, "link password 1"]
        #expect(secrets.allSatisfy { $0.count >= 8 })
        var rows = 0
        for table in LibrarySchema.tables {
            let everything = table.columns.map { "COALESCE(CAST(\($0.name) AS TEXT), '')" }.joined(separator: " || '|' || ")
            for row in try temporary.texts("SELECT \(unescaped: everything) FROM \(unescaped: table.name)") {
                rows += 1
                for secret in secrets { #expect(!row.contains(secret), "\(table.name) holds a secret in the clear: \(row)") }
            }
        }
        #expect(rows > 10, "\(rows) rows read")
    }

    @Test func passwordsAreCheckedAndKeptOnlyAsBcryptHashes() throws {
        let temporary = try Self.library()
        let library = temporary.library
        try library.addPerson(named: "Ana", password: "correct horse")
        #expect(try library.authenticatePerson(named: "ana", password: "correct horse")?.name == "Ana")
        #expect(try library.authenticatePerson(named: "Ana", password: "correct horsE") == nil)
        #expect(try library.authenticatePerson(named: "Nobody", password: "correct horse") == nil)
        let stored = try temporary.texts("SELECT passwordHash FROM person")
        #expect(stored.count == 1 && stored[0].hasPrefix("$2b$04$") && stored[0].count == 60, "\(stored)")
        #expect(!stored[0].contains("correct horse"))
    }

    @Test func aNewPasswordEndsTheOtherSessions() throws {
        let library = try Self.library().library
        let ana = try library.addPerson(named: "Ana", password: "correct horse")
        let kept = try library.people.createSession(for: ana, lifetime: 3600)
        let other = try library.people.createSession(for: ana, lifetime: 3600)
        #expect(try library.people.person(forSessionSecret: other, lifetime: 3600)?.identifier == ana.identifier)
        try library.people.setPassword("new password", forPersonNamed: "Ana", keptSessionSecret: kept)
        #expect(try library.people.person(forSessionSecret: kept, lifetime: 3600) != nil)
        #expect(try library.people.person(forSessionSecret: other, lifetime: 3600) == nil)
        #expect(try library.authenticatePerson(named: "Ana", password: "correct horse") == nil)
        #expect(try library.authenticatePerson(named: "Ana", password: "new password") != nil)
        // From the command line (no session kept): every session ends.
        try library.setPassword("third password", forPersonNamed: "Ana")
        #expect(try library.people.person(forSessionSecret: kept, lifetime: 3600) == nil)
    }

    @Test func removingAPersonEndsTheirSessionsAndTokensButTheOwnerStays() throws {
        let library = try Self.library().library
        try library.addPerson(named: "Ana", password: "correct horse")
        let ben = try library.addPerson(named: "Ben", password: "battery staple")
        let session = try library.people.createSession(for: ben, lifetime: 3600)
        let (token, secret) = try library.createAccessToken(named: "ben's", level: .readWrite, person: "Ben")
        let error = try #require(throws: PHPhotosError.self) { try library.removePerson(named: "ana") }
        #expect(error.code == .changeNotSupported)
        #expect(try library.removePerson(named: ben.identifier))
        #expect(try !library.removePerson(named: "Ben"))
        #expect(try library.people.person(forSessionSecret: session, lifetime: 3600) == nil)
        #expect(try library.accessToken(withIdentifier: token.identifier) == nil)
        #expect(try library.authenticateAccessToken(secret: secret) == nil)
        #expect(try library.libraryPeople().map(\.name) == ["Ana"])
    }

    @Test func failedSignInsAreCountedPerKeyWithinTheirWindow() throws {
        let people = try Self.library().library.people
        try people.recordFailure(keys: ["name:ana", "address:10.0.0.1"], window: 900)
        try people.recordFailure(keys: ["name:ana"], window: 900)
        let counts = try people.failures(keys: ["name:ana", "address:10.0.0.1", "name:ben"], within: 900)
        #expect(counts["name:ana"]?.count == 2 && counts["address:10.0.0.1"]?.count == 1 && counts["name:ben"] == nil)
        try people.clearFailures(key: "name:ana")
        #expect(try people.failures(keys: ["name:ana"], within: 900).isEmpty)
        // Counts older than the window are forgotten.
        #expect(try people.failures(keys: ["address:10.0.0.1"], within: -1).isEmpty)
    }
}
