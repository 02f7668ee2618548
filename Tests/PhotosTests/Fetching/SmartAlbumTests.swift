import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

@Suite("Smart albums")
struct SmartAlbumTests {
    static func count(_ subtype: PHAssetCollectionSubtype, in temporary: TemporaryLibrary) throws -> Int {
        try temporary.library.withCurrent {
            let album = try #require(PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: subtype, options: nil).firstObject)
            #expect(album.assetCollectionSubtype == subtype)
            return PHAsset.fetchAssets(in: album, options: nil).count
        }
    }

    @Test func everySmartAlbumExistsWithApplesSubtype() throws {
        let temporary = try TemporaryLibrary()
        let subtypes = temporary.library.withCurrent {
            PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .any, options: nil).map(\.assetCollectionSubtype)
        }
        #expect(Set(subtypes) == Set((200...220).compactMap(PHAssetCollectionSubtype.init(rawValue:))))
        #expect(subtypes.first == .smartAlbumUserLibrary)
    }

    @Test func membershipIsComputedFromMetadata() throws {
        let temporary = try TemporaryLibrary()
        var assets: [SyntheticAsset] = [
            SyntheticAsset(),
            SyntheticAsset(isFavorite: true),
            SyntheticAsset(mediaType: .video),
            SyntheticAsset(mediaType: .video, mediaSubtypes: .videoHighFrameRate),
            SyntheticAsset(mediaType: .video, mediaSubtypes: .videoTimelapse),
            SyntheticAsset(mediaType: .video, mediaSubtypes: .videoCinematic),
            SyntheticAsset(mediaType: .video, mediaSubtypes: .videoScreenRecording),
            SyntheticAsset(mediaSubtypes: .photoPanorama),
            SyntheticAsset(mediaSubtypes: .photoHDR),
            SyntheticAsset(mediaSubtypes: .photoScreenshot),
            SyntheticAsset(mediaSubtypes: .photoLive),
            SyntheticAsset(mediaSubtypes: .photoDepthEffect),
            SyntheticAsset(mediaSubtypes: .spatialMedia),
            SyntheticAsset(isHidden: true),
            SyntheticAsset(isFavorite: true, isHidden: true),
        ]
        var selfie = SyntheticAsset()
        selfie.selfPortrait = true
        var raw = SyntheticAsset()
        raw.raw = true
        var gif = SyntheticAsset()
        gif.animated = true
        var old = SyntheticAsset()
        old.addedDate = Date().addingTimeInterval(-40 * 86_400)
        var burst = SyntheticAsset()
        burst.burstIdentifier = "B"
        burst.representsBurst = true
        var burstFrame = SyntheticAsset()
        burstFrame.burstIdentifier = "B"
        assets += [selfie, raw, gif, old, burst, burstFrame]
        try temporary.seed(assets)

        let expected: [(PHAssetCollectionSubtype, Int)] = [
            (.smartAlbumUserLibrary, 18), (.smartAlbumFavorites, 1), (.smartAlbumVideos, 5), (.smartAlbumSlomoVideos, 1),
            (.smartAlbumTimelapses, 1), (.smartAlbumCinematic, 1), (.smartAlbumScreenRecordings, 1), (.smartAlbumPanoramas, 1),
            (.smartAlbumGeneric, 1), (.smartAlbumScreenshots, 1), (.smartAlbumLivePhotos, 1), (.smartAlbumDepthEffect, 1),
            (.smartAlbumSpatial, 1), (.smartAlbumAllHidden, 2), (.smartAlbumSelfPortraits, 1), (.smartAlbumRAW, 1),
            (.smartAlbumAnimated, 1), (.smartAlbumRecentlyAdded, 17), (.smartAlbumBursts, 1), (.smartAlbumLongExposures, 0),
            (.smartAlbumUnableToUpload, 0),
        ]
        for (subtype, count) in expected {
            #expect(try Self.count(subtype, in: temporary) == count, "\(subtype)")
        }
    }

    @Test func smartAlbumsCantBeEdited() throws {
        let temporary = try TemporaryLibrary()
        let favorites = try #require(
            temporary.library.withCurrent {
                PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumFavorites, options: nil).firstObject
            })
        var request: PHAssetCollectionChangeRequest?
        try temporary.library.performChangesAndWait {
            request = PHAssetCollectionChangeRequest(for: favorites)
        }
        #expect(request == nil)
        let error = #expect(throws: PHPhotosError.self) {
            try temporary.library.performChangesAndWait {
                PHAssetCollectionChangeRequest.deleteAssetCollections([favorites])
            }
        }
        #expect(error?.code == .changeNotSupported)
        #expect(error?.message.contains("Favorites") == true)
    }
}
