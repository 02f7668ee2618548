import Foundation
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// `photos migrate`: a library copied to the other engine (SQLite to PostgreSQL on the SQLite
/// pass, PostgreSQL to SQLite on the PostgreSQL pass) and back, rows with their ids, the
/// history position, tokens and files, checked by hashes.
@Suite("Library migration", .enabled(if: ThrowawayPostgres.isAvailable || TestStore.isPostgres, "needs PostgreSQL (apt install postgresql)"))
struct LibraryMigrationTests {
    /// A new, empty library on the engine the test pass does not use (on the SQLite pass, in
    /// a PostgreSQL server of the test's own, returned to be kept while the test runs).
    static func otherEngine(_ temporary: TemporaryLibrary, _ name: String) throws -> (
        library: PHPhotoLibrary, reopen: () throws -> PHPhotoLibrary, server: ThrowawayPostgres?
    ) {
        let files = temporary.folder.appendingPathComponent(name, isDirectory: true)
        if TestStore.isPostgres {
            return (try PHPhotoLibrary(url: files), { try PHPhotoLibrary(url: files) }, nil)
        }
        let server = try ThrowawayPostgres()
        let database = try server.createDatabase()
        return (try PHPhotoLibrary(database: database, files: files), { try PHPhotoLibrary(database: database, files: files) }, server)
    }

    /// Three photos, an album of two, a favorite, a token: something of every table.
    static func filledLibrary() throws -> (TemporaryLibrary, [String], PHPersistentChangeToken) {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        var ids: [String] = []
        try library.performChangesAndWait {
            for index in 0..<3 {
                let file = try? TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("p\(index).jpg"), width: 64 + index, height: 48)
                let request = PHAssetCreationRequest.forAsset()
                request.addResource(with: .photo, fileURL: file!, options: nil)
                ids.append(request.placeholderForCreatedAsset!.localIdentifier)
            }
        }
        let token = library.currentChangeToken
        let assets = library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil) }
        try library.performChangesAndWait {
            let album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
            album.addAssets(assets.objects(at: IndexSet([0, 2])) as NSArray)
            PHAssetChangeRequest(for: assets.object(at: 1)).isFavorite = true
        }
        _ = try library.createAccessToken(named: "family", level: .readWrite)
        return (temporary, ids, token)
    }

    @Test func aCopyOnTheOtherEngineHasTheSameLibraryAndHistory() throws {
        let (temporary, ids, token) = try Self.filledLibrary()
        let source = temporary.library
        let (destination, reopen, server) = try Self.otherEngine(temporary, "copy")
        defer { withExtendedLifetime(server) {} }
        let report = try source.copyLibrary(to: destination)
        #expect(report.rows.first { $0.table == "asset" }?.count == 3)
        #expect(report.hashedFiles == 3 && report.linkedFiles + report.copiedFiles >= 3)
        #expect(report.position == Int64(try #require(source.currentChangeToken.stringValue.split(separator: ":").last.flatMap { Int64($0) })))

        let copy = try reopen()
        #expect(copy.currentChangeToken.stringValue == source.currentChangeToken.stringValue, "the same library at the same position")
        let assets = copy.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil) }
        #expect(assets.count == 3)
        #expect(copy.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [ids[1]], options: nil).firstObject?.isFavorite } == true)
        let album = try #require(copy.withCurrent {
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: nil).firstObject
        })
        #expect(album.localizedTitle == "Trip")
        #expect(copy.withCurrent { PHAsset.fetchAssets(in: album, options: nil).map(\.localIdentifier) } == [ids[0], ids[2]])
        #expect(try copy.accessTokens().map(\.name) == ["family"])
        // A token of the source's reads the same history on the copy.
        let before = try source.fetchPersistentChanges(since: token).map(\.changeToken.stringValue)
        let after = try copy.fetchPersistentChanges(since: token).map(\.changeToken.stringValue)
        #expect(!before.isEmpty && before == after)
        // The copy goes on from the position (and the thumbnail is readable from its files).
        let asset = try #require(assets.firstObject)
        try copy.performChangesAndWait { PHAssetChangeRequest(for: asset).isHidden = true }
        #expect(try copy.fetchPersistentChanges(since: source.currentChangeToken).map(\.changeToken).count == 1)
        #expect(try copy.checkConsistency(verifyingContents: true).isConsistent)

        // And back, into a new folder or database of the source's engine. A library made on
        // PostgreSQL has no documents' lengths (its own writes leave them unwritten).
        if copy.store.engine.dialect == .postgres {
            _ = try copy.store.engine.write { db in try db.execute("UPDATE asset SET searchLength = NULL") }
        }
        let back = try temporary.emptyPeer("back")
        _ = try copy.copyLibrary(to: back)
        // A copy on PostgreSQL has its statistics at once (ANALYZE after the rows), as
        // `pg_restore` leaves a database.
        let onPostgres = try #require([copy, back].first { $0.store.engine.dialect == .postgres })
        let analyzed = try onPostgres.store.engine.read { db in
            try db.int64("SELECT count(*) FROM pg_stat_user_tables WHERE relname IN ('asset', 'albumasset') AND last_analyze IS NOT NULL")
        }
        #expect(analyzed == 2)
        // A copy into SQLite from PostgreSQL (which leaves them unwritten) gets each document's
        // length, which SQLite's search rank reads.
        let fromPostgres = try #require(copy.store.engine.dialect == .sqlite ? copy : back)
        let lengths = try fromPostgres.store.engine.read { db in
            try db.rows(
                "SELECT asset.searchLength, \(unescaped: SearchDocumentColumn.lengthOfWords) FROM asset JOIN searchDocument ON assetID = asset.id"
            ) { row in (row.optionalInt64(0), row.int64(1)) }
        }
        #expect(lengths.count == 3 && lengths.allSatisfy { $0.0 == $0.1 && $0.1 > 0 }, "\(lengths)")
        #expect(back.withCurrent { PHAsset.fetchAssets(with: nil).count } == 2, "the one hidden on the copy stays hidden")
        #expect(try back.fetchPersistentChanges(since: token).map(\.changeToken).count == before.count + 1)
    }

    @Test func aDestinationThatHoldsPhotosIsRefusedUntouched() throws {
        let (temporary, _, _) = try Self.filledLibrary()
        let (other, _, _) = try Self.filledLibrary()
        #expect {
            _ = try temporary.library.copyLibrary(to: other.library)
        } throws: { error in
            "\(error)".contains("already holds a library (3 assets")
        }
        #expect(other.library.withCurrent { PHAsset.fetchAssets(with: nil).count } == 3)
    }

    @Test func aMissingOriginalFailsTheCheck() throws {
        let (temporary, ids, _) = try Self.filledLibrary()
        let asset = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [ids[0]], options: nil).firstObject })
        let original = try #require(PHAssetResource.assetResources(for: asset).first?.fileURL)
        try FileManager.default.removeItem(at: original)
        let (destination, _, server) = try Self.otherEngine(temporary, "copy")
        defer { withExtendedLifetime(server) {} }
        #expect {
            _ = try temporary.library.copyLibrary(to: destination)
        } throws: { error in
            "\(error)".contains("The copy has no originals/")
        }
    }
}
