import Foundation
import PhotosTestSupport
import PhotosLocking
import Testing

@testable import Photos

/// Real clips made by ffmpeg, added to a real library, requested as PhotoKit apps do.
@Suite("Video requests", .enabled(if: TestClip.isAvailable, "needs ffmpeg (apt install ffmpeg)"))
struct VideoRequestTests {
    static func addVideo(_ temporary: TemporaryLibrary, _ clip: TestClip, name: String) throws -> PHAsset {
        let url = try clip.write(to: temporary.scratch.appendingPathComponent(name))
        return try add(temporary) { PHAssetCreationRequest.creationRequestForAssetFromVideo(atFileURL: url) }
    }

    static func add(_ temporary: TemporaryLibrary, _ make: () -> PHAssetChangeRequest?) throws -> PHAsset {
        var identifier: String?
        try temporary.library.performChangesAndWait { identifier = make()?.placeholderForCreatedAsset?.localIdentifier }
        let id = try #require(identifier)
        return try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [id], options: nil).firstObject })
    }

    /// A Live Photo as an iPhone writes it: a JPEG still and a MOV sharing a content identifier.
    static func addLivePhoto(_ temporary: TemporaryLibrary, identifier: String = "5A7B1C2D-0000-4000-8000-00000000ABCD") throws -> PHAsset {
        var exif = ExifBuilder(make: "Apple", model: "iPhone 15")
        exif.appleMakerNote = ExifBuilder.AppleMakerNote(contentIdentifier: identifier)
        let still = temporary.scratch.appendingPathComponent("IMG_0042.JPG")
        try TestImages.jpeg(width: 400, height: 300, exif: exif).write(to: still)
        var clip = TestClip.iPhone(width: 400, height: 300, rotation: 0, duration: 1.5)
        clip.appleKeys = ["com.apple.quicktime.content.identifier": identifier]
        let movie = try clip.write(to: temporary.scratch.appendingPathComponent("IMG_0042.MOV"))
        return try add(temporary) {
            let request = PHAssetCreationRequest.forAsset()
            request.addResource(with: .photo, fileURL: still, options: nil)
            request.addResource(with: .pairedVideo, fileURL: movie, options: nil)
            return request
        }
    }

    /// Makes a request and waits for its one delivery.
    static func deliver<T>(_ start: (@escaping (T?, [AnyHashable: Any]?) -> Void) -> PHImageRequestID) async -> (T?, [AnyHashable: Any]) {
        let stream = AsyncStream<UncheckedSendable<(T?, [AnyHashable: Any])>>.makeStream()
        _ = start { value, info in stream.continuation.yield(UncheckedSendable((value, info ?? [:]))) }
        for await delivered in stream.stream { return delivered.value }
        fatalError("unreachable")
    }

    @Test func avAssetOfAnH264Video() async throws {
        let temporary = try TemporaryLibrary()
        let video = try Self.addVideo(temporary, TestClip(), name: "clip.mp4")
        #expect(video.mediaType == .video)
        #expect(abs(video.duration - 2) < 0.1)
        let (avAsset, info) = await Self.deliver { handler in
            PHImageManager.default().requestAVAsset(forVideo: video, options: nil) { asset, mix, info in
                #expect(mix == nil)
                handler(asset, info)
            }
        }
        let urlAsset = try #require(avAsset as? AVURLAsset)
        #expect(urlAsset.url.path.hasPrefix(temporary.url.path))
        #expect(info[PHImageResultRequestIDKey] as? NSNumber != nil)
        #expect(info[PHImageErrorKey] == nil)
        let (duration, tracks) = try await urlAsset.load(.duration, .tracks)
        #expect(abs(duration.seconds - 2) < 0.1)
        #expect(tracks.map(\.mediaType) == [.video, .audio])
    }

    @Test func playerItemIsReadToPlay() async throws {
        let temporary = try TemporaryLibrary()
        let video = try Self.addVideo(temporary, TestClip.iPhone(), name: "IMG_0001.MOV")
        #expect((video.pixelWidth, video.pixelHeight) == (360, 640), "pixel size after rotation")
        let item = try await PHImageManager.default().playerItem(forVideo: video)
        #expect(item.status == .readyToPlay)
        #expect(item.presentationSize == CGSize(width: 360, height: 640))
        #expect(abs(CMTimeGetSeconds(item.duration) - 2) < 0.1)
        let track = try #require(item.asset.tracks(withMediaType: .video).first)
        #expect(track.codecName == "hevc")
        #expect(track.preferredTransform == CGAffineTransform(a: 0, b: 1, c: -1, d: 0, tx: 360, ty: 0))
    }

    @Test func exportSessionWritesThePresetsSize() async throws {
        let temporary = try TemporaryLibrary()
        let video = try Self.addVideo(temporary, TestClip.iPhone(width: 1920, height: 1080, duration: 1), name: "IMG_0002.MOV")
        let (session, info) = await Self.deliver { handler in
            PHImageManager.default().requestExportSession(forVideo: video, options: nil, exportPreset: AVAssetExportPreset640x480, resultHandler: handler)
        }
        let export = try #require(session, "\(info)")
        #expect(export.presetName == AVAssetExportPreset640x480)
        let output = temporary.scratch.appendingPathComponent("export.mp4")
        export.outputURL = output
        export.outputFileType = .mp4
        await withCheckedContinuation { continuation in export.exportAsynchronously { continuation.resume() } }
        #expect(export.status == .completed, "\(String(describing: export.error))")
        let exported = try await AVURLAsset(url: output).loadTracks(withMediaType: .video)
        #expect(exported.first?.naturalSize == CGSize(width: 360, height: 640))
        #expect(exported.first?.codecName == "h264")

        let (none, failure) = await Self.deliver { handler in
            PHImageManager.default().requestExportSession(forVideo: video, options: nil, exportPreset: "AVAssetExportPresetNope", resultHandler: handler)
        }
        #expect(none == nil)
        #expect((failure[PHImageErrorKey] as? PHPhotosError)?.localizedDescription.contains("AVAssetExportPresetNope") == true)
    }

    @Test func photosAreNotVideos() async throws {
        let temporary = try TemporaryLibrary()
        let photo = try Self.add(temporary) {
            PHAssetCreationRequest.creationRequestForAssetFromImage(atFileURL: try! TestImages.writeJPEG(to: temporary.scratch.appendingPathComponent("a.jpg")))
        }
        let (asset, info) = await Self.deliver { handler in
            PHImageManager.default().requestAVAsset(forVideo: photo, options: nil) { asset, _, info in handler(asset, info) }
        }
        #expect(asset == nil)
        #expect((info[PHImageErrorKey] as? PHPhotosError)?.code == .requestNotSupportedForAsset)
        await #expect(throws: PHPhotosError.self) { try await PHImageManager.default().livePhoto(for: photo) }
    }

    @Test func livePhotoCarriesItsStillAndMovie() async throws {
        let temporary = try TemporaryLibrary()
        let asset = try Self.addLivePhoto(temporary)
        #expect(asset.mediaSubtypes.contains(.photoLive))
        let (livePhoto, info) = await Self.deliver { handler in
            PHImageManager.default().requestLivePhoto(for: asset, targetSize: CGSize(width: 200, height: 200), contentMode: .aspectFit, options: nil, resultHandler: handler)
        }
        let live = try #require(livePhoto, "\(info)")
        #expect((info[PHImageResultIsDegradedKey] as? NSNumber)?.boolValue == false)
        #expect(live.size == CGSize(width: 200, height: 150))
        let resources = PHAssetResource.assetResources(for: live)
        #expect(resources.map(\.type) == [.photo, .pairedVideo])
        #expect(resources.allSatisfy { $0.assetLocalIdentifier == asset.localIdentifier })
        let movie = AVURLAsset(url: live.videoURL)
        #expect(abs(try await movie.load(.duration).seconds - 1.5) < 0.1)
        let full = try await PHImageManager.default().livePhoto(for: asset)
        #expect(full.size == CGSize(width: 400, height: 300))
    }

    /// A video kept in a remote store (an http URL), served slowly by a local server.
    static func addRemoteVideo(_ temporary: TemporaryLibrary, server: TestHTTPServer) throws -> PHAsset {
        let data = try Data(contentsOf: try TestClip().write(to: temporary.scratch.appendingPathComponent("remote.mp4")))
        let url = server.serve(data, at: "/store/CLIP.mp4")
        return try add(temporary) {
            let request = PHAssetCreationRequest.forAsset()
            let options = PHAssetResourceCreationOptions()
            options.shouldReferenceFile = true
            request.addResource(with: .video, fileURL: url, options: options)
            return request
        }
    }

    @Test func remoteVideosNeedNetworkAccessAndReportProgress() async throws {
        let temporary = try TemporaryLibrary()
        let server = try TestHTTPServer(chunkSize: 8 * 1024, chunkDelay: 0.001)
        let video = try Self.addRemoteVideo(temporary, server: server)
        #expect(video.mediaType == .video)
        let (none, info) = await Self.deliver { handler in
            PHImageManager.default().requestAVAsset(forVideo: video, options: nil) { asset, _, info in handler(asset, info) }
        }
        #expect(none == nil)
        #expect((info[PHImageErrorKey] as? PHPhotosError)?.code == .networkAccessRequired)
        #expect((info[PHImageResultIsInCloudKey] as? NSNumber)?.boolValue == true)

        let fractions = Mutex<[Double]>([])
        let options = PHVideoRequestOptions()
        options.isNetworkAccessAllowed = true
        options.progressHandler = { fraction, _, _, _ in fractions.withLock { $0.append(fraction) } }
        let item = try await PHImageManager.default().playerItem(forVideo: video, options: options)
        #expect(item.status == .readyToPlay)
        let seen = fractions.withLock { $0 }
        #expect(seen.count > 2 && seen == seen.sorted() && seen.last == 1, "\(seen)")
    }

    @Test func cancellingDuringADownloadDeliversTheCancellationOnceAndStopsIt() async throws {
        let temporary = try TemporaryLibrary()
        let server = try TestHTTPServer(chunkSize: 4 * 1024, chunkDelay: 0.02)
        let video = try Self.addRemoteVideo(temporary, server: server)
        let deliveries = Mutex<[Bool]>([])
        let done = AsyncStream<Void>.makeStream()
        let options = PHVideoRequestOptions()
        options.isNetworkAccessAllowed = true
        let manager = PHImageManager()
        // Cancelled from a progress report: the download is under way.
        let requestID = Mutex<PHImageRequestID?>(nil)
        let progressAfterCancel = Mutex(0)
        options.progressHandler = { _, _, _, _ in
            if let id = requestID.withLock({ $0 }) {
                manager.cancelImageRequest(id)
                progressAfterCancel.withLock { $0 += 1 }
            }
        }
        let id = manager.requestPlayerItem(forVideo: video, options: options) { item, info in
            #expect(item == nil)
            let cancelled = (info?[PHImageCancelledKey] as? NSNumber)?.boolValue == true
            deliveries.withLock { $0.append(cancelled) }
            done.continuation.yield()
        }
        requestID.withLock { $0 = id }
        for await _ in done.stream { break }
        // The download stops at its next chunk; the request's work then ends without a delivery.
        await withCheckedContinuation { continuation in MediaRequests.queue.async(flags: .barrier) { continuation.resume() } }
        #expect(deliveries.withLock { $0 } == [true])
        #expect(progressAfterCancel.withLock { $0 } == 1, "the download stopped at the next chunk")
        let copies = FileManager.default.enumerator(atPath: temporary.url.appendingPathComponent("cache/remote").path)?.allObjects ?? []
        #expect(copies.compactMap { $0 as? String }.filter { $0.hasSuffix(".mp4") }.isEmpty, "no partial copy kept")
    }

    @Test func damagedMovieFailsWithAReason() async throws {
        let temporary = try TemporaryLibrary()
        let video = try Self.addVideo(temporary, TestClip(), name: "d.mp4")
        let file = try #require(temporary.library.withCurrent { PHAssetResource.assetResources(for: video).first?.fileURL })
        try TestClip().writeTruncated(to: file, keeping: 0.3)
        do {
            _ = try await PHImageManager.default().playerItem(forVideo: video)
            Issue.record("a damaged movie became a player item")
        } catch let error as PHPhotosError {
            #expect(error.localizedDescription.contains("d.mp4") || error.localizedDescription.contains(file.lastPathComponent))
        }
    }
}
