import Foundation
import Photos
import PhotosTestSupport
import Testing

/// `photos user add|list|remove|passwd`, and what people change for `photos token` and
/// `photos serve --open`. Passwords come on standard input (a terminal asks for them twice).
@Suite("photos user")
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
