import Foundation
import Photos
import PhotosTestSupport
import Testing

/// `photos backup`, `photos restore` and `photos repair`, run as a user runs them.
@Suite("photos backup, restore and repair", .blocking)
struct BackupCommandTests {
    /// Eight real photos imported, an album of two, a favorite and an edit.
    static func library(function: String = #function) throws -> (TemporaryLibrary, CLIRunner, [String]) {
        let temporary = try TemporaryLibrary(function: function)
        let cli = CLIRunner(temporary)
        let imported = try cli.run(["import"] + Fixtures.kphotoalbum().prefix(8).map(\.path))
        guard imported.status == 0 else { throw CLIRunner.CLIFailure(output: imported) }
        let ids = try cli.list(["--sort", "creationDate"]).map { $0["localIdentifier"] as! String }
        for arguments in [["album", "create", "Summer"], ["album", "add", "Summer", ids[0], ids[1]], ["favorite", ids[2]], ["edit", ids[3], "--rotate", "90"]] {
            let output = try cli.run(arguments)
            guard output.status == 0 else { throw CLIRunner.CLIFailure(output: output) }
        }
        return (temporary, cli, ids)
    }

    static func summary(_ cli: CLIRunner, library: URL? = nil) throws -> [String] {
        let output = try cli.run(["ls", "--json", "--sort", "creationDate"], library: library ?? cli.library)
        guard output.status == 0 else { throw CLIRunner.CLIFailure(output: output) }
        let assets = try JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [[String: Any]] ?? []
        let albums = try cli.run(["albums"], library: library ?? cli.library).stdout
        return assets.map { "\($0["localIdentifier"] ?? "") \(($0["isFavorite"] as? Bool) == true ? "favorite" : "-") \($0["pixelWidth"] ?? "")x\($0["pixelHeight"] ?? "")" } + [albums]
    }

    @Test func aBackupComesBackAsAWholeLibrary() throws {
        let (temporary, cli, _) = try Self.library()
        let backup = temporary.folder.appendingPathComponent("backup")
        let first = try cli.run(["backup", backup.path])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("Backed up 8 assets (10 files)"), "\(first.stdout)")
        #expect(first.stdout.contains("Copied 10 new files"))
        let again = try cli.run(["backup", backup.path])
        #expect(again.stdout.contains("Copied 0 new files"), "\(again.stdout)")

        let target = temporary.folder.appendingPathComponent("restored")
        let restored = try cli.run(["restore", backup.path, "--to", target.path])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stdout.contains("8 assets, 10 files"))
        let check = try cli.run(["check", "--contents"], library: target)
        #expect(check.status == 0, "\(check.stdout)")
        #expect(try Self.summary(cli, library: target) == Self.summary(cli))
        #expect(try Self.summary(cli, library: target).last?.contains("Summer") == true)

        let refused = try cli.run(["restore", backup.path, "--to", target.path])
        #expect(refused.status != 0 && refused.stderr.contains("is not empty"))
        let noTarget = try cli.run(["restore", backup.path])
        #expect(noTarget.status != 0 && noTarget.stderr.contains("--to"))
    }

    /// `kill -9` (a process that ends at a fail point) in the middle of a backup and just
    /// before its manifest: the earlier generation restores whole, and the next run finishes
    /// and clears what the killed ones left.
    @Test(arguments: ["backup-after-first-copy", "backup-before-manifest"])
    func aKilledBackupLeavesTheEarlierOneUsable(failpoint: String) throws {
        let (temporary, cli, _) = try Self.library()
        let backup = temporary.folder.appendingPathComponent("backup")
        #expect(try cli.run(["backup", backup.path]).status == 0)
        let photo = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("new.jpg"), width: 300, height: 200)
        #expect(try cli.run(["import", photo.path]).status == 0)
        let killed = try cli.run(["backup", backup.path], environment: ["PHOTOKIT_FAILPOINT": failpoint])
        #expect(killed.status == 86)
        let generations = backup.appendingPathComponent("generations")
        #expect(try FileManager.default.contentsOfDirectory(atPath: generations.path).filter { $0.hasSuffix(".json") }.count == 1)

        let target = temporary.folder.appendingPathComponent("restored")
        let restored = try cli.run(["restore", backup.path, "--to", target.path])
        #expect(restored.stdout.contains("8 assets"), "\(restored.stdout) \(restored.stderr)")
        #expect(try cli.run(["check", "--contents"], library: target).status == 0)

        let next = try cli.run(["backup", backup.path])
        #expect(next.status == 0 && next.stdout.contains("Backed up 9 assets"), "\(next.stdout) \(next.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: backup.appendingPathComponent("tmp").path).isEmpty)
        let files = try FileManager.default.contentsOfDirectory(atPath: generations.path).sorted()
        #expect(files.count == 4, "two finished generations, nothing of the killed one: \(files)")
    }

    /// Case 1 of the reliability review, end to end: the error names the command, and that
    /// one command brings the library back.
    @Test func aLostDatabaseComesBackWithTheCommandTheErrorNames() throws {
        let (temporary, cli, ids) = try Self.library()
        // The library takes a snapshot when a command opens it, if it has none from the last 6
        // hours (`ls` above took one before the album): drop that one, so the next is taken now.
        try FileManager.default.removeItem(at: temporary.url.appendingPathComponent("database/snapshots"))
        #expect(try cli.run(["ls"]).status == 0)
        #expect(try cli.run(["restore", "--list-snapshots"]).stdout.contains("Photos-"))
        // Then more changes, which only the files record.
        let photo = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("later.jpg"), width: 300, height: 200)
        #expect(try cli.run(["import", photo.path]).status == 0)
        #expect(try cli.run(["favorite", ids[4]]).status == 0)
        let before = try Self.summary(cli)
        try FileManager.default.removeItem(at: temporary.url.appendingPathComponent("database/Photos.sqlite"))
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: temporary.url.appendingPathComponent("database/Photos.sqlite").path + suffix) }

        let refused = try cli.run(["ls"])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("photos restore --snapshot latest --library"), "\(refused.stderr)")
        let recovered = try cli.run(["restore", "--snapshot", "latest"])
        #expect(recovered.status == 0, "\(recovered.stderr)")
        #expect(recovered.stdout.contains("1 assets made again from their originals"), "\(recovered.stdout)")
        #expect(try cli.run(["check", "--contents"]).status == 0)
        let after = try Self.summary(cli)
        // Everything but the favorite set after the snapshot.
        #expect(after.count == before.count && after.last == before.last)
        #expect(after.first { $0.contains(ids[4]) }?.contains(" - ") == true)
        #expect(after.first { $0.contains(ids[2]) }?.contains("favorite") == true)
    }

    @Test func repairRebuildsFromTheFilesWhenAskedToIgnoreTheSnapshots() throws {
        let (temporary, cli, ids) = try Self.library()
        try FileManager.default.removeItem(at: temporary.url.appendingPathComponent("database/Photos.sqlite"))
        let pointed = try cli.run(["repair"])
        #expect(pointed.status != 0 && pointed.stderr.contains("photos restore --snapshot latest"), "\(pointed.stderr)")
        let repaired = try cli.run(["repair", "--ignore-snapshots"])
        #expect(repaired.status == 0, "\(repaired.stderr)")
        #expect(repaired.stdout.contains("8 assets made again from their originals, 1 edits re-attached"), "\(repaired.stdout)")
        #expect(repaired.stdout.contains("albums and folders"))
        #expect(try cli.run(["check", "--contents"]).status == 0)
        #expect(Set(try cli.list().map { $0["localIdentifier"] as! String }) == Set(ids))
    }
}
