import Foundation
import Photos
import PhotosTestSupport
import Testing

/// `PHFetchResult` is an Objective-C generic on Apple's platforms, so app code converts fetch
/// results between related object types with `as?`. Here that is `PHFetchResult<T>(other)`.
@Suite("Fetch results of related object types")
struct FetchResultConversionTests {
    /// A library with two albums, one folder holding a third album, and two assets.
    static func library() throws -> TemporaryLibrary {
        let temporary = try TemporaryLibrary()
        try temporary.seed([SyntheticAsset(), SyntheticAsset()])
        try temporary.library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Trip")
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Home")
            let folder = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Archive")
            let inner = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "2019")
            folder.addChildCollections([inner.placeholderForCreatedAssetCollection] as NSArray)
        }
        return temporary
    }

    @Test func albumsBecomeCollectionsAsApplesCastDoes() throws {
        let temporary = try Self.library()
        let albums = temporary.library.withCurrent {
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)
        }
        // Apple's platforms: `albums as? PHFetchResult<PHCollection>`.
        let collections = try #require(PHFetchResult<PHCollection>(albums))
        #expect(collections.count == 3)
        #expect(collections.map(\.localIdentifier) == albums.map(\.localIdentifier))
        #expect(collections.object(at: 0).localizedTitle == albums.object(at: 0).localizedTitle)
        #expect(collections.firstObject is PHAssetCollection)
        #expect(PHFetchResult<PHObject>(albums)?.count == 3)
        #expect(PHFetchResult<AnyObject>(albums)?.count == 3)
        // Swift's own cast can't succeed for generic classes on Linux (this is why the
        // conversion exists); it fails without crashing.
        #expect((albums as Any) as? PHFetchResult<PHCollection> == nil)
    }

    @Test func collectionsBecomeAlbumsOnlyWhenEveryObjectIsOne() throws {
        let temporary = try Self.library()
        let topLevel = temporary.library.withCurrent { PHCollectionList.fetchTopLevelUserCollections(with: nil) }
        #expect(topLevel.count == 3)
        // The folder is not an asset collection: Apple's cast would succeed and crash later.
        #expect(PHFetchResult<PHAssetCollection>(topLevel) == nil)
        #expect(PHFetchResult<PHCollectionList>(topLevel) == nil)

        let folder = try #require(topLevel.map { $0 }.compactMap { $0 as? PHCollectionList }.first)
        let inFolder = temporary.library.withCurrent { PHCollectionList.fetchCollections(in: folder, options: nil) }
        let albums = try #require(PHFetchResult<PHAssetCollection>(inFolder))
        #expect(albums.firstObject?.localizedTitle == "2019")
        #expect(albums.firstObject?.assetCollectionType == .album)
    }

    @Test func assetsDoNotBecomeCollections() throws {
        let temporary = try Self.library()
        let assets = temporary.library.withCurrent { PHAsset.fetchAssets(with: nil) }
        #expect(PHFetchResult<PHAssetCollection>(assets) == nil)
        #expect(PHFetchResult<PHObject>(assets)?.count == 2)
        let empty = temporary.library.withCurrent {
            PHAsset.fetchAssets(withLocalIdentifiers: [], options: nil)
        }
        #expect(PHFetchResult<PHAssetCollection>(empty)?.count == 0)
    }

    @Test func aConvertedResultGetsChangeDetails() throws {
        let temporary = try Self.library()
        let albums = temporary.library.withCurrent {
            PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)
        }
        let collections = try #require(PHFetchResult<PHCollection>(albums))
        let recorder = ChangeWaiter()
        temporary.library.register(recorder)
        defer { temporary.library.unregisterChangeObserver(recorder) }
        try temporary.library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "New")
        }
        let change = try #require(recorder.next())
        let details = try #require(change.changeDetails(for: collections))
        #expect(details.fetchResultAfterChanges.count == 4)
        #expect(details.insertedObjects.map(\.localizedTitle) == ["New"])
    }
}
