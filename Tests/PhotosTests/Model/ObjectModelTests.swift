import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

@Suite("Object model")
struct ObjectModelTests {
    @Test func localIdentifiersHaveApplesShape() throws {
        let temporary = try TemporaryLibrary()
        try temporary.seed([SyntheticAsset()])
        try temporary.library.withCurrent {
            let asset = try #require(PHAsset.fetchAssets(with: nil).firstObject)
            #expect(asset.localIdentifier.wholeMatch(of: /[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}\/L0\/001/) != nil)
            let favorites = try #require(
                PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumFavorites, options: nil).firstObject)
            #expect(favorites.localIdentifier.hasSuffix("/L0/040"))
        }
        try temporary.library.performChangesAndWait {
            _ = PHCollectionListChangeRequest.creationRequestForCollectionList(withTitle: "Trips")
        }
        let folder = try #require(
            temporary.library.withCurrent { PHCollectionList.fetchCollectionLists(with: .folder, subtype: .any, options: nil).firstObject })
        #expect(folder.localIdentifier.hasSuffix("/L0/020"))
    }

    @Test func equalityAndHashingGoByLocalIdentifier() throws {
        let temporary = try TemporaryLibrary()
        try temporary.seed([SyntheticAsset(), SyntheticAsset()])
        try temporary.library.withCurrent {
            let first = PHAsset.fetchAssets(with: nil)
            let second = PHAsset.fetchAssets(with: nil)
            let a = first[0], b = second[0]
            #expect(a !== b)
            #expect(a == b)
            #expect(a.isEqual(b))
            #expect(a.hash == b.hash)
            #expect(Set([a, b, second[1]]).count == 2)
            #expect(a != second[1])
            let placeholder = try #require(ObjectIdentifier(a) != ObjectIdentifier(b) ? a : nil)
            #expect(first.contains(placeholder))
        }
    }

    @Test func objectsAreSnapshots() throws {
        let temporary = try TemporaryLibrary()
        try temporary.seed([SyntheticAsset()])
        let before = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).firstObject })
        #expect(before.isFavorite == false)
        try temporary.library.performChangesAndWait {
            PHAssetChangeRequest(for: before).isFavorite = true
        }
        // The instance held keeps its old value; a new fetch sees the new one.
        #expect(before.isFavorite == false)
        let after = try #require(temporary.library.withCurrent { PHAsset.fetchAssets(with: nil).firstObject })
        #expect(after.isFavorite == true)
        #expect(after == before)
        #expect(after.modificationDate! > before.modificationDate!)
    }

    @Test func assetPropertiesRoundTripFromTheStore() throws {
        let temporary = try TemporaryLibrary()
        var video = SyntheticAsset(mediaType: .video, mediaSubtypes: [.videoHighFrameRate])
        video.duration = 12.5
        video.pixelWidth = 1920
        video.pixelHeight = 1080
        video.latitude = 48.8584
        video.longitude = 2.2945
        video.burstIdentifier = nil
        var burst = SyntheticAsset(mediaSubtypes: [.photoHDR, .photoPanorama])
        burst.burstIdentifier = "BURST-1"
        burst.burstSelectionTypes = [.autoPick, .userPick]
        burst.representsBurst = true
        burst.isFavorite = true
        try temporary.seed([video, burst])
        try temporary.library.withCurrent {
            let fetched = PHAsset.fetchAssets(withLocalIdentifiers: [video.localIdentifier, burst.localIdentifier], options: nil)
            let v = try #require(fetched.first { $0.localIdentifier == video.localIdentifier })
            #expect(v.mediaType == .video)
            #expect(v.mediaSubtypes == [.videoHighFrameRate])
            #expect(v.duration == 12.5)
            #expect(v.pixelWidth == 1920 && v.pixelHeight == 1080)
            #expect(v.location?.coordinate.latitude == 48.8584)
            #expect(v.location?.coordinate.longitude == 2.2945)
            #expect(v.playbackStyle == .video)
            #expect(v.sourceType == .typeUserLibrary)
            #expect(v.canPerform(.content) && v.canPerform(.delete) && v.canPerform(.properties))
            let b = try #require(fetched.first { $0.localIdentifier == burst.localIdentifier })
            #expect(b.mediaSubtypes.contains(.photoHDR) && b.mediaSubtypes.contains(.photoPanorama))
            #expect(b.burstIdentifier == "BURST-1")
            #expect(b.burstSelectionTypes == [.autoPick, .userPick])
            #expect(b.representsBurst)
            #expect(b.isFavorite)
            #expect(b.hasAdjustments == false && b.adjustmentFormatIdentifier == nil)
            #expect(b.location == nil)
        }
    }

    @Test func rawValuesAreApples() {
        #expect(PHAssetMediaType.image.rawValue == 1 && PHAssetMediaType.audio.rawValue == 3)
        #expect(PHAssetMediaSubtype.photoLive.rawValue == 8 && PHAssetMediaSubtype.videoCinematic.rawValue == 1 << 21)
        #expect(PHAssetCollectionSubtype.smartAlbumUserLibrary.rawValue == 209)
        #expect(PHAssetCollectionSubtype.smartAlbumScreenRecordings.rawValue == 220)
        #expect(PHAssetCollectionSubtype.any.rawValue == Int.max)
        #expect(PHCollectionListSubtype.regularFolder.rawValue == 100)
        #expect(PHAssetResourceType.pairedVideo.rawValue == 9 && PHAssetResourceType.photoProxy.rawValue == 19)
        #expect(PHCollectionEditOperation.rename.rawValue == 7)
        #expect(PHAssetEditOperation.properties.rawValue == 3)
        #expect(PHAuthorizationStatus.limited.rawValue == 4)
    }

    @Test func collectionCapabilities() throws {
        let temporary = try TemporaryLibrary()
        try temporary.library.performChangesAndWait {
            _ = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: "Mine")
        }
        try temporary.library.withCurrent {
            let album = try #require(PHAssetCollection.fetchAssetCollections(with: .album, subtype: .albumRegular, options: nil).firstObject)
            #expect(album.canContainAssets && !album.canContainCollections)
            #expect(album.canPerform(.addContent) && album.canPerform(.rename) && album.canPerform(.delete))
            let smart = try #require(PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumVideos, options: nil).firstObject)
            for operation in PHCollectionEditOperation.allCases { #expect(!smart.canPerform(operation)) }
            #expect(smart.localizedTitle == "Videos")
            #expect(smart.estimatedAssetCount == NSNotFound)
        }
    }
}
