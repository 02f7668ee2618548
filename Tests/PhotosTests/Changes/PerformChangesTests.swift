import Foundation
import PhotosTestSupport
import PhotosLocking
import Testing

@testable import Photos

@Suite("performChanges")
struct PerformChangesTests {
    @Test func completionRunsOffTheMainThreadAfterTheCommitIsVisible() async throws {
        let temporary = try TemporaryLibrary()
        try temporary.seed([SyntheticAsset()])
        let asset = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).firstObject })
        let library = temporary.library
        let observed: (Bool, Bool, Bool) = await withCheckedContinuation { continuation in
            library.performChanges({
                PHAssetChangeRequest(for: asset).isFavorite = true
            }) { success, error in
                let visible = library.withCurrent { PHAsset.fetchAssets(with: nil)[0].isFavorite }
                continuation.resume(returning: (success && error == nil, Thread.isMainThread, visible))
            }
        }
        #expect(observed.0, "succeeded")
        #expect(!observed.1, "not on the main thread")
        #expect(observed.2, "the change is visible in the completion handler")
    }

    @Test func asyncFormThrowsThePHPhotosError() async throws {
        let temporary = try TemporaryLibrary()
        try temporary.seed([SyntheticAsset()])
        let asset = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).firstObject })
        try await temporary.library.performChanges {
            PHAssetChangeRequest(for: asset).isHidden = true
        }
        #expect(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).count } == 0)
        await #expect(throws: PHPhotosError.self) {
            try await temporary.library.performChanges {
                _ = PHAssetChangeRequest.creationRequestForAssetFromImage(atFileURL: URL(fileURLWithPath: "/nonexistent/x.jpg"))
            }
        }
    }

    @Test func completionsArriveInCommitOrder() async throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let order = Mutex<[Int]>([])
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let remaining = Mutex(20)
            for index in 0..<20 {
                library.performChanges({
                    _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "\(index)")
                }) { _, _ in
                    order.withLock { $0.append(index) }
                    if remaining.withLock({ $0 -= 1; return $0 }) == 0 { continuation.resume() }
                }
            }
        }
        #expect(order.withLock { $0 } == Array(0..<20))
        #expect(library.withCurrent { PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).count } == 20)
    }

    @Test func requestsForTheSameAssetMergeAndDeletionWins() throws {
        let temporary = try TemporaryLibrary()
        try temporary.seed([SyntheticAsset(), SyntheticAsset()])
        let assets = temporary.library.withCurrent { Array(PHAsset.fetchAssets(with: nil)) }
        try temporary.library.performChangesAndWait {
            PHAssetChangeRequest(for: assets[0]).isFavorite = true
            let second = PHAssetChangeRequest(for: assets[0])
            #expect(second.isFavorite == false, "a request reads the asset's value until set")
            second.isHidden = true
            PHAssetChangeRequest(for: assets[1]).isFavorite = true
            PHAssetChangeRequest.deleteAssets([assets[1]])
        }
        let options = PHFetchOptions()
        options.includeHiddenAssets = true
        let after = temporary.library.withCurrent { PHAsset.fetchAssets(with: options) }
        #expect(after.count == 1)
        #expect(after[0].isFavorite && after[0].isHidden)
    }

    @Test func requestsAndTheirAssetsAreReleasedAfterTheBlock() throws {
        let temporary = try TemporaryLibrary()
        try temporary.seed([SyntheticAsset()])
        weak var request: PHAssetChangeRequest?
        weak var asset: PHAsset?
        do {
            let fetched = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).firstObject })
            asset = fetched
            try temporary.library.performChangesAndWait {
                let made = PHAssetChangeRequest(for: fetched)
                made.isFavorite = true
                request = made
            }
        }
        // A server runs a change block per request: anything kept here is kept forever.
        #expect(request == nil, "the change request outlived its block")
        #expect(asset == nil, "the asset a request targeted outlived its block")
    }

    @Test func editsCreationDateAndLocation() throws {
        let temporary = try TemporaryLibrary()
        try temporary.seed([SyntheticAsset()])
        let asset = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).firstObject })
        let date = Date(timeIntervalSince1970: 1_234_567_890)
        try temporary.library.performChangesAndWait {
            let request = PHAssetChangeRequest(for: asset)
            request.creationDate = date
            request.location = CLLocation(latitude: -33.8568, longitude: 151.2153)
            #expect(request.creationDate == date)
        }
        let after = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).firstObject })
        #expect(after.creationDate == date)
        #expect(after.location?.coordinate == CLLocationCoordinate2D(latitude: -33.8568, longitude: 151.2153))
        try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: after).location = nil }
        #expect(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil)[0].location } == nil)
    }

    @Test func requestOutsideAChangeBlockStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let temporary = try TemporaryLibrary()
            _ = temporary.library.withCurrent {
                PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Nope")
            }
        }
    }

    @Test func requestUsedAfterItsBlockStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let temporary = try TemporaryLibrary()
            var request: PHAssetCollectionChangeRequest?
            try temporary.library.performChangesAndWait {
                request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Later")
            }
            request?.title = "Too late"
        }
    }

    @Test func nestedChangeBlocksStopTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let temporary = try TemporaryLibrary()
            try temporary.library.performChangesAndWait {
                try? temporary.library.performChangesAndWait {}
            }
        }
    }
}

@Suite("Recently Deleted")
struct RecentlyDeletedTests {
    @Test func deletedAssetsVanishFromFetchesAndCanBeRecovered() throws {
        let temporary = try TemporaryLibrary()
        let ids = try temporary.seed([SyntheticAsset(), SyntheticAsset(isFavorite: true)])
        try temporary.library.performChangesAndWait {
            PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "A")
                .addAssets(PHAsset.fetchAssets(with: nil))
        }
        let favorite = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [ids[1]], options: nil).firstObject })
        try temporary.library.performChangesAndWait { PHAssetChangeRequest.deleteAssets([favorite] as NSArray) }
        try temporary.library.withCurrent {
            #expect(PHAsset.fetchAssets(with: nil).count == 1)
            #expect(PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil).count == 1)
            let album = try #require(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil).firstObject)
            #expect(album.estimatedAssetCount == 1)
            #expect(PHAsset.fetchAssets(in: album, options: nil).count == 1)
            let favorites = try #require(PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumFavorites, options: nil).firstObject)
            #expect(PHAsset.fetchAssets(in: favorites, options: nil).count == 0)
            let deleted = PHAsset.fetchRecentlyDeletedAssets(with: nil)
            #expect(deleted.map(\.localIdentifier) == [ids[1]])
            #expect(deleted[0].trashedDate != nil)
            #expect(!deleted[0].canPerform(.properties))
        }
        let deleted = temporary.library.withCurrent { PHAsset.fetchRecentlyDeletedAssets(with: nil) }
        try temporary.library.performChangesAndWait { PHAssetChangeRequest.recoverAssets(deleted) }
        temporary.library.withCurrent {
            #expect(PHAsset.fetchAssets(with: nil).count == 2)
            #expect(PHAsset.fetchRecentlyDeletedAssets(with: nil).count == 0)
            let album = PHAssetCollection.fetchAssetCollections(with: .album, subtype: .any, options: nil)[0]
            #expect(PHAsset.fetchAssets(in: album, options: nil).count == 2, "album membership comes back")
        }
    }

    @Test func deletedAssetsExpireAfterThirtyDays() throws {
        let temporary = try TemporaryLibrary()
        let ids = try temporary.seed([SyntheticAsset(), SyntheticAsset()])
        try temporary.library.performChangesAndWait {
            PHAssetChangeRequest.deleteAssets(PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil))
        }
        try temporary.backdateTrash(ofAsset: ids[0], by: 31 * 86_400)
        try temporary.backdateTrash(ofAsset: ids[1], by: 29 * 86_400)
        #expect(try temporary.purgeExpiredTrash() == 1)
        #expect(temporary.library.withCurrent { PHAsset.fetchRecentlyDeletedAssets(with: nil).map(\.localIdentifier) } == [ids[1]])
    }

    @Test func permanentDeletion() throws {
        let temporary = try TemporaryLibrary()
        let ids = try temporary.seed([SyntheticAsset()])
        let result = temporary.library.withCurrent { PHAsset.fetchAssets(with: nil) }
        try temporary.library.performChangesAndWait { PHAssetChangeRequest.deleteAssetsPermanently(result) }
        temporary.library.withCurrent {
            #expect(PHAsset.fetchAssets(withLocalIdentifiers: ids, options: nil).count == 0)
            #expect(PHAsset.fetchRecentlyDeletedAssets(with: nil).count == 0)
        }
        // The old fetch result still counts it, and reads it as a vanished asset.
        #expect(result.count == 1)
        #expect(result[0].mediaType == .unknown)
    }
}
