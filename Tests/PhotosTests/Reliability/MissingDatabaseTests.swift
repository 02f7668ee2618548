import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// A library folder whose database is lost must never open as a new, empty library.
@Suite("A lost database", .enabled(if: TestStore.isSQLite, "SQLite's own: the database file"))
struct MissingDatabaseTests {
    /// A library with one photo, then its database files removed or emptied.
    static func damagedLibrary(emptyInsteadOfMissing: Bool) throws -> TemporaryLibrary {
        let temporary = try TemporaryLibrary()
        let photo = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("a.jpg"))
        try temporary.library.performChangesAndWait { _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photo) }
        let database = temporary.url.appendingPathComponent("database/Photos.sqlite")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        if emptyInsteadOfMissing { #expect(FileManager.default.createFile(atPath: database.path, contents: Data())) }
        return temporary
    }

    @Test(arguments: [false, true])
    func openingRefusesWithHowToRecoverAndChangesNothing(empty: Bool) throws {
        let temporary = try Self.damagedLibrary(emptyInsteadOfMissing: empty)
        let database = temporary.url.appendingPathComponent("database/Photos.sqlite")
        do {
            _ = try PHPhotoLibrary(url: temporary.url)
            Issue.record("a library without its database opened")
        } catch let error as PHPhotosError {
            #expect(error.code == .libraryVolumeOffline)
            #expect(error.message.contains(empty ? "is empty" : "is missing"))
            #expect(error.message.contains("1 originals") && error.message.contains("library identifier"))
            #expect(error.message.contains("photos repair --library '\(temporary.url.path)'"), "no snapshot: a rebuild from the files")
            #expect(error.message.contains("photos restore BACKUP --to"))
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: database.path)[.size] as? NSNumber)?.intValue
        #expect(size == (empty ? 0 : nil), "no new database was written")
    }

    @Test func anIdentifierAloneIsEnoughToRefuse() throws {
        let temporary = try TemporaryLibrary()
        let identifier = try String(contentsOf: temporary.url.appendingPathComponent("library-identifier"), encoding: .utf8)
        #expect(UUID(uuidString: identifier.trimmingCharacters(in: .whitespacesAndNewlines)) != nil)
        let database = temporary.url.appendingPathComponent("database/Photos.sqlite")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        #expect(throws: PHPhotosError.self) { try PHPhotoLibrary(url: temporary.url) }
    }

    @Test func aNewOrEmptyFolderStillOpens() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fresh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try PHPhotoLibrary(url: folder)
        #expect(library.withCurrent { PHAsset.fetchAssets(with: nil).count } == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("library-identifier").path))
    }
}
