import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// The library's own database snapshots, putting one back for a lost database, and a
/// rebuild from the files when there is none.
@Suite("Snapshots and repair", .enabled(if: TestStore.isSQLite, "SQLite's own: the database file"))
struct RepairTests {
    static func snapshots(_ temporary: TemporaryLibrary) -> [PHLibrarySnapshot] {
        PHPhotoLibrary.snapshots(inLibraryAt: temporary.url)
    }

    static func loseDatabase(_ temporary: TemporaryLibrary, keepingEmptyFile: Bool) throws {
        let database = temporary.url.appendingPathComponent("database/Photos.sqlite")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: database.path + suffix) }
        if keepingEmptyFile { #expect(FileManager.default.createFile(atPath: database.path, contents: Data())) }
    }

    /// Moves every snapshot's date back, as if that much time had passed.
    static func age(_ temporary: TemporaryLibrary, by interval: TimeInterval) throws {
        for snapshot in snapshots(temporary) {
            let url = temporary.url.appendingPathComponent("database/snapshots/\(snapshot.name)")
            try FileManager.default.setAttributes([.modificationDate: snapshot.date.addingTimeInterval(-interval)], ofItemAtPath: url.path)
        }
    }

    @Test func aLibraryWithAssetsSnapshotsItselfWhenOpenedAndKeepsThree() throws {
        let (temporary, _) = try BackupTests.populated()
        #expect(Self.snapshots(temporary).isEmpty, "the library was empty when it was opened")
        _ = try PHPhotoLibrary(url: temporary.url)
        let first = Self.snapshots(temporary)
        #expect(first.count == 1)
        _ = try PHPhotoLibrary(url: temporary.url)
        #expect(Self.snapshots(temporary) == first, "the newest is less than 6 hours old")
        for expected in [2, 3, 3] {
            try Self.age(temporary, by: LibraryBackups.automaticSnapshotInterval + 60)
            _ = try PHPhotoLibrary(url: temporary.url)
            #expect(Self.snapshots(temporary).count == expected)
        }
        let newest = try #require(Self.snapshots(temporary).last)
        let contents = try LibraryBackups.snapshotContents(at: temporary.url.appendingPathComponent("database/snapshots/\(newest.name)"))
        #expect(contents.assets == 6 && contents.resources.count == 8)
    }

    /// Case 1 of the reliability review: a lost database comes back with one call, albums
    /// and favorites from the snapshot, the originals and edits added since from the files,
    /// and assets deleted since stay deleted.
    @Test(arguments: [false, true])
    func aLostDatabaseComesBackFromItsSnapshot(emptyFile: Bool) throws {
        let (temporary, assets) = try BackupTests.populated()
        let library = temporary.library
        try #require(try library.store.backups.takeSnapshot() != nil)
        // After the snapshot: a new photo, a new edit, an asset deleted for good.
        let photo = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("later.jpg"), width: 320, height: 240)
        var added = ""
        try library.performChangesAndWait {
            added = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photo)?.placeholderForCreatedAsset?.localIdentifier ?? ""
        }
        try BackupTests.edit(assets[3], in: library, recipe: "later")
        try BackupTests.edit(assets[1], in: library, recipe: "again")
        let doomed = try ContentEditingTests.refetched(assets[5], library)
        try library.performChangesAndWait { PHAssetChangeRequest.deleteAssetsPermanently([doomed] as NSArray) }
        let before = LibraryState(library)
        try Self.loseDatabase(temporary, keepingEmptyFile: emptyFile)

        #expect {
            try PHPhotoLibrary(url: temporary.url)
        } throws: { ($0 as? PHPhotosError)?.message.contains("photos restore --snapshot latest --library '\(temporary.url.path)'") == true }
        let report = try PHPhotoLibrary.restoreSnapshot(inLibraryAt: temporary.url)
        #expect(report.snapshot != nil && !report.rebuiltDatabase && report.notRecovered.isEmpty)
        #expect(report.movedAside.count == (emptyFile ? 1 : 0))
        #expect(report.rebuiltAssets == [added])
        #expect(Set(report.reattachedEdits) == [assets[1].localIdentifier, assets[3].localIdentifier])
        #expect(report.revertedEdits == [assets[1].localIdentifier], "its edit at the snapshot's time was replaced since")
        #expect(report.removedAssets == [doomed.localIdentifier])
        #expect(report.unusedFiles.isEmpty, "\(report.unusedFiles)")
        #expect(report.albumCount == 1)

        let restored = try PHPhotoLibrary(url: temporary.url)
        try BackupTests.expectConsistent(restored)
        let after = LibraryState(restored)
        #expect(after.albums == before.albums)
        #expect(after.assets.map(\.identifier) == before.assets.map(\.identifier))
        #expect(after.assets.filter(\.favorite).map(\.identifier) == [assets[0].localIdentifier])
        #expect(after.assets.filter(\.edited).map(\.identifier).sorted() == [assets[1].localIdentifier, assets[3].localIdentifier].sorted())
        let input = try ContentEditingTests.input(try ContentEditingTests.refetched(assets[1], restored)) { _ in true }
        #expect(input.adjustmentData?.data == Data("again".utf8))
    }

    @Test func aSnapshotDoesNotReplaceADatabaseThatIsThere() throws {
        let (temporary, _) = try BackupTests.populated()
        try #require(try temporary.library.store.backups.takeSnapshot() != nil)
        #expect {
            try PHPhotoLibrary.restoreSnapshot(inLibraryAt: temporary.url)
        } throws: { ($0 as? PHPhotosError)?.message.contains("is there") == true }
        #expect(LibraryState(try PHPhotoLibrary(url: temporary.url)).assets.count == 6)
    }

    /// No snapshot: every original comes back as the asset it was (same identifier, dates,
    /// size, place), edits come back from their adjustment data; albums can't, and it says so.
    @Test func repairRebuildsAssetsAndEditsFromTheFiles() throws {
        let (temporary, assets) = try BackupTests.populated()
        let identifier = try temporary.library.store.libraryIdentifier()
        let before = LibraryState(temporary.library)
        let locations = Dictionary(uniqueKeysWithValues: assets.map { ($0.localIdentifier, $0.location?.coordinate.latitude) })
        try Self.loseDatabase(temporary, keepingEmptyFile: false)
        #expect(Self.snapshots(temporary).isEmpty)

        let report = try PHPhotoLibrary.repairLibrary(at: temporary.url)
        #expect(report.rebuiltDatabase)
        #expect(Set(report.rebuiltAssets) == Set(assets.map(\.localIdentifier)))
        #expect(report.reattachedEdits == [assets[1].localIdentifier])
        #expect(report.unusedFiles.isEmpty, "\(report.unusedFiles)")
        #expect(report.albumCount == 0)
        #expect(report.notRecovered.contains { $0.hasPrefix("albums") })

        let library = try PHPhotoLibrary(url: temporary.url)
        try BackupTests.expectConsistent(library)
        #expect(try library.store.libraryIdentifier() == identifier)
        let after = LibraryState(library)
        #expect(after.albums.isEmpty)
        func comparable(_ asset: LibraryState.Asset) -> LibraryState.Asset {
            var asset = asset
            asset.favorite = false
            asset.hidden = false
            return asset
        }
        #expect(after.assets == before.assets.map(comparable))
        for asset in library.withCurrent({ PHAsset.fetchAssets(with: nil) }).objects(at: IndexSet(integersIn: 0..<6)) {
            #expect(asset.location?.coordinate.latitude == locations[asset.localIdentifier] ?? nil)
        }
        let input = try ContentEditingTests.input(try ContentEditingTests.refetched(assets[1], library)) { _ in true }
        #expect(input.adjustmentData?.data == Data("left-half".utf8))
    }

    @Test func repairPointsToASnapshotWhenThereIsOne() throws {
        let (temporary, _) = try BackupTests.populated()
        try #require(try temporary.library.store.backups.takeSnapshot() != nil)
        try Self.loseDatabase(temporary, keepingEmptyFile: true)
        #expect {
            try PHPhotoLibrary.repairLibrary(at: temporary.url)
        } throws: { ($0 as? PHPhotosError)?.message.contains("photos restore --snapshot latest") == true }
        #expect(FileManager.default.fileExists(atPath: temporary.url.appendingPathComponent("database/Photos.sqlite").path))
        let report = try PHPhotoLibrary.repairLibrary(at: temporary.url, ignoringSnapshots: true)
        #expect(report.rebuiltAssets.count == 6 && report.movedAside.count == 1)
        try BackupTests.expectConsistent(try PHPhotoLibrary(url: temporary.url))
    }

    /// With the database in place, repair brings back only what no row names (an original
    /// moved aside and put back) and removes nothing.
    @Test func repairOfAWholeLibraryAdoptsOnlyStrayOriginals() throws {
        let (temporary, assets) = try BackupTests.populated()
        let stray = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("stray.jpg"), width: 100, height: 80)
        let uuid = UUID().uuidString
        let path = "originals/\(uuid.prefix(1))/\(uuid).jpg"
        try FileManager.default.createDirectory(
            at: temporary.url.appendingPathComponent(path).deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: stray, to: temporary.url.appendingPathComponent(path))
        let report = try PHPhotoLibrary.repairLibrary(at: temporary.url)
        #expect(!report.rebuiltDatabase)
        #expect(report.rebuiltAssets == ["\(uuid)/L0/001"])
        #expect(report.reattachedEdits.isEmpty)
        let library = try PHPhotoLibrary(url: temporary.url)
        try BackupTests.expectConsistent(library)
        let state = LibraryState(library)
        #expect(state.assets.count == 7 && state.albums["Trip"] == [assets[0].localIdentifier, assets[1].localIdentifier])
    }
}
