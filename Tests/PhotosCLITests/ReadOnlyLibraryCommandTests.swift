import Foundation
import PhotosTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A library on a read-only mount or a full disk: reading it must not need to write.
@Suite("photos on a read-only or full library", .blocking, .enabled(if: ReadOnlyFolder.isAvailable, "needs a read-only bind mount (root without CAP_SYS_ADMIN can't)"))
struct ReadOnlyLibraryCommandTests {
    /// A library made and closed by the CLI (no connection left open, as on a backup drive):
    /// two photos and an album.
    static func closedLibrary() throws -> (folder: URL, library: URL, ids: [String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("read-only-\(UUID().uuidString)", isDirectory: true)
        let library = folder.appendingPathComponent("Library.photoslibrary", isDirectory: true)
        let photos = try Fixtures.kphotoalbum().prefix(2).map(\.path)
        try #require(CLIRunner.run(["import"] + photos, library: library).status == 0)
        let ids = try #require(try JSONSerialization.jsonObject(with: Data(CLIRunner.run(["ls", "--json"], library: library).stdout.utf8)) as? [[String: Any]])
            .compactMap { $0["localIdentifier"] as? String }
        try #require(CLIRunner.run(["album", "create", "Trip"], library: library).status == 0)
        return (folder, library, ids)
    }

    /// Every file under `folder` with its size and modification time.
    static func listing(_ folder: URL) -> [String] {
        var lines: [String] = []
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.fileSizeKey, .contentModificationDateKey])
        while let url = walker?.nextObject() as? URL {
            let values = try? url.resourceValues(forKeys: [.fileSizeKey, .contentModificationDateKey])
            lines.append("\(url.path.dropFirst(folder.path.count)) \(values?.fileSize ?? -1) \(values?.contentModificationDate?.timeIntervalSince1970 ?? 0)")
        }
        return lines.sorted()
    }

    @Test func readingCommandsWorkAndChangesAreRefused() throws {
        let (folder, original, ids) = try Self.closedLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = Self.listing(original)
        let view = try ReadOnlyFolder(original)
        defer { view.restore() }
        let library = view.url

        let list = try CLIRunner.run(["ls", "--json"], library: library)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains(ids[0]) && list.stdout.contains(ids[1]))
        let albums = try CLIRunner.run(["albums"], library: library)
        #expect(albums.status == 0 && albums.stdout.contains("Trip"), "\(albums.stdout) \(albums.stderr)")
        let info = try CLIRunner.run(["info", ids[0]], library: library)
        #expect(info.status == 0, "\(info.stderr)")
        let check = try CLIRunner.run(["check", "--contents"], library: library)
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
        let thumbnail = folder.appendingPathComponent("thumb.jpg")
        let made = try CLIRunner.run(["thumbnail", ids[0], "--output", thumbnail.path], library: library)
        #expect(made.status == 0, "\(made.stderr)")

        // A change fails, saying why and what to do.
        let change = try CLIRunner.run(["album", "create", "New"], library: library)
        #expect(change.status != 0)
        #expect(change.stderr.contains("read-only"), "\(change.stderr)")
        let forced = try CLIRunner.run(["favorite", ids[0], "--read-only"], library: library)
        #expect(forced.status != 0)
        view.restore()
        #expect(Self.listing(original) == before, "opening for reading wrote to the library")
    }

    @Test func serveReadOnlyServesAndRefusesChanges() async throws {
        let (folder, original, ids) = try Self.closedLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let view = try ReadOnlyFolder(original)
        defer { view.restore() }

        let refused = try CLIRunner.run(["serve", "--open", "--port", "0"], library: view.url)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--read-only"), "\(refused.stderr)")

        let server = try ServerProcess(arguments: ["serve", "--read-only", "--open", "--port", "0", "--library", view.url.path])
        defer { server.stop() }
        let base = try #require(URL(string: "http://127.0.0.1:\(server.port)/api/"))
        let (listData, listResponse) = try await URLSession.shared.data(from: base.appendingPathComponent("assets"))
        #expect((listResponse as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: listData, as: UTF8.self).contains(String(ids[0].prefix(36))))
        let uuid = String(ids[0].prefix(36))
        var imageURL = URLComponents(url: base.appendingPathComponent("assets/\(uuid)/image"), resolvingAgainstBaseURL: false)!
        imageURL.queryItems = [URLQueryItem(name: "width", value: "200"), URLQueryItem(name: "height", value: "200")]
        let (image, imageResponse) = try await URLSession.shared.data(from: imageURL.url!)
        #expect((imageResponse as? HTTPURLResponse)?.statusCode == 200)
        #expect(image.starts(with: [0xFF, 0xD8]))
        var change = URLRequest(url: base.appendingPathComponent("changes"))
        change.httpMethod = "POST"
        change.setValue("application/json", forHTTPHeaderField: "Content-Type")
        change.httpBody = Data(#"{"operations":[{"op":"favorite","asset":"\#(uuid)","value":true}]}"#.utf8)
        let (answer, changeResponse) = try await URLSession.shared.data(for: change)
        #expect((changeResponse as? HTTPURLResponse)?.statusCode == 403, "\(String(decoding: answer, as: UTF8.self))")
        #expect(String(decoding: answer, as: UTF8.self).contains("read-only"))
    }

    @Test(.enabled(if: ReadOnlyFolder.canMountFullDisk, "needs root to mount a small tmpfs"))
    func aFullDiskStillReads() throws {
        let (folder, original, ids) = try Self.closedLibrary()
        defer { try? FileManager.default.removeItem(at: folder) }
        let disk = try FullDisk(bytes: 8 << 20)
        defer { disk.unmount() }
        try ExternalTool.run("/bin/cp", ["-a", original.path, disk.url.path])
        let library = disk.url.appendingPathComponent(original.lastPathComponent)
        disk.fill()

        let list = try CLIRunner.run(["ls", "--json"], library: library)
        #expect(list.status == 0, "\(list.stderr)")
        #expect(list.stdout.contains(ids[0]) && list.stdout.contains(ids[1]))
        let check = try CLIRunner.run(["check", "--contents"], library: library)
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
        // A change fits in the pages the database has free, or fails with a message; either
        // way nothing is lost.
        let change = try CLIRunner.run(["album", "create", "New"], library: library)
        let albums = try CLIRunner.run(["albums"], library: library).stdout
        if change.status == 0 {
            #expect(albums.contains("New"))
        } else {
            #expect(!change.stderr.isEmpty && !albums.contains("New"))
        }
        #expect(albums.contains("Trip"))
        #expect(try CLIRunner.run(["ls", "--json"], library: library).stdout.contains(ids[1]))
        #expect(try CLIRunner.run(["check"], library: library).status == 0)
    }
}
