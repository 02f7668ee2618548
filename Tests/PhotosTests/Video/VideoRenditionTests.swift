import Foundation
import PhotosTestSupport
import PhotosLocking
import PhotosStore
import Testing

@testable import Photos

/// Browser renditions: decided from what ffprobe says, made by the export session, recorded
/// in the library, retried with backoff.
@Suite("Video renditions", .enabled(if: TestClip.isAvailable, "needs ffmpeg (apt install ffmpeg)"))
struct VideoRenditionTests {
    /// A library whose rendition events arrive on a stream.
    static func library() throws -> (TemporaryLibrary, AsyncStream<VideoRenditionEvent>) {
        let (stream, continuation) = AsyncStream<VideoRenditionEvent>.makeStream()
        var configuration = PHPhotoLibrary.Configuration()
        configuration.delegate = EventDelegate(videoRenditions: { continuation.yield($0) })
        return (try TemporaryLibrary(configuration: configuration), stream)
    }

    static var h264MOV: TestClip {
        var clip = TestClip()
        clip.container = .mov
        return clip
    }

    /// What ffprobe, the oracle, says of a file.
    static func probe(_ url: URL) throws -> (codec: String, width: Int, height: Int, rotated: Bool, brand: String, moovFirst: Bool) {
        let data = try ExternalTool.output("/usr/bin/ffprobe", ["-v", "error", "-print_format", "json", "-show_streams", "-show_format", url.path])
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let video = try #require((root["streams"] as? [[String: Any]])?.first { $0["codec_type"] as? String == "video" })
        let brand = ((root["format"] as? [String: Any])?["tags"] as? [String: Any])?["major_brand"] as? String ?? ""
        let bytes = try Data(contentsOf: url)
        let moov = bytes.range(of: Data("moov".utf8))?.lowerBound ?? .max
        let mdat = bytes.range(of: Data("mdat".utf8))?.lowerBound ?? .max
        return (
            video["codec_name"] as? String ?? "", video["width"] as? Int ?? 0, video["height"] as? Int ?? 0,
            video["side_data_list"] != nil, brand, moov < mdat
        )
    }

    @Test func eachVideoGetsWhatItsBrowserNeeds() async throws {
        let (temporary, _) = try Self.library()
        let mp4 = try VideoRequestTests.addVideo(temporary, TestClip(), name: "plays.mp4")
        let hevc = try VideoRequestTests.addVideo(temporary, TestClip.iPhone(width: 1920, height: 1080, rotation: 90, duration: 1), name: "IMG_0003.MOV")
        let mov = try VideoRequestTests.addVideo(temporary, Self.h264MOV, name: "old.mov")
        let renditions = temporary.library.videoRenditions
        #expect(try renditions.counts() == RenditionCounts(pending: 3))

        let asIs = try renditions.playable(for: mp4)
        #expect(!asIs.isRendition && asIs.mimeType == "video/mp4")
        #expect(asIs.url == PHAssetResource.assetResources(for: mp4).first?.fileURL)

        let transcoded = try renditions.playable(for: hevc)
        #expect(transcoded.isRendition && transcoded.mimeType == "video/mp4")
        let made = try Self.probe(transcoded.url)
        #expect((made.codec, made.width, made.height, made.rotated) == ("h264", 1080, 1920, false))
        #expect(made.moovFirst, "fast start: the header before the media")

        let remuxed = try Self.probe(try renditions.playable(for: mov).url)
        #expect(remuxed.codec == "h264" && remuxed.brand != "qt  ")
        #expect(try renditions.counts() == RenditionCounts(made: 2, notNeeded: 1))

        // Medium-quality video requests get the rendition.
        let options = PHVideoRequestOptions()
        options.deliveryMode = .mediumQualityFormat
        let medium = try await PHImageManager.default().avAsset(forVideo: hevc, options: options)
        #expect((medium as? AVURLAsset)?.url == transcoded.url)
        let high = try await PHImageManager.default().avAsset(forVideo: hevc)
        #expect((high as? AVURLAsset)?.url != transcoded.url)
    }

    @Test func workersMakeWhatIsPendingAfterARestartAndEditsMakeItPendingAgain() async throws {
        let (temporary, events) = try Self.library()
        let hevc = try VideoRequestTests.addVideo(temporary, TestClip.iPhone(duration: 1), name: "IMG_0004.MOV")
        _ = try VideoRequestTests.addVideo(temporary, TestClip(), name: "fine.mp4")
        // Another process (a new library object on the same folder) finds the work waiting.
        var configuration = PHPhotoLibrary.Configuration()
        let (reopenedEvents, continuation) = AsyncStream<VideoRenditionEvent>.makeStream()
        configuration.delegate = EventDelegate(videoRenditions: { continuation.yield($0) })
        let reopened = try temporary.openAgain(configuration: configuration)
        reopened.videoRenditions.startBackgroundWork()
        defer { reopened.videoRenditions.stopBackgroundWork() }
        var finished: [VideoRenditionEvent] = []
        for await event in reopenedEvents {
            if case .started(_, let foreground) = event { #expect(!foreground) }
            if case .finished = event { finished.append(event) }
            if finished.count == 2 { break }
        }
        #expect(Set(finished.map { "\($0)" }).count == 2)
        #expect(try temporary.library.videoRenditions.counts() == RenditionCounts(made: 1, notNeeded: 1))
        _ = events

        // An edit makes the video's rendition pending again, and a worker remakes it.
        let input = try await VideoEditingTests.input(hevc)
        let output = PHContentEditingOutput(contentEditingInput: input)
        let recipe = PHBasicAdjustments(filter: .mono)
        try recipe.render(movieAt: try #require((input.audiovisualAsset as? AVURLAsset)?.url), to: output.renderedContentURL)
        output.adjustmentData = recipe.adjustmentData
        try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: hevc).contentEditingOutput = output }
        #expect(try temporary.library.videoRenditions.counts().pending == 1)
        reopened.videoRenditions.wake()
        for await event in reopenedEvents {
            if case .finished(let uuid, _) = event, uuid == hevc.uuid { break }
        }
        #expect(try temporary.library.videoRenditions.counts().pending == 0)

        // Deleting the video for good removes its work.
        try temporary.library.performChangesAndWait { PHAssetChangeRequest.deleteAssetsPermanently([hevc] as NSArray) }
        #expect(try temporary.library.videoRenditions.counts().total == 1)
    }

    @Test func aDamagedVideoFailsWithItsReasonIsRetriedLaterAndBlocksNothing() async throws {
        let (temporary, _) = try Self.library()
        let broken = try VideoRequestTests.addVideo(temporary, TestClip.iPhone(duration: 1), name: "IMG_0005.MOV")
        let good = try VideoRequestTests.addVideo(temporary, TestClip.iPhone(rotation: 0, duration: 1), name: "IMG_0006.MOV")
        let file = try #require(PHAssetResource.assetResources(for: broken).first?.fileURL)
        try TestClip.iPhone(duration: 1).writeTruncated(to: file, keeping: 0.2)

        let before = Date()
        let counts = try temporary.library.videoRenditions.makeAllDue(retryingFailures: false)
        #expect(counts == RenditionCounts(made: 1, failed: 1))
        let failure = try #require(try temporary.library.store.renditions.failed().first)
        #expect(failure.assetUUID == broken.uuid && failure.attempts == 1)
        #expect(failure.lastError?.isEmpty == false, "the reason is kept")
        #expect(failure.notBefore.timeIntervalSince(before) >= 59, "retried a minute later at the soonest")
        #expect(throws: PHPhotosError.self) { try temporary.library.videoRenditions.playable(for: broken) }
        #expect(try temporary.library.videoRenditions.playable(for: good).isRendition)

        // Not due yet: a run leaves it; a warm run that retries failures tries it again.
        #expect(try temporary.library.videoRenditions.makeAllDue(retryingFailures: false).failed == 1)
        #expect(try temporary.library.store.renditions.failed().first?.attempts == 2, "the first-need request above was an attempt")
        _ = try temporary.library.videoRenditions.makeAllDue(retryingFailures: true)
        let again = try #require(try temporary.library.store.renditions.failed().first)
        #expect(again.attempts == 3)
        #expect(again.notBefore.timeIntervalSince(before) >= 239, "backoff doubles: \(again.notBefore.timeIntervalSince(before))")
    }

    @Test func livePhotosMovieGetsARenditionPhotosDoNot() async throws {
        let (temporary, _) = try Self.library()
        let live = try VideoRequestTests.addLivePhoto(temporary)
        _ = try VideoRequestTests.add(temporary) {
            PHAssetCreationRequest.creationRequestForAssetFromImage(atFileURL: try! TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("still.jpg")))
        }
        #expect(try temporary.library.videoRenditions.counts() == RenditionCounts(pending: 1))
        let playable = try temporary.library.videoRenditions.playable(for: live)
        #expect(playable.isRendition, "an iPhone's HEVC movie")
        #expect(try Self.probe(playable.url).codec == "h264")
    }

    @Test func concurrentFirstNeedsShareOneRender() async throws {
        let (temporary, events) = try Self.library()
        let hevc = try VideoRequestTests.addVideo(temporary, TestClip.iPhone(duration: 1), name: "IMG_0007.MOV")
        let renditions = temporary.library.videoRenditions
        let urls = Mutex<[URL]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            if let url = try? renditions.playable(for: hevc).url { urls.withLock { $0.append(url) } }
        }
        #expect(Set(urls.withLock { $0 }).count == 1 && urls.withLock { $0.count } == 4)
        var started = 0
        for await event in events {
            if case .started = event { started += 1 }
            if case .finished = event { break }
        }
        #expect(started == 1)
    }
}
