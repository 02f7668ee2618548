import Foundation
import PhotosTestSupport
import Testing

/// `photos migrate`, run as a user runs it (both engines: Tests/PhotosTests' LibraryMigrationTests).
@Suite("photos migrate", .blocking)
struct MigrateCommandTests {
    @Test func aLibraryIsCopiedIntoANewFolderAndChecked() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let imported = try cli.run(["import"] + Fixtures.kphotoalbum().prefix(3).map(\.path))
        try #require(imported.status == 0, "\(imported.stderr)")
        let copy = temporary.folder.appendingPathComponent("copy", isDirectory: true)
        let output = try CLIRunner.run(["migrate", "--from", temporary.url.path, "--to", copy.path], library: nil)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("Copied 3 assets"), "\(output.stdout)")
        #expect(output.stdout.contains("3 originals checked by SHA-256"), "\(output.stdout)")
        #expect(try cli.run(["ls", "--json"], library: copy).stdout == (try cli.run(["ls", "--json"]).stdout))
    }

    @Test func aFolderWithoutALibraryIsRefusedAndNotCreated() throws {
        let temporary = try TemporaryLibrary()
        let missing = temporary.folder.appendingPathComponent("missing", isDirectory: true)
        let output = try CLIRunner.run(
            ["migrate", "--from", missing.path, "--to", temporary.folder.appendingPathComponent("copy").path], library: nil)
        #expect(output.status == 1)
        #expect(output.stderr.contains("holds no library"), "\(output.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }
}
