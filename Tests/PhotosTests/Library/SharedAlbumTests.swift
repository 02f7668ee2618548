import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// Shared albums (`.albumCloudShared`) between the people of one library: the owner shares,
/// contributors add their own photos (which stay theirs), members see everyone's in the album
/// and nothing else of each other's, and changes reach each member's observers. On both
/// engines (the PostgreSQL pass runs it too).
@Suite("Shared albums")
struct SharedAlbumTests {
    /// Waits until `recorder` was told more than `count` changes (at most 10 s): a library
    /// object hears of another one's commit by its wake-up, which may come after a first look
    /// at its observers' queue (`changesDelivered()` covers only its own commits).
    static func waitForChange(told recorder: ChangeRecorder, beyond count: Int, library: PHPhotoLibrary) async throws {
        let deadline = Date().addingTimeInterval(10)
        repeat {
            await library.changesDelivered()
            if recorder.changes.count > count { return }
            try await Task.sleep(for: .milliseconds(10))
        } while Date() < deadline
    }

    typealias Household = PersonLibraryTests.Household

    /// Ana's shared album "Trip", shared with Ben as a contributor and Cy as a viewer.
    static func trip(_ house: Household, cy: PHPhotoLibrary) throws -> String {
        var identifier: String?
        try house.ana.performChangesAndWait {
            let request = PHAssetCollectionChangeRequest.creationRequestForSharedAlbum(withTitle: "Trip")
            request.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: [house.anasFirst], options: nil))
            request.addMember("Ben", role: .contributor)
            request.addMember("cy", role: .viewer)
            identifier = request.placeholderForCreatedAssetCollection.localIdentifier
        }
        return try #require(identifier)
    }

    static func album(_ identifier: String, in library: PHPhotoLibrary) -> PHAssetCollection? {
        library.withCurrent { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: nil).firstObject }
    }

    static func contents(_ identifier: String, in library: PHPhotoLibrary) -> [String] {
        library.withCurrent {
            guard let album = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: nil).firstObject else {
                return []
            }
            return PHAsset.fetchAssets(in: album, options: nil).map(\.localIdentifier)
        }
    }

    static func albums(_ library: PHPhotoLibrary) -> [String] {
        library.withCurrent { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).map(\.localIdentifier) }
    }

    @Test func membersSeeTheAlbumAndEveryonesPhotosInItAndNothingElse() throws {
        let house = try Household()
        try house.whole.addPerson(named: "Cy", password: "cy's password")
        let cy = try house.whole.library(forPerson: "Cy")
        let dee = try house.whole.addPerson(named: "Dee", password: "dee's password")
        let trip = try Self.trip(house, cy: cy)
        let album = try #require(Self.album(trip, in: house.ana))
        #expect(album.assetCollectionSubtype == .albumCloudShared)
        #expect(try house.ana.sharedAlbumMembers(of: album).map { "\($0.person.name) \($0.role.rawValue)" } == ["Ben contributor", "Cy viewer"])
        // Ben adds a photo of his; it stays his.
        let bens = try house.add(to: house.ben, named: "ben", day: 9)
        try house.ben.performChangesAndWait {
            let shared = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [trip], options: nil).firstObject!
            PHAssetCollectionChangeRequest(for: shared)!.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: [bens], options: nil))
        }
        for library in [house.ana, house.ben, cy] {
            #expect(Set(Self.contents(trip, in: library)) == [house.anasFirst, bens], "\(library.person?.name ?? "")")
            #expect(Self.albums(library) == [trip])
        }
        // Nobody else sees it, and nobody's library shows the others' photos.
        let dees = try house.whole.library(forPerson: dee.identifier)
        #expect(Self.album(trip, in: dees) == nil && Self.albums(dees).isEmpty)
        #expect(PersonLibraryTests.assets(house.ana) == [house.anasFirst])
        #expect(PersonLibraryTests.assets(house.ben) == [bens])
        #expect(PersonLibraryTests.assets(cy).isEmpty)
        // A member finds a shared photo by its identifier (a thumbnail's request does).
        cy.withCurrent { #expect(PHAsset.fetchAssets(withLocalIdentifiers: [house.anasFirst, bens], options: nil).count == 2) }
        dees.withCurrent { #expect(PHAsset.fetchAssets(withLocalIdentifiers: [house.anasFirst, bens], options: nil).count == 0) }
    }

    @Test func aSharedPhotoIsReadOnlyToMembersButTheAlbumsOwnerMayRemoveIt() throws {
        let house = try Household()
        try house.whole.addPerson(named: "Cy", password: "cy's password")
        let cy = try house.whole.library(forPerson: "Cy")
        let trip = try Self.trip(house, cy: cy)
        let bens = try house.add(to: house.ben, named: "ben", day: 10)
        let cys = try house.add(to: cy, named: "cy", day: 10)
        func change(_ library: PHPhotoLibrary, _ body: @escaping (PHAssetCollectionChangeRequest) -> Void) throws {
            try library.performChangesAndWait {
                let shared = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [trip], options: nil).firstObject!
                body(PHAssetCollectionChangeRequest(for: shared)!)
            }
        }
        let inAlbum = { (identifiers: [String]) in house.whole.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: identifiers, options: nil) } }
        try change(house.ben) { $0.addAssets(inAlbum([bens])) }
        // A viewer can't add; a contributor can't add someone else's photo, nor remove one.
        #expect(throws: PHPhotosError.self) { try change(cy) { $0.addAssets(inAlbum([cys])) } }
        #expect(throws: PHPhotosError.self) { try change(house.ben) { $0.addAssets(inAlbum([cys])) } }
        #expect(throws: PHPhotosError.self) { try change(house.ben) { $0.removeAssets(inAlbum([house.anasFirst])) } }
        // Nor rename, share or end it.
        #expect(throws: PHPhotosError.self) { try change(house.ben) { $0.title = "Mine" } }
        #expect(throws: PHPhotosError.self) { try change(house.ben) { $0.addMember("Dee", role: .viewer) } }
        #expect(throws: PHPhotosError.self) {
            try house.ben.performChangesAndWait {
                PHAssetCollectionChangeRequest.deleteAssetCollections(PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [trip], options: nil))
            }
        }
        // Nor favorite a photo that isn't theirs.
        #expect(throws: PHPhotosError.self) {
            try house.ben.performChangesAndWait { PHAssetChangeRequest(for: inAlbum([house.anasFirst]).firstObject!).isFavorite = true }
        }
        #expect(Set(Self.contents(trip, in: house.ana)) == [house.anasFirst, bens])
        // The album's owner removes Ben's photo from it; it stays his.
        try change(house.ana) { $0.removeAssets(inAlbum([bens])) }
        #expect(Self.contents(trip, in: house.ben) == [house.anasFirst])
        #expect(PersonLibraryTests.assets(house.ben) == [bens])
    }

    @Test func leavingRemovingAMemberAndEndingTheAlbum() throws {
        let house = try Household()
        try house.whole.addPerson(named: "Cy", password: "cy's password")
        let cy = try house.whole.library(forPerson: "Cy")
        let trip = try Self.trip(house, cy: cy)
        let bens = try house.add(to: house.ben, named: "ben", day: 11)
        try house.ben.performChangesAndWait {
            let shared = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [trip], options: nil).firstObject!
            let request = PHAssetCollectionChangeRequest(for: shared)!
            request.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: [bens], options: nil))
            request.leaveSharedAlbum()
        }
        #expect(Self.albums(house.ben).isEmpty && Self.album(trip, in: house.ben) == nil)
        #expect(Set(Self.contents(trip, in: house.ana)) == [house.anasFirst, bens], "what he added stays in it")
        try house.ana.performChangesAndWait {
            let shared = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [trip], options: nil).firstObject!
            PHAssetCollectionChangeRequest(for: shared)!.removeMember("Cy")
        }
        #expect(Self.albums(cy).isEmpty)
        try house.ana.performChangesAndWait {
            PHAssetCollectionChangeRequest.deleteAssetCollections(PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [trip], options: nil))
        }
        #expect(Self.albums(house.ana).isEmpty)
        #expect(PersonLibraryTests.assets(house.ben) == [bens], "ending the album leaves everyone's photos theirs")
    }

    @Test func aChangeToASharedAlbumReachesEachMembersObserversAndNobodyElses() async throws {
        let house = try Household()
        try house.whole.addPerson(named: "Cy", password: "cy's password")
        let cy = try house.whole.library(forPerson: "Cy")
        let dee = try house.whole.library(forPerson: house.whole.addPerson(named: "Dee", password: "dee's password").identifier)
        let recorders = [house.ana, cy, dee].map { _ in ChangeRecorder() }
        let albumResults = [house.ana, cy, dee].map { library in
            library.withCurrent { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }
        }
        for (library, recorder) in zip([house.ana, cy, dee], recorders) { library.register(recorder) }
        let trip = try Self.trip(house, cy: cy)
        for library in [house.ana, cy, dee] { await library.changesDelivered() }
        // Cy's list of albums gets the album she was given; Dee's nothing.
        func inserted(_ recorder: ChangeRecorder, _ result: PHFetchResult<PHAssetCollection>) -> [String] {
            var result = result
            var inserted: [String] = []
            for change in recorder.changes {
                guard let details = change.changeDetails(for: result) else { continue }
                inserted += details.insertedObjects.map(\.localIdentifier)
                result = details.fetchResultAfterChanges
            }
            return inserted
        }
        #expect(inserted(recorders[0], albumResults[0]) == [trip])
        #expect(inserted(recorders[1], albumResults[1]) == [trip])
        #expect(inserted(recorders[2], albumResults[2]).isEmpty)
        // Ben's photo added to it reaches the album's contents as Ana and Cy hold them.
        let contents = [house.ana, cy].map { library in
            library.withCurrent {
                PHAsset.fetchAssets(in: PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [trip], options: nil).firstObject!, options: nil)
            }
        }
        let before = recorders.map { $0.changes.count }
        let bens = try house.add(to: house.ben, named: "ben", day: 12)
        try house.ben.performChangesAndWait {
            let shared = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [trip], options: nil).firstObject!
            PHAssetCollectionChangeRequest(for: shared)!.addAssets(PHAsset.fetchAssets(withLocalIdentifiers: [bens], options: nil))
        }
        // Ana's and Cy's library objects hear of Ben's commit by their wake-ups.
        for (index, library) in [house.ana, cy].enumerated() {
            try await Self.waitForChange(told: recorders[index], beyond: before[index], library: library)
        }
        for (index, result) in contents.enumerated() {
            let changes = recorders[index].changes.dropFirst(before[index])
            let added = changes.compactMap { $0.changeDetails(for: result) }.flatMap { $0.insertedObjects.map(\.localIdentifier) }
            #expect(added.contains(bens), "\(index)")
        }
        // Dee, in nothing, heard of none of it.
        await dee.changesDelivered()
        #expect(recorders[2].changes.isEmpty, "\(recorders[2].changes.count) changes told to Dee")
        // Cy removed from the album: told, though the album is no longer hers to see, and her
        // list of albums loses it.
        let cysAlbums = cy.withCurrent { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil) }
        let cysBefore = recorders[1].changes.count
        try house.ana.performChangesAndWait {
            let shared = PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [trip], options: nil).firstObject!
            PHAssetCollectionChangeRequest(for: shared)!.removeMember("cy")
        }
        try await Self.waitForChange(told: recorders[1], beyond: cysBefore, library: cy)
        let removed = recorders[1].changes.dropFirst(cysBefore).compactMap { $0.changeDetails(for: cysAlbums) }
            .flatMap { $0.removedObjects.map(\.localIdentifier) }
        #expect(removed == [trip])
        await dee.changesDelivered()
        #expect(recorders[2].changes.isEmpty)
    }
}
