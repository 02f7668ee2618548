import Foundation
import PhotosTestSupport
import Testing

@Suite("photos import")
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
}
