import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// What a library holds, as PhotoKit shows it: compared before a backup and after a restore.
struct LibraryState: Equatable, CustomStringConvertible {
    struct Asset: Equatable {
        var identifier: String
        var favorite: Bool
        var hidden: Bool
        var edited: Bool
        var width: Int
        var height: Int
        /// Milliseconds since 1970 (a file's time round-trips in microseconds).
        var created: Double?
    }

    var assets: [Asset]
    /// Album title → its assets' local identifiers, in order.
    var albums: [String: [String]]

    init(_ library: PHPhotoLibrary) {
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        assets = library.withCurrent {
            let all = PHAsset.fetchAssets(with: options)
            return all.objects(at: IndexSet(integersIn: 0..<all.count)).sorted { $0.localIdentifier < $1.localIdentifier }
        }.map {
            Asset(
                identifier: $0.localIdentifier, favorite: $0.isFavorite, hidden: $0.isHidden, edited: $0.hasAdjustments,
                width: $0.pixelWidth, height: $0.pixelHeight, created: $0.creationDate.map { ($0.timeIntervalSince1970 * 1000).rounded() })
        }
        var albums: [String: [String]] = [:]
        library.withCurrent {
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: nil).enumerateObjects { album, _, _ in
                let members = PHAsset.fetchAssets(in: album, options: nil)
                albums[album.localizedTitle ?? ""] = members.objects(at: IndexSet(integersIn: 0..<members.count)).map(\.localIdentifier)
            }
        }
        self.albums = albums
    }

    var description: String { "\(assets.count) assets, albums \(albums)" }
}

/// `PHPhotoLibrary.backup(to:)` and `restoreBackup(from:to:)` on real photos.
@Suite("Backups", .enabled(if: TestStore.isSQLite, "SQLite's own: the database file"))
struct BackupTests {
    /// Six real photos, an album of two, a favorite and an edit.
    static func populated(function: String = #function) throws -> (TemporaryLibrary, [PHAsset]) {
        let temporary = try TemporaryLibrary(function: function)
        let library = temporary.library
        let report = PHAssetImporter(library: library).importFiles(at: Array(try Fixtures.kphotoalbum().prefix(6)))
        try #require(report.imported.count == 6)
        let assets = library.withCurrent {
            let all = PHAsset.fetchAssets(with: nil)
            return all.objects(at: IndexSet(integersIn: 0..<all.count))
        }
        try library.performChangesAndWait {
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
            album.addAssets([assets[0], assets[1]] as NSArray)
            PHAssetChangeRequest(for: assets[0]).isFavorite = true
            PHAssetChangeRequest(for: assets[2]).isHidden = true
        }
        try edit(assets[1], in: library)
        return (temporary, assets)
    }

    static func edit(_ asset: PHAsset, in library: PHPhotoLibrary, recipe: String = "left-half") throws {
        let current = try ContentEditingTests.refetched(asset, library)
        let output = try ContentEditingTests.leftHalf(of: try ContentEditingTests.input(current), recipe: recipe)
        try library.performChangesAndWait { PHAssetChangeRequest(for: current).contentEditingOutput = output }
    }

    static func folder(_ temporary: TemporaryLibrary, _ name: String) -> URL {
        temporary.folder.appendingPathComponent(name, isDirectory: true)
    }

    static func expectConsistent(_ library: PHPhotoLibrary, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let check = try library.checkConsistency(verifyingContents: true)
        #expect(check.isConsistent, "\(check.problems)", sourceLocation: sourceLocation)
        #expect(check.assetCount > 0, sourceLocation: sourceLocation)
    }

    @Test func aRestoredBackupHasEveryAssetAlbumFavoriteAndEdit() throws {
        let (temporary, assets) = try Self.populated()
        let before = LibraryState(temporary.library)
        let backup = Self.folder(temporary, "backup")
        let report = try temporary.library.backup(to: backup)
        #expect(report.assetCount == 6)
        #expect(report.fileCount == 8, "6 originals, 1 render, 1 adjustment data")
        #expect(report.copiedFileCount == 8 && report.snapshotCount == 1)
        #expect(report.missingFiles.isEmpty && report.damagedFiles.isEmpty)

        let target = Self.folder(temporary, "restored")
        let restored = try PHPhotoLibrary.restoreBackup(from: backup, to: target)
        #expect(restored.fileCount == 8 && restored.generation == report.generation)
        let library = try PHPhotoLibrary(url: target)
        try Self.expectConsistent(library)
        let after = LibraryState(library)
        #expect(after == before)
        #expect(after.albums["Trip"] == [assets[0].localIdentifier, assets[1].localIdentifier])
        #expect(after.assets.first { $0.identifier == assets[1].localIdentifier }?.edited == true)
        // The edit can be resumed from its adjustment data.
        let edited = try ContentEditingTests.refetched(assets[1], library)
        let input = try ContentEditingTests.input(edited) { $0.formatIdentifier == ContentEditingTests.format }
        #expect(input.adjustmentData?.data == Data("left-half".utf8))
        #expect(try library.store.libraryIdentifier() == temporary.library.store.libraryIdentifier())
    }

    @Test func aSecondRunCopiesOnlyNewFilesAndOldGenerationsGo() throws {
        let (temporary, _) = try Self.populated()
        let backup = Self.folder(temporary, "backup")
        let first = try temporary.library.backup(to: backup, keepingGenerations: 2)
        let second = try temporary.library.backup(to: backup, keepingGenerations: 2)
        #expect(first.copiedFileCount == 8)
        #expect(second.copiedFileCount == 0 && second.fileCount == 8, "nothing changed: nothing copied")
        let photo = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("new.jpg"), width: 300, height: 200)
        try temporary.library.performChangesAndWait { _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photo) }
        let third = try temporary.library.backup(to: backup, keepingGenerations: 2)
        #expect(third.copiedFileCount == 1 && third.fileCount == 9)
        #expect(third.removedGenerations == [first.generation])
        let generations = BackupLayout(root: backup).generationNames()
        #expect(generations == [second.generation, third.generation])
        // The older generation kept restores without the new photo.
        let target = Self.folder(temporary, "older")
        let restored = try PHPhotoLibrary.restoreBackup(from: backup, generation: second.generation, to: target)
        #expect(restored.assetCount == 6)
        try Self.expectConsistent(try PHPhotoLibrary(url: target))
    }

    /// A file the library has lost is listed, and the backup still finishes (once it has
    /// made sure that it is not a file a commit removed meanwhile).
    @Test func aFileTheLibraryLostIsListed() throws {
        let (temporary, _) = try Self.populated()
        let original = try #require(temporary.originalFiles().first)
        try FileManager.default.removeItem(at: temporary.url.appendingPathComponent("originals/\(original)"))
        let report = try temporary.library.backup(to: Self.folder(temporary, "backup"))
        #expect(report.missingFiles == ["originals/\(original)"])
        #expect(report.snapshotCount == 2)
        #expect(report.fileCount == 8 && report.copiedFileCount == 7)
    }

    /// Commits on another connection between the snapshot and the copies remove files the
    /// snapshot names (an asset deleted for good, an edit replaced): the backup takes a new
    /// snapshot, and what it restores is whole.
    @Test func commitsWhileItRunsStillGiveAWholeBackup() throws {
        let (temporary, assets) = try Self.populated()
        let other = try PHPhotoLibrary(url: temporary.url)  // another connection, as another process
        let backup = Self.folder(temporary, "backup")
        var hookRuns = 0
        let report = try temporary.library.backup(to: backup) { attempt in
            hookRuns += 1
            guard attempt == 1 else { return }
            do {
                let doomed = try ContentEditingTests.refetched(assets[4], other)
                try other.performChangesAndWait { PHAssetChangeRequest.deleteAssetsPermanently([doomed] as NSArray) }
                try Self.edit(assets[1], in: other, recipe: "second")
            } catch {
                Issue.record("the concurrent change failed: \(error)")
            }
        }
        #expect(report.snapshotCount == 2, "the first snapshot named files that were removed")
        #expect(hookRuns == 2)
        #expect(report.assetCount == 5 && report.missingFiles.isEmpty)
        let target = Self.folder(temporary, "restored")
        _ = try PHPhotoLibrary.restoreBackup(from: backup, to: target)
        let library = try PHPhotoLibrary(url: target)
        try Self.expectConsistent(library)
        #expect(LibraryState(library) == LibraryState(other))
        let input = try ContentEditingTests.input(try ContentEditingTests.refetched(assets[1], library)) { _ in true }
        #expect(input.adjustmentData?.data == Data("second".utf8))
    }

    /// Favorites, imports and deletions committed by another connection all through a backup.
    @Test func aBackupTakenWhileAnotherConnectionWritesRestoresWhole() throws {
        let (temporary, assets) = try Self.populated()
        let other = try PHPhotoLibrary(url: temporary.url)
        let stop = DispatchSemaphore(value: 0)
        let writer = Thread {
            var round = 0
            while stop.wait(timeout: .now()) == .timedOut {
                round += 1
                do {
                    let photo = try TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("w\(round).jpg"), width: 64 + round, height: 48)
                    var created: String?
                    try other.performChangesAndWait {
                        created = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: photo)?.placeholderForCreatedAsset?.localIdentifier
                        if let asset = try? ContentEditingTests.refetched(assets[0], other) {
                            PHAssetChangeRequest(for: asset).isFavorite = round % 2 == 0
                        }
                    }
                    if round % 2 == 0, let created, let asset = other.withCurrent({ PHAsset.fetchAssets(withLocalIdentifiers: [created], options: nil).firstObject }) {
                        try other.performChangesAndWait { PHAssetChangeRequest.deleteAssetsPermanently([asset] as NSArray) }
                    }
                } catch {
                    Issue.record("the concurrent writer failed: \(error)")
                    return
                }
            }
        }
        writer.start()
        defer { stop.signal() }
        let backup = Self.folder(temporary, "backup")
        var reports: [PHLibraryBackupReport] = []
        for _ in 0..<3 { reports.append(try temporary.library.backup(to: backup, keepingGenerations: 3)) }
        stop.signal()
        for (index, report) in reports.enumerated() {
            let target = Self.folder(temporary, "restored-\(index)")
            let restored = try PHPhotoLibrary.restoreBackup(from: backup, generation: report.generation, to: target)
            #expect(restored.assetCount == report.assetCount)
            try Self.expectConsistent(try PHPhotoLibrary(url: target))
        }
    }

    @Test func restoreRefusesAFolderThatIsNotEmptyAndABackupThatIsNot() throws {
        let (temporary, _) = try Self.populated()
        let backup = Self.folder(temporary, "backup")
        _ = try temporary.library.backup(to: backup)
        let occupied = Self.folder(temporary, "occupied")
        try FileManager.default.createDirectory(at: occupied, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: occupied.appendingPathComponent("notes.txt"))
        #expect {
            try PHPhotoLibrary.restoreBackup(from: backup, to: occupied)
        } throws: { ($0 as? PHPhotosError)?.message.contains("is not empty") == true }
        #expect(try FileManager.default.contentsOfDirectory(atPath: occupied.path) == ["notes.txt"])
        #expect(throws: PHPhotosError.self) { try PHPhotoLibrary.restoreBackup(from: occupied, to: Self.folder(temporary, "new")) }
        #expect(throws: PHPhotosError.self) { try temporary.library.backup(to: occupied) }
        #expect(throws: PHPhotosError.self) { try temporary.library.backup(to: temporary.url.appendingPathComponent("inside")) }
    }

    /// A damaged object in the backup stops the restore, which leaves nothing behind.
    @Test func aDamagedBackupFileStopsTheRestoreAndLeavesNothing() throws {
        let (temporary, _) = try Self.populated()
        let backup = Self.folder(temporary, "backup")
        let report = try temporary.library.backup(to: backup)
        let manifest = try BackupLayout(root: backup).manifest(report.generation)
        let victim = BackupLayout(root: backup).object(try #require(manifest.files.last).sha256)
        var bytes = try Data(contentsOf: victim)
        bytes[bytes.count / 2] ^= 0xFF
        try bytes.write(to: victim)
        let target = Self.folder(temporary, "restored")
        #expect {
            try PHPhotoLibrary.restoreBackup(from: backup, to: target)
        } throws: { ($0 as? PHPhotosError)?.message.contains("other bytes") == true }
        #expect(!FileManager.default.fileExists(atPath: target.path))
    }

    /// An original referenced in place is copied into the backup; restored, it is referenced
    /// again while it is where it was, else copied into the new library.
    @Test func referencedOriginalsAreBackedUpAndComeBack() throws {
        let temporary = try TemporaryLibrary()
        let outside = temporary.scratch.appendingPathComponent("outside.jpg")
        try FileManager.default.copyItem(at: try #require(Fixtures.kphotoalbum().first), to: outside)
        var options = PHAssetImporter.Options()
        options.referencesFiles = true
        #expect(PHAssetImporter(library: temporary.library, options: options).importFiles(at: [outside]).imported.count == 1)
        let backup = Self.folder(temporary, "backup")
        let report = try temporary.library.backup(to: backup)
        #expect(report.referencedFileCount == 1 && report.copiedFileCount == 1)

        let kept = try PHPhotoLibrary.restoreBackup(from: backup, to: Self.folder(temporary, "kept"))
        #expect(kept.referencedFilesKept == [outside.path] && kept.referencedFilesCopied.isEmpty)
        try Self.expectConsistent(try PHPhotoLibrary(url: Self.folder(temporary, "kept")))

        try FileManager.default.removeItem(at: outside)
        let copied = try PHPhotoLibrary.restoreBackup(from: backup, to: Self.folder(temporary, "copied"))
        #expect(copied.referencedFilesCopied.count == 1 && copied.referencedFilesCopied.first?.to.hasPrefix("originals/") == true)
        let library = try PHPhotoLibrary(url: Self.folder(temporary, "copied"))
        try Self.expectConsistent(library)
        #expect(library.withCurrent { PHAsset.fetchAssets(with: nil).count } == 1)
    }
}
