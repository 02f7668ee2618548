import Foundation
import Photos
import PhotosTestSupport
import Testing

@Suite("photos import", .blocking)
struct ImportCommandTests {
    @Test func importsFoldersListsBadFilesAndSkipsThem() throws {
        let temporary = try TemporaryLibrary()
        let source = temporary.scratch.appendingPathComponent("card", isDirectory: true)
        let nested = source.appendingPathComponent("DCIM/100CANON", isDirectory: true)
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        for (index, photo) in try Fixtures.kphotoalbum().prefix(5).enumerated() {
            try FileManager.default.copyItem(at: photo, to: nested.appendingPathComponent("IMG_\(index).jpg"))
        }
        var movie = TestMovie()
        movie.duration = 4
        try movie.data().write(to: source.appendingPathComponent("clip.mp4"))
        let bad = source.appendingPathComponent("broken.jpg")
        try TestImages.truncated(try Data(contentsOf: Fixtures.url("sample1.jpg")), keeping: 0.4).write(to: bad)
        try Data("notes".utf8).write(to: source.appendingPathComponent("README.txt"))
        try Data("hidden".utf8).write(to: source.appendingPathComponent(".thumbs.jpg"))

        let cli = CLIRunner(temporary)
        let output = try cli.run(["import", source.path])
        #expect(output.status == 1, "a skipped file makes the exit status 1")
        #expect(output.stdout.contains("Imported 5 photos and 1 video"))
        #expect(output.stdout.contains("Skipped 1 file"))
        #expect(output.stdout.contains(bad.path))
        #expect(!output.stdout.contains("README"))

        let assets = try cli.list()
        #expect(assets.count == 6)
        #expect(assets.filter { $0["mediaType"] as? String == "video" }.count == 1)
        // KPhotoAlbum's photos keep their EXIF capture dates.
        let dates = assets.compactMap { $0["creationDate"] as? String }
        #expect(dates.contains { $0.hasPrefix("200") })
    }

    /// Issue 33: plain `photos import` refuses a JPEG whose Huffman table no decoder can build
    /// (its header reads; `photos check` used to be the first to name it), with the reason.
    @Test func aJPEGWithABogusHuffmanTableIsRefusedWithItsReason() throws {
        let temporary = try TemporaryLibrary()
        let bad = try MalformedInputs.bogusHuffmanJPEG().write(into: temporary.scratch)
        let good = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("good.jpg"), width: 64, height: 48, noisy: true)
        let cli = CLIRunner(temporary)
        let output = try cli.run(["import", bad.path, good.path])
        #expect(output.status == 1, "a skipped file makes the exit status 1")
        #expect(output.stdout.contains("Imported 1 photo"), "\(output.stdout)")
        #expect(
            output.stdout.contains("\(bad.path): is a damaged JPEG: the Huffman table DC 0 (DHT at offset 16267) is bogus"), "\(output.stdout)")
        #expect(try cli.list().count == 1)
        #expect(temporary.originalFiles().count == 1)
        let check = try cli.run(["check"])
        #expect(check.status == 0, "\(check.stdout)")
    }

    @Test func importIntoAnAlbum() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let files = try Fixtures.kphotoalbum().prefix(3).map(\.path)
        let output = try cli.run(["import", "--album", "Demo"] + files)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(try cli.list(["--album", "Demo"]).count == 3)
        let albums = try cli.run(["albums"])
        #expect(albums.stdout.contains("Demo  (3)"))
    }

    @Test func nothingToImportIsAnError() throws {
        let temporary = try TemporaryLibrary()
        let empty = temporary.scratch.appendingPathComponent("empty", isDirectory: true)
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let output = try CLIRunner(temporary).run(["import", empty.path])
        #expect(output.status != 0)
        #expect(output.stderr.contains("no photos or videos found"))
        let missing = try CLIRunner(temporary).run(["import", "/nonexistent/folder"])
        #expect(missing.stderr.contains("/nonexistent/folder: no such file or folder"))
    }

    @Test func aCrashBeforeCommitLeavesAConsistentLibrary() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let files = try Fixtures.kphotoalbum().prefix(4).map(\.path)
        // The process dies inside the transaction, after the files were renamed into originals/.
        let crashed = try cli.run(["import"] + files, environment: ["PHOTOKIT_FAILPOINT": "before-commit"])
        #expect(crashed.status == 86)
        // The next process to open the library removes the orphaned files and sees no rows.
        #expect(try cli.list().isEmpty)
        #expect(temporary.originalFiles().isEmpty)
        #expect(temporary.temporaryFiles().isEmpty)
        // And the library works.
        #expect(try cli.run(["import"] + files).status == 0)
        #expect(try cli.list().count == 4)
        #expect(temporary.originalFiles().count == 4)
    }

    @Test func importingAgainAddsNothingAndSaysSo() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let files = try Fixtures.kphotoalbum().prefix(3).map(\.path)
        #expect(try cli.run(["import"] + files).status == 0)
        let again = try cli.run(["import"] + files)
        #expect(again.status == 0, "duplicates are not errors")
        #expect(again.stdout.contains("Imported 0 photos and 0 videos"))
        #expect(again.stdout.contains("Skipped 3 duplicates (already in the library):"))
        #expect(again.stdout.contains("\(files[0]): same as "))
        #expect(try cli.list().count == 3)

        let forced = try cli.run(["import", "--allow-duplicates", "--json", files[0]])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(forced.stdout.utf8)) as? [String: Any])
        #expect(json["imported"] as? Int == 1)
        #expect(json["duplicates"] as? Int == 0)
        let items = try #require(json["items"] as? [[String: Any]])
        #expect(items.first?["outcome"] as? String == "imported")
        #expect((items.first?["localIdentifier"] as? String)?.hasSuffix("/L0/001") == true)
        #expect(try cli.list().count == 4)
    }

    /// Ctrl-C: what was read is committed, the exit status is 130, and importing again resumes.
    @Test func anInterruptedImportResumes() throws {
        let temporary = try TemporaryLibrary()
        let folder = temporary.scratch.appendingPathComponent("many", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let count = 600
        for index in 0..<count {
            try TestImages.writeJPEG(to: folder.appendingPathComponent(String(format: "IMG_%04d.JPG", index)), width: 32 + index % 97, height: 24 + index / 97)
        }
        let process = Process()
        process.executableURL = CLIRunner.executable
        process.arguments = ["import", "--json", folder.path, "--library", temporary.url.path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Interrupt once the first batch is in.
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline && process.isRunning {
            if temporary.library.withCurrent({ PHAsset.fetchAssets(with: nil).count }) > 0 { break }
            usleep(5_000)
        }
        process.interrupt()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let json = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        let imported = try #require(json["imported"] as? Int)
        let committed = temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).count }
        #expect(committed == imported, "every asset the summary lists is in the library, and no other")
        if process.terminationStatus == 130 {
            #expect(json["wasCancelled"] as? Bool == true)
            #expect(imported < count)
        } else {
            #expect(imported == count, "finished before the signal arrived")
        }
        #expect(temporary.temporaryFiles().isEmpty)

        let resumed = try CLIRunner(temporary).run(["import", "--json", folder.path])
        #expect(resumed.status == 0)
        #expect(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).count } == count)
    }

    @Test func checkReportsAMissingOriginal() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        #expect(try cli.run(["import"] + Fixtures.kphotoalbum().prefix(2).map(\.path)).status == 0)
        let clean = try cli.run(["check", "--contents"])
        #expect(clean.status == 0, "\(clean.stdout)")
        #expect(clean.stdout.contains("The library is consistent: 2 assets, 2 files (contents compared)"))
        let original = try #require(temporary.originalFiles().first)
        try FileManager.default.removeItem(at: temporary.url.appendingPathComponent("originals").appendingPathComponent(original))
        let broken = try cli.run(["check"])
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("1 problem in 2 assets"))
        #expect(broken.stdout.contains("missingFile: originals/\(original)"))
    }

    /// A folder `card` in the scratch space holding three real photos, IMG_0–2.jpg.
    static func cardOfThreePhotos(_ temporary: TemporaryLibrary) throws -> URL {
        let source = temporary.scratch.appendingPathComponent("card", isDirectory: true)
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        for (index, photo) in try Fixtures.kphotoalbum().prefix(3).enumerated() {
            try FileManager.default.copyItem(at: photo, to: source.appendingPathComponent("IMG_\(index).jpg"))
        }
        return source
    }

    @Test func jobsSetsFilesReadAtOnceAndRefusesNonsense() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let source = try Self.cardOfThreePhotos(temporary)
        let refused = try cli.run(["import", "--jobs", "0", source.path])
        #expect(refused.status != 0 && refused.stderr.contains("--jobs must be between 1 and 256, not 0"), "\(refused.stderr)")
        #expect(temporary.originalFiles().isEmpty, "nothing imported")
        let output = try cli.run(["import", "--in-place", "--jobs", "1", source.path])
        #expect(output.status == 0 && output.stdout.contains("Imported 3 photos"), "\(output.stderr)")
    }

    @Test func inPlaceLeavesTheFilesWhereTheyAre() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let source = try Self.cardOfThreePhotos(temporary)
        let output = try cli.run(["import", "--in-place", source.path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("Imported 3 photos"))
        #expect(temporary.originalFiles().isEmpty)
        #expect(try cli.run(["import", "--in-place", source.path]).stdout.contains("Skipped 3 duplicates"))
        #expect(try cli.run(["check", "--contents"]).status == 0)

        let moved = source.appendingPathComponent("IMG_0.jpg")
        try FileManager.default.moveItem(at: moved, to: temporary.scratch.appendingPathComponent("elsewhere.jpg"))
        let broken = try cli.run(["check"])
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("missingFile: referenced original \(moved.standardizedFileURL.path)"), "\(broken.stdout)")
    }
}

/// `photos import` of a file whose name is not UTF-8, named on the command line and found in
/// a folder.
@Suite("photos import of names that are not UTF-8", .blocking)
struct ByteNamedImportCommandTests {
    @Test func aNameThatIsNotUTF8IsImportedByArgumentAndByFolder() throws {
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let folder = temporary.scratch.appendingPathComponent("latin1", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let photo = try TestImages.writeJPEG(to: folder.appendingPathComponent("plain.jpg"), width: 300, height: 200)
        _ = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("other.jpg"), width: 200, height: 300)
        // The shell gives the bytes (Process arguments are UTF-8 strings): rename the files to
        // names with \xe9\xff, then import one by name and the folder of the other.
        let script = """
            set -e
            cd '\(temporary.scratch.path)'
            mv latin1/plain.jpg "latin1/$(printf 'caf\\351-\\377.jpg')"
            mv other.jpg "$(printf 'named-\\351.jpg')"
            '\(CLIRunner.executable.path)' import "$(printf 'named-\\351.jpg')" --library '\(temporary.url.path)'
            '\(CLIRunner.executable.path)' import latin1 --library '\(temporary.url.path)'
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        _ = photo
        let names = try cli.list().map { asset in
            try cli.run(["info", asset["localIdentifier"] as! String, "--json"]).stdout
                .split(separator: "\n").first { $0.contains("\"originalFilename\"") }
                .map { String($0.split(separator: "\"")[3]) } ?? ""
        }.sorted()
        #expect(names == ["caf\u{FFFD}-\u{FFFD}.jpg", "named-\u{FFFD}.jpg"], "\(names)")
    }
}
