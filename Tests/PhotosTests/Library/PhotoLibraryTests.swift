import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

@Suite("The library on disk")
struct PhotoLibraryTests {
    @Test func createsTheLayoutOnFirstUse() throws {
        // Given
        let temporary = try TemporaryLibrary()
        // Then
        for folder in ["database", "originals", "derivatives", "renders", "tmp"] {
            var isDirectory: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: temporary.url.appendingPathComponent(folder).path, isDirectory: &isDirectory))
            #expect(isDirectory.boolValue, "\(folder) is a folder")
        }
        #expect(FileManager.default.fileExists(atPath: temporary.url.appendingPathComponent("database/Photos.sqlite").path) == TestStore.isSQLite)
    }

    @Test(.enabled(if: TestStore.isSQLite, "SQLite's own: the database file")) func databaseIsInWALMode() throws {
        let temporary = try TemporaryLibrary()
        let mode = try sqlite(temporary.url.appendingPathComponent("database/Photos.sqlite"), "PRAGMA journal_mode;")
        #expect(mode == "wal")
    }

    @Test func defaultLocationFollowsPHOTOS_LIBRARYThenXDG() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("xdg-\(UUID().uuidString)")
        let explicit = try runSelf(environment: ["PHOTOS_LIBRARY": "/srv/photos/Family", "XDG_DATA_HOME": home.path])
        #expect(explicit == "/srv/photos/Family")
        let xdg = try runSelf(environment: ["XDG_DATA_HOME": home.path])
        #expect(xdg == home.path + "/photos/Library.photoslibrary")
        let fallback = try runSelf(environment: [:])
        #expect(fallback == NSHomeDirectory() + "/.local/share/photos/Library.photoslibrary")
    }

    @Test(.enabled(if: TestStore.isSQLite, "SQLite's own: the database file")) func refusesALibraryFromANewerSchema() throws {
        // Given a library whose database has a migration this version doesn't know
        let temporary = try TemporaryLibrary()
        let database = temporary.url.appendingPathComponent("database/Photos.sqlite")
        _ = try sqlite(database, "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future');")
        // When / Then
        let error = #expect(throws: PHPhotosError.self) { try PHPhotoLibrary(url: temporary.url) }
        #expect(error?.message.contains("newer version") == true)
        #expect(error?.message.contains("v99-from-the-future") == true)
        #expect(error?.message.contains(temporary.url.lastPathComponent) == true)
    }

    @Test func severalLibrariesInOneProcess() throws {
        let first = try TemporaryLibrary()
        let second = try TemporaryLibrary()
        try first.seed([SyntheticAsset(), SyntheticAsset()])
        try second.seed([SyntheticAsset()])
        #expect(first.library.withCurrent { PHAsset.fetchAssets(with: nil).count } == 2)
        #expect(second.library.withCurrent { PHAsset.fetchAssets(with: nil).count } == 1)
    }

    @Test func twoHandlesOnOneFolderSeeEachOthersWrites() throws {
        let temporary = try TemporaryLibrary()
        let other = try temporary.openAgain()
        try temporary.library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Shared")
        }
        let titles = other.withCurrent {
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).map(\.localizedTitle)
        }
        #expect(titles == ["Shared"])
    }

    @Test func authorizationIsAlwaysGranted() async {
        #expect(PHPhotoLibrary.authorizationStatus(for: .readWrite) == .authorized)
        #expect(await PHPhotoLibrary.requestAuthorization(for: .addOnly) == .authorized)
    }
}

/// Runs `sqlite3` on a database file and returns its trimmed output.
func sqlite(_ database: URL, _ sql: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
    process.arguments = [database.path, sql]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    process.waitUntilExit()
    return String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
}

private func runSelf(environment: [String: String]) throws -> String {
    PHPhotoLibrary.defaultLibraryURL(in: environment).path
}
