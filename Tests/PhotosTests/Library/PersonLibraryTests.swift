import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// Each person's own library (`PHPhotoLibrary.library(forPerson:)`): their photos, albums,
/// moments and duplicates, and nobody else's. On both engines (the PostgreSQL pass runs it too).
@Suite("A person's own library")
struct PersonLibraryTests {
    /// A library whose first photos (made before it had people) become Ana's; Ana and Ben.
    struct Household {
        let temporary: TemporaryLibrary
        let whole: PHPhotoLibrary
        let ana: PHPhotoLibrary
        let ben: PHPhotoLibrary
        let anasFirst: String

        init(function: String = #function) throws {
            var configuration = PHPhotoLibrary.Configuration()
            configuration.passwordHashCost = 4
            temporary = try TemporaryLibrary(configuration: configuration, function: function)
            whole = temporary.library
            anasFirst = try Self.add(to: whole, in: temporary, named: "before-people", day: 1)
            try whole.addPerson(named: "Ana", password: "correct horse")
            try whole.addPerson(named: "Ben", password: "battery staple")
            ana = try whole.library(forPerson: "ana")
            ben = try whole.library(forPerson: "Ben")
        }

        /// Creates a photo (a real JPEG taken on May `day`, 2024 at noon) in `library`.
        @discardableResult
        static func add(to library: PHPhotoLibrary, in temporary: TemporaryLibrary, named name: String, day: Int, hour: Int = 12) throws -> String {
            var exif = ExifBuilder()
            exif.dateTimeOriginal = String(format: "2024:05:%02d %02d:00:00", day, hour)
            let url = try TestImages.writeJPEG(
                to: temporary.scratch.appendingPathComponent("\(name)-\(UUID().uuidString).jpg"), width: 64 + day, exif: exif, noisy: true)
            return try add(to: library, copying: url)
        }

        func add(to library: PHPhotoLibrary, named name: String, day: Int, hour: Int = 12) throws -> String {
            try Self.add(to: library, in: temporary, named: name, day: day, hour: hour)
        }

        /// Creates a photo of the file at `url` (copied into the library) in `library`.
        static func add(to library: PHPhotoLibrary, copying url: URL) throws -> String {
            var identifier: String?
            try library.performChangesAndWait {
                let request = PHAssetCreationRequest.forAsset()
                request.addResource(with: .photo, fileURL: url, options: nil)
                identifier = request.placeholderForCreatedAsset?.localIdentifier
            }
            return try #require(identifier)
        }
    }

    static func assets(_ library: PHPhotoLibrary) -> [String] {
        library.withCurrent { PHAsset.fetchAssets(with: nil).map(\.localIdentifier) }
    }

    @Test func eachPersonSeesTheirOwnPhotosAndTheFirstOwnsWhatWasThere() throws {
        let house = try Household()
        #expect(house.ana.person?.name == "Ana" && house.ben.person?.name == "Ben" && house.whole.person == nil)
        let anas = try house.add(to: house.ana, named: "ana", day: 2)
        let bens = try house.add(to: house.ben, named: "ben", day: 2)
        #expect(Set(Self.assets(house.ana)) == [house.anasFirst, anas])
        #expect(Self.assets(house.ben) == [bens])
        #expect(Set(Self.assets(house.whole)) == [house.anasFirst, anas, bens])
        // By identifier, too: another person's photo is not found.
        house.ben.withCurrent {
            #expect(PHAsset.fetchAssets(withLocalIdentifiers: [anas], options: nil).count == 0)
        }
        // Smart albums are everyone's, each holding their own.
        let favorites = try #require(
            house.ben.withCurrent {
                PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumUserLibrary, options: nil).firstObject
            })
        house.ben.withCurrent { #expect(PHAsset.fetchAssets(in: favorites, options: nil).map(\.localIdentifier) == [bens]) }
    }

    @Test func aChangeToAnotherPersonsPhotoOrAlbumFindsNothingAndChangesNothing() throws {
        let house = try Household()
        let bens = try house.add(to: house.ben, named: "ben", day: 3)
        var album: String?
        try house.ana.performChangesAndWait {
            album = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Ana's")
                .placeholderForCreatedAssetCollection.localIdentifier
        }
        let anasAlbum = try #require(album)
        // Ben can't favorite Ana's photo, nor add his to her album.
        let favorite = try #require(throws: PHPhotosError.self) {
            try house.ben.performChangesAndWait {
                let asset = house.whole.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [house.anasFirst], options: nil).firstObject! }
                PHAssetChangeRequest(for: asset).isFavorite = true
            }
        }
        #expect(favorite.code == .identifierNotFound)
        #expect(house.whole.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [house.anasFirst], options: nil).firstObject?.isFavorite } == false)
        #expect(throws: PHPhotosError.self) {
            try house.ben.performChangesAndWait {
                let collection = house.whole.withCurrent {
                    PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [anasAlbum], options: nil).firstObject!
                }
                let asset = house.ben.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [bens], options: nil).firstObject! }
                PHAssetCollectionChangeRequest(for: collection)?.addAssets([asset] as NSArray)
            }
        }
        // Nor does he see her album.
        #expect(house.ben.withCurrent { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count } == 0)
        #expect(house.ana.withCurrent { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count } == 1)
        // And Ana can't touch his.
        let delete = try #require(throws: PHPhotosError.self) {
            try house.ana.performChangesAndWait {
                let asset = house.whole.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [bens], options: nil).firstObject! }
                PHAssetChangeRequest.deleteAssets([asset] as NSArray)
            }
        }
        #expect(delete.code == .identifierNotFound)
        #expect(Self.assets(house.ben) == [bens])
    }

    @Test func momentsAreEachPersonsOwn() throws {
        let house = try Household()
        // The same afternoon, one photo each (and Ana's first, on May 1st).
        let anas = try house.add(to: house.ana, named: "ana", day: 5, hour: 14)
        let bens = try house.add(to: house.ben, named: "ben", day: 5, hour: 15)
        func moments(_ library: PHPhotoLibrary) -> [[String]] {
            library.withCurrent {
                PHAssetCollection.fetchAssetCollections(with: .moment, subtype: .any, options: nil).map { moment in
                    PHAsset.fetchAssets(in: moment, options: nil).map(\.localIdentifier)
                }
            }
        }
        #expect(moments(house.ana) == [[house.anasFirst], [anas]])
        #expect(moments(house.ben) == [[bens]])
        let years = house.ben.withCurrent { PHCollectionList.fetchCollectionLists(with: .momentList, subtype: .momentListYear, options: nil) }
        #expect(years.count == 1)
        // Ben's photo leaving (to Recently Deleted) takes his moment, not Ana's.
        try house.ben.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets(PHAsset.fetchAssets(withLocalIdentifiers: [bens], options: nil))
        }
        #expect(moments(house.ben).isEmpty)
        #expect(moments(house.ana) == [[house.anasFirst], [anas]])
        house.ben.withCurrent { #expect(PHAsset.fetchRecentlyDeletedAssets(with: nil).map(\.localIdentifier) == [bens]) }
        house.ana.withCurrent { #expect(PHAsset.fetchRecentlyDeletedAssets(with: nil).count == 0) }
    }

    @Test func aFileAnotherPersonHasIsNoDuplicateOfYours() throws {
        let house = try Household()
        let url = try TestImages.writeJPEG(to: house.temporary.scratch.appendingPathComponent("shared.jpg"), width: 80, noisy: true)
        func imported(_ report: PHImportReport) -> [String] {
            report.imported.compactMap { if case .imported(let identifier, _) = $0.outcome { identifier } else { nil } }
        }
        let first = PHAssetImporter(library: house.ana).importFiles(at: [url])
        #expect(imported(first).count == 1)
        let other = PHAssetImporter(library: house.ben).importFiles(at: [url])
        #expect(imported(other).count == 1, "Ana's copy is no duplicate of Ben's")
        let again = PHAssetImporter(library: house.ben).importFiles(at: [url])
        #expect(imported(again).isEmpty && again.duplicates.count == 1, "his own copy is")
        #expect(Self.assets(house.ben) == imported(other))
    }

    /// The same file imported by two people is kept once: two names of one file in the
    /// library folder, each person's asset their own; deleting one leaves the other whole.
    @Test func aFileTwoPeopleImportIsStoredOnce() throws {
        let house = try Household()
        let url = try TestImages.writeJPEG(to: house.temporary.scratch.appendingPathComponent("both.jpg"), width: 96, noisy: true)
        let bytes = try Data(contentsOf: url)
        func original(_ library: PHPhotoLibrary, _ identifier: String) throws -> URL {
            let asset = try #require(library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [identifier], options: nil).firstObject })
            return try #require(PHAssetResource.assetResources(for: asset).first?.localFileURL)
        }
        func inode(_ url: URL) throws -> (inode: UInt64, links: UInt64) {
            var found = stat()
            #expect(stat(url.path, &found) == 0)
            return (UInt64(found.st_ino), UInt64(found.st_nlink))
        }
        let anas = try Household.add(to: house.ana, copying: url)
        let bens = try Household.add(to: house.ben, copying: url)
        #expect(anas != bens)
        let (anasFile, bensFile) = (try original(house.ana, anas), try original(house.ben, bens))
        #expect(anasFile != bensFile)
        #expect(try inode(anasFile).inode == inode(bensFile).inode, "one file")
        #expect(try inode(bensFile).links == 2)
        #expect(PersonLibraryTests.assets(house.ben) == [bens], "Ana's is still hers")
        // Ana deletes hers for good: Ben's stays, byte for byte.
        try house.ana.performChangesAndWait {
            PHAssetChangeRequest.deleteAssetsPermanently(PHAsset.fetchAssets(withLocalIdentifiers: [anas], options: nil))
        }
        #expect(!FileManager.default.fileExists(atPath: anasFile.path))
        #expect(try Data(contentsOf: bensFile) == bytes)
        #expect(try inode(bensFile).links == 1)
        // A file nobody else has is copied as before.
        let other = try TestImages.writeJPEG(to: house.temporary.scratch.appendingPathComponent("own.jpg"), width: 97, noisy: true)
        let own = try Household.add(to: house.ben, copying: other)
        #expect(try inode(original(house.ben, own)).links == 1)
    }

    @Test func anotherPersonsChangeIsNotToldToYourObservers() async throws {
        let house = try Household()
        let recorder = ChangeRecorder()
        let bensResult = house.ben.withCurrent { PHAsset.fetchAssets(with: nil) }
        house.ben.register(recorder)
        defer { house.ben.unregisterChangeObserver(recorder) }
        let anas = try house.add(to: house.ana, named: "ana", day: 6)
        try house.ana.performChangesAndWait {
            PHAssetChangeRequest(for: PHAsset.fetchAssets(withLocalIdentifiers: [anas], options: nil).firstObject!).isFavorite = true
        }
        let bens = try house.add(to: house.ben, named: "ben", day: 6)
        await house.ben.changesDelivered()
        // Ana's two changes are nothing of his: his observer hears of his own change only.
        #expect(recorder.changes.count == 1, "\(recorder.changes.count) changes told to Ben")
        // As an app follows its result: each change's details against the result the last left.
        var result = bensResult
        var inserted: [String] = []
        for change in recorder.changes {
            guard let details = change.changeDetails(for: result) else { continue }
            inserted += details.insertedObjects.map(\.localIdentifier)
            #expect(details.removedObjects.isEmpty && details.changedObjects.isEmpty)
            result = details.fetchResultAfterChanges
        }
        #expect(inserted == [bens], "only his own photo reaches his result")
        #expect(result.map(\.localIdentifier) == [bens])
    }

    /// An upload committed by whichever library claims it (another instance's worker, the
    /// owner's served library) is its uploader's: by their identifier or by a token of theirs.
    @Test func anUploadIsItsUploadersWhoeverImportsIt() throws {
        let house = try Household()
        let (_, _) = try house.whole.createAccessToken(named: "ben's", level: .readWrite, person: "Ben")
        let bensToken = try #require(try house.whole.accessTokens().first { $0.name == "ben's" })
        for owner in [try #require(house.ben.person?.identifier), bensToken.identifier] {
            let (uuid, files) = try ImportBatchTests.stage(house.ana, count: 1, seed: owner.count)
            let (batch, _) = try house.ana.importBatches.submit(uuid: uuid, files: files, owner: owner, clientKey: nil, tokenIdentifier: nil)
            #expect(batch.state == .done)
            let created = batch.assetUUIDs.map(PHAsset.localIdentifier(forUUID:))
            #expect(Set(created).isSubset(of: Set(Self.assets(house.ben))), "\(owner)")
            #expect(Set(created).isDisjoint(with: Set(Self.assets(house.ana))), "\(owner)")
        }
    }

    @Test func aPersonWithPhotosCantBeRemovedUntilTheyAreDeleted() throws {
        let house = try Household()
        let bens = try house.add(to: house.ben, named: "ben", day: 7)
        let refused = try #require(throws: PHPhotosError.self) { try house.whole.removePerson(named: "Ben") }
        #expect(refused.code == .changeNotSupported && refused.localizedDescription.contains("1 photo"))
        try house.ben.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets(PHAsset.fetchAssets(withLocalIdentifiers: [bens], options: nil))
        }
        let deleted = house.ben.withCurrent { PHAsset.fetchRecentlyDeletedAssets(with: nil) }
        try house.ben.performChangesAndWait { PHAssetChangeRequest.deleteAssetsPermanently(deleted) }
        #expect(try house.whole.removePerson(named: "Ben"))
        #expect(throws: PHPhotosError.self) { try house.whole.library(forPerson: "Ben") }
    }
}
