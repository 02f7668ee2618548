import Foundation
import Photos
import PhotosTestSupport
import Testing

@Suite("photos ls, info, albums and edits", .blocking)
struct LibraryCommandsTests {
    static func library() throws -> (TemporaryLibrary, CLIRunner, [[String: Any]]) {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let output = try cli.run(["import"] + Fixtures.kphotoalbum().prefix(8).map(\.path))
        guard output.status == 0 else { throw CLIRunner.CLIFailure(output: output) }
        return (temporary, cli, try cli.list(["--sort", "creationDate"]))
    }

    static func id(_ asset: [String: Any]) -> String { asset["localIdentifier"] as! String }

    @Test func lsWithPredicateSortAndLimit() throws {
        let (_, cli, all) = try Self.library()
        #expect(all.count == 8)
        let dates = all.compactMap { $0["creationDate"] as? String }
        #expect(dates == dates.sorted())
        let newest = try cli.list(["--sort", "-creationDate", "--limit", "2"])
        #expect(try cli.list(["--sort=-creationDate", "--limit", "2"]).map(Self.id) == newest.map(Self.id))
        #expect(newest.map(Self.id) == all.reversed().prefix(2).map(Self.id))
        let wide = try cli.list(["--predicate", "pixelWidth >= 800 AND pixelHeight BETWEEN {500, 560}"])
        #expect(!wide.isEmpty && wide.count < 8)
        #expect(wide.allSatisfy { ($0["pixelWidth"] as! Int) >= 800 && (500...560).contains($0["pixelHeight"] as! Int) })
        let lines = try cli.run(["ls", "--limit", "3"]).stdout.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0].contains("/L0/001"))
    }

    @Test func badPredicatesAreExplained() throws {
        let (_, cli, _) = try Self.library()
        let malformed = try cli.run(["ls", "--predicate", "pixelWidth >> 5"])
        #expect(malformed.status != 0)
        #expect(malformed.stderr.contains("pixelWidth >> 5"))
        #expect(malformed.stderr.contains("^"))
        let unknownKey = try cli.run(["ls", "--predicate", "fileSize > 5"])
        #expect(unknownKey.status != 0)
        #expect(unknownKey.stderr.contains("'fileSize'"))
        #expect(unknownKey.stderr.contains("unsupported key"))
        let badSort = try cli.run(["ls", "--sort", "colour"])
        #expect(badSort.stderr.contains("colour"))
        let badLimit = try cli.run(["ls", "--limit", "-1"])
        #expect(badLimit.status != 0)
    }

    @Test func favoritesHiddenAndInfo() throws {
        let (temporary, cli, all) = try Self.library()
        let first = Self.id(all[0]), second = Self.id(all[1])
        let prefix = String(first.prefix(8))
        let options = PHFetchOptions()
        options.predicate = NSPredicate(format: "localIdentifier BEGINSWITH %@", prefix)
        #expect(temporary.library.withCurrent { PHAsset.fetchAssets(with: options).count } == 1, "the same lookup in-process")
        let favorited = try cli.run(["favorite", prefix])
        #expect(favorited.stdout.contains("Favorited 1 asset"), "\(favorited.stderr)")
        #expect(try cli.list(["--predicate", "isFavorite == YES"]).map(Self.id) == [first])
        #expect(try cli.run(["hide", second]).status == 0)
        #expect(try cli.list().count == 7)
        #expect(try cli.list(["--hidden"]).count == 8)
        #expect(try cli.run(["unhide", second]).status == 0)
        #expect(try cli.run(["unfavorite", first]).status == 0)
        #expect(try cli.list(["--predicate", "favorite == YES"]).isEmpty)
        let info = try cli.run(["info", prefix])
        #expect(info.status == 0)
        #expect(info.stdout.contains(first))
        #expect(info.stdout.contains("File"))
        #expect(info.stdout.contains("public.jpeg"))
        let json = try cli.run(["info", "--json", first])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        #expect((object?["resources"] as? [[String: Any]])?.first?["originalFilename"] as? String != nil)
        let unknown = try cli.run(["info", "FFFFFFFF"])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("no asset with identifier 'FFFFFFFF'"))
    }

    @Test func albumsLifecycle() throws {
        let (_, cli, all) = try Self.library()
        let created = try cli.run(["album", "create", "Summer", "--folder", "Trips"])
        #expect(created.status == 0)
        #expect(created.stdout.hasSuffix("/L0/040\n"))
        let added = try cli.run(["album", "add", "Summer", Self.id(all[0]), Self.id(all[1]), Self.id(all[2])])
        #expect(added.status == 0, "\(added.stderr) \(all.map(Self.id))")

        #expect(try cli.list(["--album", "Summer"]).count == 3)
        #expect(try cli.run(["album", "remove", "Summer", Self.id(all[1])]).status == 0)
        #expect(try cli.list(["--album", "Summer"]).map(Self.id) == [Self.id(all[0]), Self.id(all[2])])
        let tree = try cli.run(["albums"]).stdout
        #expect(tree.contains("Trips/"))
        #expect(tree.contains("  Summer  (2)"))
        #expect(try cli.run(["album", "rename", "Summer", "Summer 2005"]).status == 0)
        let smart = try cli.run(["albums", "--smart", "--json"])
        let entries = try JSONSerialization.jsonObject(with: Data(smart.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(entries.contains { $0["title"] as? String == "Recents" && $0["count"] as? Int == 8 })
        #expect(try cli.run(["album", "delete", "Summer 2005"]).status == 0)
        #expect(try cli.list().count == 8, "deleting an album keeps its photos")
        #expect(try cli.run(["album", "add", "Nope", Self.id(all[0])]).stderr.contains("no album 'Nope'"))
    }

    @Test func deleteRecoverAndDeletePermanently() throws {
        let (temporary, cli, all) = try Self.library()
        let victim = Self.id(all[3])
        #expect(try cli.run(["delete", victim]).stdout.contains("to Recently Deleted"))
        #expect(try cli.list().count == 7)
        let deleted = try cli.run(["deleted"]).stdout
        #expect(deleted.contains(victim))
        #expect(deleted.contains("gone after"))
        #expect(try cli.run(["recover", String(victim.prefix(13))]).status == 0)
        #expect(try cli.list().count == 8)
        #expect(try cli.run(["delete", "--permanently", victim]).status == 0)
        #expect(try cli.list().count == 7)
        #expect(try cli.run(["deleted"]).stdout.isEmpty)
        #expect(temporary.originalFiles().count == 7)
    }
}

@Suite("photos on a library whose database is lost", .blocking)
struct MissingDatabaseCommandTests {
    @Test func everyCommandRefusesWithTheReason() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let photo = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("a.jpg"))
        #expect(try cli.run(["import", photo.path]).status == 0)
        let database = temporary.url.appendingPathComponent("database/Photos.sqlite")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        for command in [["ls"], ["albums"], ["import", photo.path], ["serve", "--port", "0"]] {
            let output = try cli.run(command)
            #expect(output.status != 0, "\(command)")
            #expect(output.stderr.contains("database/Photos.sqlite) is missing"), "\(command): \(output.stderr)")
            #expect(output.stdout.isEmpty, "\(command): \(output.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: database.path))
    }
}

@Suite("photos check --repair", .blocking)
struct CheckRepairCommandTests {
    @Test func strayFilesAreListedThenRepaired() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let photo = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("a.jpg"))
        #expect(try cli.run(["import", photo.path]).status == 0)
        let stray = temporary.url.appendingPathComponent("renders/0/0BADC0DE-0000-4000-8000-000000000000_1.jpg")
        try FileManager.default.createDirectory(at: stray.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("left by a killed revert".utf8).write(to: stray)
        let check = try cli.run(["check"])
        #expect(check.status == 1)
        #expect(check.stdout.contains("orphanFile: renders/0/0BADC0DE-0000-4000-8000-000000000000_1.jpg belongs to no asset"), "\(check.stdout)")
        let repair = try cli.run(["check", "--repair"])
        #expect(repair.status == 0, "\(repair.stdout) \(repair.stderr)")
        #expect(repair.stdout.contains("removed 1 stray file, moved 0 stray originals"))
        #expect(repair.stdout.contains("The library is consistent"))
        #expect(!FileManager.default.fileExists(atPath: stray.path))
    }
}
