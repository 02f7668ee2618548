import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// What import reads from real movies: size after rotation, length, rate, Apple's QuickTime keys.
@Suite("Video import", .enabled(if: TestClip.isAvailable, "needs ffmpeg (apt install ffmpeg)"))
struct VideoImportTests {
    @Test func quickTimeKeysGiveDateZonePlaceAndCamera() throws {
        let temporary = try TemporaryLibrary()
        var clip = TestClip.iPhone(width: 640, height: 360, rotation: 90, duration: 1.5)
        clip.appleKeys = [
            "com.apple.quicktime.creationdate": "2023-07-14T18:30:05+0200",
            "com.apple.quicktime.location.ISO6709": "+48.8584+002.2945+035.000/",
            "com.apple.quicktime.make": "Apple",
            "com.apple.quicktime.model": "iPhone 15 Pro",
        ]
        let video = try VideoRequestTests.addVideo(temporary, clip, name: "IMG_0900.MOV")
        #expect((video.pixelWidth, video.pixelHeight) == (360, 640))
        #expect(abs(video.duration - 1.5) < 0.1)
        #expect(video.creationDate == ISO8601DateFormatter().date(from: "2023-07-14T16:30:05Z"))
        let location = try #require(video.location)
        #expect(abs(location.coordinate.latitude - 48.8584) < 1e-4 && abs(location.coordinate.longitude - 2.2945) < 1e-4)
        #expect(video.cameraInfo?.model == "iPhone 15 Pro")
        #expect(!video.mediaSubtypes.contains(.videoHighFrameRate))
    }

    @Test(arguments: [("Time-lapse", PHAssetMediaSubtype.videoTimelapse, PHAssetCollectionSubtype.smartAlbumTimelapses),
                      ("Cinematic", .videoCinematic, .smartAlbumCinematic), ("Slo-mo", .videoHighFrameRate, .smartAlbumSlomoVideos)])
    func applesCaptureModeSaysWhatKindOfVideo(mode: String, subtype: PHAssetMediaSubtype, album: PHAssetCollectionSubtype) throws {
        let temporary = try TemporaryLibrary()
        var clip = TestClip.iPhone(width: 320, height: 240, rotation: 0, duration: 1)
        clip.appleKeys = ["com.apple.photos.captureMode": mode]
        let video = try VideoRequestTests.addVideo(temporary, clip, name: "IMG_0902.MOV")
        #expect(video.mediaSubtypes == subtype)
        let members = temporary.library.withCurrent {
            PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: album, options: nil).firstObject
                .map { PHAsset.fetchAssets(in: $0, options: nil).count }
        }
        #expect(members == 1)
    }

    @Test func slowMotionIsAHighFrameRateVideo() throws {
        let temporary = try TemporaryLibrary()
        var clip = TestClip.iPhone(width: 320, height: 240, rotation: 0, duration: 1)
        clip.frameRate = 240
        let video = try VideoRequestTests.addVideo(temporary, clip, name: "IMG_0901.MOV")
        #expect(video.mediaSubtypes.contains(.videoHighFrameRate))
        #expect(video.playbackStyle == .video)
        let fetched = temporary.library.withCurrent {
            PHAssetCollection.fetchAssetCollections(with: .smartAlbum, subtype: .smartAlbumSlomoVideos, options: nil).firstObject
                .map { PHAsset.fetchAssets(in: $0, options: nil).count }
        }
        #expect(fetched == 1)
    }
}
