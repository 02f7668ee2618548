import Foundation
import Photos
import PhotosTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The asset and collection JSON of the CLI's `--json` output and of the API, byte for byte as
/// recorded in `AssetJSONOutputs/` (one file per output): the README documents the first, the
/// OpenAPI description and the gallery read the second, and the two are written from one
/// shared description of an asset, which must change neither.
///
/// The library is made to print the same every run: seeded assets with fixed identifiers and
/// dates (a favorite with a place, a hidden Live Photo in a burst, a video with a fractional
/// creation second, one without a date in Recently Deleted), a photo imported and edited through
/// the CLI (its files, camera and edit version), albums and a folder. What still varies is
/// replaced before comparing: identifiers the library makes (`UUID-1`, `UUID-2`, … in order of
/// appearance), dates from the run (`NOW`) and the edit's version (`e-NOW`).
/// `PHOTOKIT_RECORD_JSON_OUTPUTS=1` writes the files again from what the run printed.
@Suite("The CLI's and the API's asset JSON, byte for byte", .blocking)
struct AssetJSONOutputTests {
    static let expected = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("AssetJSONOutputs", isDirectory: true)

    static let seededUUIDs = (1...4).map { String(format: "5EED0000-0000-4000-8000-%012d", $0) }

    @Test func outputsAreWhatTheyWere() async throws {
        let started = Date()
        let temporary = try TemporaryLibrary()
        let cli = CLIRunner(temporary)
        let (favorite, live, video, trashed) = try Self.seed(temporary)

        let photo = temporary.scratch.appendingPathComponent("IMG_0001.JPG")
        var exif = ExifBuilder()
        exif.dateTimeOriginal = "2021:06:01 09:30:15"
        exif.offsetTimeOriginal = "+02:00"
        exif.make = "Fixture"
        exif.model = "Camera One"
        exif.lensModel = "Lens 35mm"
        _ = try TestImages.writeJPEG(to: photo, width: 320, height: 240, exif: exif)
        try #require(try cli.run(["import", photo.path]).status == 0)
        let imported = try #require(try cli.list(["--hidden"]).map(LibraryCommandsTests.id).first { !Self.seededUUIDs.contains(String($0.prefix(36))) })
        try #require(try cli.run(["edit", imported, "--rotate", "90"]).status == 0)
        // Every photo read for text first, so the server's background reading can't change the
        // detail JSON (no `text` until read, then the words) between one run and another.
        let read = try cli.run(["cache", "warm", "--text"])
        try #require(read.stdout.contains("Text: 1 photo read"), "\(read.stdout)\(read.stderr)")

        let seeded = temporary.library.withCurrent {
            let options = PHFetchOptions()
            options.includeHiddenAssets = true
            return PHAsset.fetchAssets(withLocalIdentifiers: [favorite, live, video], options: options)
        }
        let asset = { identifier in seeded.objects(at: IndexSet(integersIn: 0..<seeded.count)).first { $0.localIdentifier == identifier }! }
        var trip = ""
        try temporary.library.performChangesAndWait {
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
            album.addAssets([asset(favorite), asset(video)] as NSArray)
            trip = album.placeholderForCreatedAssetCollection.localIdentifier
            let year = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "2020")
            year.addAssets([asset(live)] as NSArray)
            PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Years")
                .addChildCollections([year.placeholderForCreatedAssetCollection] as NSArray)
        }

        var outputs: [(name: String, text: String)] = []
        func printed(_ name: String, _ arguments: [String]) throws {
            let output = try cli.run(arguments)
            guard output.status == 0 else { throw CLIRunner.CLIFailure(output: output) }
            outputs.append(("cli-\(name).json", output.stdout))
        }
        try printed("ls", ["ls", "--json", "--hidden", "--sort", "creationDate"])
        try printed("info", ["info", "--json", imported])
        try printed("info-seeded", ["info", "--json", favorite])
        try printed("deleted", ["deleted", "--json"])
        try printed("albums", ["albums", "--json", "--smart"])

        let server = try ServerProcess(arguments: ["serve", "--open", "--port", "0", "--library", temporary.url.path])
        defer { server.stop() }
        func served(_ name: String, _ path: String) async throws {
            let url = try #require(URL(string: "http://127.0.0.1:\(server.port)\(path)"))
            let (data, response) = try await URLSession.shared.data(from: url)
            try #require((response as? HTTPURLResponse)?.statusCode == 200, "\(path)")
            outputs.append(("api-\(name).json", String(decoding: data, as: UTF8.self)))
        }
        try await served("assets", "/api/assets?hidden=1&sort=creationDate")
        try await served("assets-deleted", "/api/assets?deleted=1")
        try await served("asset-imported", "/api/assets/\(imported.prefix(36))")
        try await served("asset-favorite", "/api/assets/\(favorite.prefix(36))")
        try await served("asset-live", "/api/assets/\(live.prefix(36))")
        try await served("asset-trashed", "/api/assets/\(trashed.prefix(36))")
        for kind in ["album", "smartAlbum", "moment", "folder"] {
            try await served("collections-\(kind)", "/api/collections?type=\(kind)")
        }
        try await served("collection", "/api/collections/\(trip.prefix(36))")

        let texts = Self.normalized(outputs, during: started...Date())
        if ProcessInfo.processInfo.environment["PHOTOKIT_RECORD_JSON_OUTPUTS"] == "1" {
            try FileManager.default.createDirectory(at: Self.expected, withIntermediateDirectories: true)
            for (name, text) in texts { try Data(text.utf8).write(to: Self.expected.appendingPathComponent(name)) }
        }
        for (name, text) in texts {
            let recorded = try String(contentsOf: Self.expected.appendingPathComponent(name), encoding: .utf8)
            #expect(text == recorded, "\(name) differs from AssetJSONOutputs/\(name):\n\(text)")
        }
    }

    /// Four assets with fixed identifiers and dates; returns their local identifiers.
    static func seed(_ temporary: TemporaryLibrary) throws -> (String, String, String, String) {
        let day: TimeInterval = 86_400
        let base = Date(timeIntervalSince1970: 1_600_000_000)
        var favorite = SyntheticAsset(mediaType: .image, creationDate: base, isFavorite: true)
        favorite.latitude = 48.8584
        favorite.longitude = 2.2945
        var live = SyntheticAsset(mediaType: .image, mediaSubtypes: [.photoLive], creationDate: base + day, isHidden: true)
        live.pixelWidth = 3024
        live.pixelHeight = 4032
        live.burstIdentifier = "BURST-0001"
        live.representsBurst = true
        var video = SyntheticAsset(mediaType: .video, creationDate: base + 2 * day + 0.75)
        video.pixelWidth = 1920
        video.pixelHeight = 1080
        video.duration = 12.5
        let trashed = SyntheticAsset(mediaType: .image, creationDate: nil)
        var assets = [favorite, live, video, trashed]
        for index in assets.indices {
            assets[index].uuid = seededUUIDs[index]
            assets[index].addedDate = base + 10 * day + Double(index)
        }
        let identifiers = try temporary.seed(assets, now: base + 10 * day)
        // Deleted in 2100: the library's 30-day expiry, run whenever it opens, never removes it.
        let deleted = Date(timeIntervalSince1970: 4_102_444_800.25)
        try temporary.execute("UPDATE asset SET trashedDate = \(deleted) WHERE uuid = \(assets[3].uuid)")
        return (identifiers[0], identifiers[1], identifiers[2], identifiers[3])
    }

    /// The outputs with what varies between runs replaced: identifiers the library made, the
    /// run's dates, the edit's version.
    static func normalized(_ outputs: [(name: String, text: String)], during run: ClosedRange<Date>) -> [(String, String)] {
        var names: [String: String] = [:]
        let uuid = #/[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}/#
        let date = #/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z/#
        let version = #/"e\d+"/#
        return outputs.map { output in
            var text = output.text.replacing(uuid) { match in
                let found = String(match.output).uppercased()
                if seededUUIDs.contains(found) { return String(match.output) }
                if let name = names[found] { return name }
                names[found] = "UUID-\(names.count + 1)"
                return names[found]!
            }
            text = text.replacing(date) { match in
                // Whole seconds: the run's first may be written as the second before it began.
                guard let parsed = try? Date(String(match.output), strategy: .iso8601),
                    run.lowerBound.addingTimeInterval(-1) <= parsed, parsed <= run.upperBound
                else {
                    return String(match.output)
                }
                return "NOW"
            }
            text = text.replacing(version) { _ in #""e-NOW""# }
            return (output.name, text)
        }
    }
}
