import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

@Suite("Albums and folders")
struct AlbumChangeTests {
    static func fixture(_ count: Int = 6) throws -> (TemporaryLibrary, [PHAsset]) {
        let temporary = try TemporaryLibrary()
        try temporary.seed((0..<count).map { SyntheticAsset(creationDate: Date(timeIntervalSince1970: 1_000_000 + Double($0) * 60)) })
        let assets = temporary.library.withCurrent { Array(PHAsset.fetchAssets(with: nil)) }
        return (temporary, assets)
    }

    static func album(_ temporary: TemporaryLibrary, _ title: String) throws -> PHAssetCollection {
        let predicate = temporary.library.withCurrent {
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: nil).first { $0.localizedTitle == title }
        }
        return try #require(predicate)
    }

    static func contents(_ temporary: TemporaryLibrary, _ album: PHAssetCollection, _ assets: [PHAsset]) -> [Int] {
        temporary.library.withCurrent {
            PHAsset.fetchAssets(in: album, options: nil).map { asset in assets.firstIndex(of: asset) ?? -1 }
        }
    }

    @Test func createWithPlaceholdersInTheSameBlock() throws {
        let (temporary, assets) = try Self.fixture()
        var placeholder: PHObjectPlaceholder?
        try temporary.library.performChangesAndWait {
            let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
            request.addAssets([assets[3], assets[1]] as NSArray)
            placeholder = request.placeholderForCreatedAssetCollection
        }
        let id = try #require(placeholder?.localIdentifier)
        let album = try #require(
            temporary.library.withCurrent { PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [id], options: nil).firstObject })
        #expect(album.localizedTitle == "Trip")
        #expect(album.estimatedAssetCount == 2)
        #expect(Self.contents(temporary, album, assets) == [3, 1])
    }

    @Test func indexEditsFollowNSMutableArraySemantics() throws {
        let (temporary, assets) = try Self.fixture()
        try temporary.library.performChangesAndWait {
            PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "A").addAssets(Array(assets[0..<4]))
        }
        let album = try Self.album(temporary, "A")
        try temporary.library.performChangesAndWait {
            let request = try! #require(PHAssetCollectionChangeRequest(for: album))
            request.insertAssets([assets[4], assets[5]], at: IndexSet([0, 2]))  // 4 0 5 1 2 3
            request.moveAssets(at: IndexSet([0, 1]), to: 3)  // 5 1 2 4 0 3
            request.removeAssets(at: IndexSet([1]))  // 5 2 4 0 3
            request.replaceAssets(at: IndexSet([4]), withAssets: [assets[1]])  // 5 2 4 0 1
            request.removeAssets([assets[2]])  // 5 4 0 1
            request.title = "B"
        }
        let renamed = try Self.album(temporary, "B")
        #expect(Self.contents(temporary, renamed, assets) == [5, 4, 0, 1])
    }

    @Test func indexesReferToTheFetchResultGiven() throws {
        let (temporary, assets) = try Self.fixture()
        try temporary.library.performChangesAndWait {
            PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "A").addAssets(Array(assets[0..<5]))
        }
        // Hide asset 1: the album still holds it, but default fetches don't show it.
        try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: assets[1]).isHidden = true }
        let album = try Self.album(temporary, "A")
        let shown = temporary.library.withCurrent { PHAsset.fetchAssets(in: album, options: nil) }
        #expect(shown.count == 4)
        try temporary.library.performChangesAndWait {
            let request = try! #require(PHAssetCollectionChangeRequest(for: album, assets: shown))
            request.moveAssets(at: IndexSet([0]), to: 3)  // shown: 2 3 4 0 ; the hidden 1 follows 0
        }
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        let all = temporary.library.withCurrent { PHAsset.fetchAssets(in: album, options: options).map { assets.firstIndex(of: $0)! } }
        #expect(all == [2, 3, 4, 0, 1])
    }

    @Test func outOfRangeIndexFailsTheWholeBlock() throws {
        let (temporary, assets) = try Self.fixture()
        try temporary.library.performChangesAndWait {
            PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "A").addAssets([assets[0]])
        }
        let album = try Self.album(temporary, "A")
        let error = #expect(throws: PHPhotosError.self) {
            try temporary.library.performChangesAndWait {
                PHAssetChangeRequest(for: assets[2]).isFavorite = true
                PHAssetCollectionChangeRequest(for: album)!.removeAssets(at: IndexSet([5]))
            }
        }
        #expect(error?.code == .changeNotSupported)
        #expect(error?.message.contains("index 5") == true)
        #expect(error?.message.contains("'A'") == true)
        // Nothing of the block was applied.
        #expect(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [assets[2].localIdentifier], options: nil)[0].isFavorite } == false)
    }

    @Test func deletingAnAlbumKeepsItsAssets() throws {
        let (temporary, assets) = try Self.fixture()
        try temporary.library.performChangesAndWait {
            PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "A").addAssets(assets)
        }
        let album = try Self.album(temporary, "A")
        try temporary.library.performChangesAndWait { PHAssetCollectionChangeRequest.deleteAssetCollections([album]) }
        temporary.library.withCurrent {
            #expect(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count == 0)
            #expect(PHAsset.fetchAssets(with: nil).count == assets.count)
        }
    }

    @Test func collectionsContainingAnAsset() throws {
        let (temporary, assets) = try Self.fixture()
        try temporary.library.performChangesAndWait {
            PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "A").addAssets([assets[0], assets[1]])
            PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "B").addAssets([assets[1]])
        }
        temporary.library.withCurrent {
            #expect(PHAssetCollection.fetchAssetCollectionsContaining(assets[1], with: .album, options: nil).map(\.localizedTitle) == ["A", "B"])
            #expect(PHAssetCollection.fetchAssetCollectionsContaining(assets[0], with: .album, options: nil).map(\.localizedTitle) == ["A"])
            #expect(PHAssetCollection.fetchAssetCollectionsContaining(assets[1], with: .smartAlbum, options: nil).count == 0)
            let album = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).first { $0.localizedTitle == "A" }!
            #expect(PHAsset.fetchKeyAssets(in: album, options: nil)?.map(\.localIdentifier) == [assets[0].localIdentifier])
        }
    }

    @Test func foldersHoldAlbumsAndFolders() throws {
        let (temporary, _) = try Self.fixture(0)
        try temporary.library.performChangesAndWait {
            let trips = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Trips")
            let italy = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Italy")
            let spain = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Spain")
            let archive = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Archive")
            trips.addChildCollections([
                italy.placeholderForCreatedAssetCollection, spain.placeholderForCreatedAssetCollection,
                archive.placeholderForCreatedCollectionList,
            ])
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Loose")
        }
        try temporary.library.withCurrent {
            let top = PHCollection.fetchTopLevelUserCollections(with: nil)
            #expect(top.map(\.localizedTitle) == ["Trips", "Loose"])
            let trips = try #require(top.firstObject as? PHCollectionList)
            #expect(trips.collectionListType == .folder && trips.collectionListSubtype == .regularFolder)
            let children = PHCollection.fetchCollections(in: trips, options: nil)
            #expect(children.map(\.localizedTitle) == ["Italy", "Spain", "Archive"])
            #expect(children[2] is PHCollectionList && children[0] is PHAssetCollection)
            #expect(PHCollectionList.fetchCollectionListsContaining(children[0], options: nil).map(\.localizedTitle) == ["Trips"])
            #expect(PHCollectionList.fetchCollectionListsContaining(trips, options: nil).count == 0)
            // Apple's sample calls it through the subclass.
            #expect(PHCollectionList.fetchTopLevelUserCollections(with: nil).count == 2)
        }
        let trips = try #require(temporary.library.withCurrent { PHCollection.fetchTopLevelUserCollections(with: nil).firstObject as? PHCollectionList })
        let archive = try #require(temporary.library.withCurrent { PHCollection.fetchCollections(in: trips, options: nil)[2] as? PHCollectionList })
        // Re-order, move out, and refuse cycles.
        try temporary.library.performChangesAndWait {
            let request = PHCollectionListChangeRequest(for: trips)!
            request.moveChildCollections(at: IndexSet([2]), to: 0)
            request.removeChildCollections(at: IndexSet([2]))
        }
        temporary.library.withCurrent {
            #expect(PHCollection.fetchCollections(in: trips, options: nil).map(\.localizedTitle) == ["Archive", "Italy"])
            #expect(PHCollection.fetchTopLevelUserCollections(with: nil).map(\.localizedTitle) == ["Trips", "Loose", "Spain"])
        }
        let error = #expect(throws: PHPhotosError.self) {
            try temporary.library.performChangesAndWait {
                PHCollectionListChangeRequest(for: archive)!.addChildCollections([trips])
            }
        }
        #expect(error?.code == .changeNotSupported)
        #expect(error?.message.contains("inside itself") == true)
        // The top level can be re-ordered too.
        try temporary.library.performChangesAndWait {
            let top = PHCollection.fetchTopLevelUserCollections(with: nil)
            PHCollectionListChangeRequest(forTopLevelCollectionListUserCollections: top)!.moveChildCollections(at: IndexSet([2]), to: 0)
        }
        #expect(temporary.library.withCurrent { PHCollection.fetchTopLevelUserCollections(with: nil).map(\.localizedTitle) } == ["Spain", "Trips", "Loose"])
        // Deleting a folder deletes what it holds.
        try temporary.library.performChangesAndWait { PHCollectionListChangeRequest.deleteCollectionLists([trips]) }
        temporary.library.withCurrent {
            #expect(PHCollection.fetchTopLevelUserCollections(with: nil).map(\.localizedTitle) == ["Spain", "Loose"])
            #expect(PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: nil).count == 0)
        }
    }

    @Test func transientCollectionLists() throws {
        let (temporary, assets) = try Self.fixture(2)
        try temporary.library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "One")
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Two")
        }
        temporary.library.withCurrent {
            let albums = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)
            let transientAlbum = PHAssetCollection.transientAssetCollection(with: assets, title: "Both")
            let list = PHCollectionList.transientCollectionList(with: [albums[1], transientAlbum, albums[0]], title: "Mixed")
            #expect(list.localizedTitle == "Mixed")
            #expect(PHCollection.fetchCollections(in: list, options: nil).map(\.localizedTitle) == ["Two", "Both", "One"])
            let stored = PHCollectionList.transientCollectionList(with: [albums[1], albums[0]], title: nil)
            #expect(PHCollection.fetchCollections(in: stored, options: nil).map(\.localizedTitle) == ["Two", "One"])
        }
    }
}
