import Foundation
import Photos
import PhotosTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `photos user add|list|remove|passwd`, and what people change for `photos token` and
/// `photos serve --open`. Passwords come on standard input (a terminal asks for them twice).
@Suite("photos user", .blocking)
struct UserCommandTests {
    @Test func peopleAreAddedListedGivenPasswordsAndRemoved() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let token = try cli.run(["token", "create", "--level", "read-write", "--name", "frame", "--quiet"])
        #expect(token.status == 0)

        let ana = try cli.run(["user", "add", "Ana"], input: "correct horse\n")
        #expect(ana.status == 0, "\(ana.stderr)")
        #expect(ana.stdout.contains("Ana") && ana.stdout.contains("owner of the library") && ana.stdout.contains("administrator"))
        #expect(try cli.run(["user", "add", "ben"], input: "battery staple\n").status == 0)
        let again = try cli.run(["user", "add", "BEN"], input: "another password\n")
        #expect(again.status != 0 && again.stderr.contains("already a person named"), "\(again.stderr)")
        let short = try cli.run(["user", "add", "Cy"], input: "short\n")
        #expect(short.status != 0 && short.stderr.contains("at least 8"), "\(short.stderr)")
        let empty = try cli.run(["user", "add", "Cy"], input: "")
        #expect(empty.status != 0 && empty.stderr.contains("no password"), "\(empty.stderr)")

        let list = try cli.run(["user", "list"]).stdout.split(separator: "\n")
        #expect(list.count == 2 && list[0].contains("Ana") && list[0].contains("owner,admin") && list[1].contains("ben"), "\(list)")
        #expect(!list.joined().contains("$2b$"), "no hashes listed")
        // The token made before the library had people is the owner's; a new one can be Ben's.
        #expect(try cli.run(["token", "list"]).stdout.contains("of Ana"))
        #expect(try cli.run(["token", "create", "--level", "limited", "--name", "ben's", "--user", "ben"]).status == 0)
        #expect(try cli.run(["token", "list"]).stdout.contains("of ben"))

        #expect(try cli.run(["user", "passwd", "ben"], input: "new password\n").status == 0)
        let library = try temporary.openAgain()
        #expect(try library.authenticatePerson(named: "ben", password: "new password") != nil)
        #expect(try library.authenticatePerson(named: "ben", password: "battery staple") == nil)

        let owner = try cli.run(["user", "remove", "ana"])
        #expect(owner.status != 0 && owner.stderr.contains("owns the library"), "\(owner.stderr)")
        #expect(try cli.run(["user", "remove", "ben"]).status == 0)
        #expect(try cli.run(["user", "remove", "ben"]).status != 0)
        #expect(try !cli.run(["token", "list"]).stdout.contains("ben's"), "Ben's token went with him")
    }

    @Test func aLibraryWithPeopleIsNeverServedOpen() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        #expect(try cli.run(["user", "add", "Ana"], input: "correct horse\n").status == 0)
        let open = try cli.run(["serve", "--open", "--port", "0"])
        #expect(open.status != 0 && open.stderr.contains("has people"), "\(open.stderr)")
    }
}

/// `--as PERSON`: a command acting in a person's own library; `photos serve` of a library with
/// people serves its owner's.
@Suite("photos --as", .blocking)
struct ActingAsPersonTests {
    @Test func importsAreTheImportersAndEachSeesTheirOwn() async throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let photos = try Fixtures.kphotoalbum()
        try #require(photos.count >= 2)
        #expect(try cli.run(["import", photos[0].path]).status == 0)
        let token = try cli.run(["token", "create", "--level", "read-write", "--quiet"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(try cli.run(["user", "add", "Ana"], input: "correct horse\n").status == 0)
        #expect(try cli.run(["user", "add", "Ben"], input: "battery staple\n").status == 0)
        let imported = try cli.run(["import", "--as", "ben", photos[1].path])
        #expect(imported.status == 0, "\(imported.stderr)")
        // The same file again, as Ana: hers is no duplicate of Ben's.
        let anas = try cli.run(["import", "--as", "Ana", photos[1].path, "--json"])
        let summary = try JSONSerialization.jsonObject(with: Data(anas.stdout.utf8)) as? [String: Any]
        #expect(summary?["imported"] as? Int == 1 && summary?["duplicates"] as? Int == 0, "\(anas.stdout)")
        func count(_ arguments: [String]) throws -> Int {
            let listing = try cli.run(["ls", "--json"] + arguments)
            let assets = try JSONSerialization.jsonObject(with: Data(listing.stdout.utf8)) as? [[String: Any]]
            return assets?.count ?? -1
        }
        #expect(try count(["--as", "ben"]) == 1)
        #expect(try count(["--as", "ana"]) == 2)
        #expect(try count([]) == 3)
        let nobody = try cli.run(["ls", "--as", "Cy"])
        #expect(nobody.status != 0 && nobody.stderr.contains("No person named 'Cy'"), "\(nobody.stderr)")

        // The server shows the owner's library to the owner's token: not Ben's photo.
        let server = try ServerProcess(arguments: ["serve", "--port", "0", "--library", temporary.url.path])
        defer { server.stop() }
        var request = URLRequest(url: try #require(URL(string: "http://127.0.0.1:\(server.port)/api/assets")))
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await URLSession.shared.data(for: request)
        let page = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(page["count"] as? Int == 2)
    }
}
