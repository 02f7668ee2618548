import AVFoundation
import Foundation
import PhotosTestSupport
import Testing

@Suite(.enabled(if: TestClip.isAvailable, "needs ffmpeg (apt install ffmpeg)"))
struct AVAssetTests {
    let folder: URL

    init() throws {
        folder = try TestImages.temporaryDirectory("avasset")
    }

    @Test func h264MovieTracksAndDuration() async throws {
        let url = try TestClip().write(to: folder.appendingPathComponent("clip.mp4"))
        let asset = AVURLAsset(url: url)
        let (duration, tracks) = try await asset.load(.duration, .tracks)
        #expect(abs(duration.seconds - 2) < 0.1)
        let video = try #require(try await asset.loadTracks(withMediaType: .video).first)
        #expect(tracks.count == 2)
        #expect(video.naturalSize == CGSize(width: 320, height: 240))
        #expect(video.preferredTransform.isIdentity)
        #expect(video.nominalFrameRate == 30)
        #expect(video.codecName == "h264")
        #expect(video.asset === asset)
        let (size, rate) = try await video.load(.naturalSize, .nominalFrameRate)
        #expect(size.width == 320 && rate == 30)
        let audio = try #require(asset.tracks(withMediaType: .audio).first)
        #expect(audio.codecName == "aac")
        #expect(audio.sampleRate == 48000)
        #expect(asset.isPlayable && asset.isExportable)
        var error: NSError?
        #expect(asset.statusOfValue(forKey: "duration", error: &error) == .loaded)
    }

    @Test func portraitPhoneVideoHasApplesTransform() async throws {
        let url = try TestClip.iPhone(width: 640, height: 360, rotation: 90).write(to: folder.appendingPathComponent("IMG_0001.MOV"))
        let asset = AVURLAsset(url: url)
        let video = try #require(try await asset.loadTracks(withMediaType: .video).first)
        #expect(video.codecName == "hevc")
        #expect(video.codecTag == "hvc1")
        #expect(video.naturalSize == CGSize(width: 640, height: 360))
        let t = try await video.load(.preferredTransform)
        #expect(t == CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 360, ty: 0))
        let shown = video.naturalSize.applying(t)
        #expect(CGSize(width: abs(shown.width), height: abs(shown.height)) == CGSize(width: 360, height: 640))
        #expect(asset.preferredTransform == t)
    }

    @Test func upsideDownAndLeftTurnedVideos() throws {
        for (rotation, expected) in [(180, CGAffineTransform(a: -1, b: 0, c: 0, d: -1, tx: 320, ty: 240)), (270, CGAffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: 320))] {
            var clip = TestClip()
            clip.rotation = rotation
            clip.audio = false
            let asset = AVURLAsset(url: try clip.write(to: folder.appendingPathComponent("r\(rotation).mp4")))
            #expect(asset.tracks.first?.preferredTransform == expected, "rotation \(rotation)")
        }
    }

    @Test func damagedFileFailsToLoadWithAReason() async throws {
        let url = folder.appendingPathComponent("broken.mov")
        try TestClip().writeTruncated(to: url, keeping: 0.5)
        let asset = AVURLAsset(url: url)
        await #expect(throws: AVError.self) { try await asset.load(.duration) }
        do {
            _ = try await asset.load(.tracks)
            Issue.record("a damaged file loaded")
        } catch let error as AVError {
            #expect(error.message.contains("broken.mov"))
        }
        #expect(asset.duration == .zero)
        #expect(asset.tracks.isEmpty)
        #expect(!asset.isPlayable)
        var error: NSError?
        #expect(asset.statusOfValue(forKey: "duration", error: &error) == .failed)
        #expect(error?.domain == AVFoundationErrorDomain)
        #expect(AVAssetExportSession.exportPresets(compatibleWith: asset).isEmpty)
    }

    @Test func olderKeyValueLoadingCallsBack() async throws {
        let url = try TestClip().write(to: folder.appendingPathComponent("kv.mp4"))
        let asset = AVURLAsset(url: url)
        var error: NSError?
        #expect(asset.statusOfValue(forKey: "duration", error: &error) == .unknown)
        await withCheckedContinuation { continuation in
            asset.loadValuesAsynchronously(forKeys: ["duration", "tracks"]) { continuation.resume() }
        }
        #expect(asset.statusOfValue(forKey: "tracks", error: &error) == .loaded)
        #expect(abs(CMTimeGetSeconds(asset.duration) - 2) < 0.1)
        let item = AVPlayerItem(asset: asset)
        #expect(item.status == .readyToPlay)
        #expect(item.presentationSize == CGSize(width: 320, height: 240))
        #expect(abs(item.duration.seconds - 2) < 0.1)
    }

    @Test func missingFileIsNamed() async throws {
        let asset = AVURLAsset(url: folder.appendingPathComponent("nothing.mp4"))
        do {
            _ = try await asset.load(.duration)
            Issue.record("a missing file loaded")
        } catch let error as AVError {
            #expect(error.code == .fileFormatNotRecognized)
            #expect(error.message.contains("nothing.mp4"))
        }
        #expect(AVPlayerItem(asset: asset).status == .failed || AVPlayerItem(asset: asset).status == .unknown)
    }
}
