import Foundation
import PhotosTestSupport
import PhotosLocking
import Testing

@testable import Photos

/// Content editing of videos and Live Photos: rendered movies with adjustment data,
/// resumable and revertible.
@Suite("Video editing", .enabled(if: TestClip.isAvailable, "needs ffmpeg (apt install ffmpeg)"))
struct VideoEditingTests {
    static func input(_ asset: PHAsset, canHandle: @escaping (PHAdjustmentData) -> Bool = { _ in false }) async throws -> PHContentEditingInput {
        let options = PHContentEditingInputRequestOptions()
        options.canHandleAdjustmentData = canHandle
        let delivered = await VideoRequestTests.deliver { handler in
            let id = asset.requestContentEditingInput(with: options) { input, info in handler(input, info) }
            return PHImageRequestID(id)
        }
        return try #require(delivered.0, "\(delivered.1)")
    }

    static func refetch(_ asset: PHAsset, in temporary: TemporaryLibrary) throws -> PHAsset {
        try #require(temporary.library.withCurrent { PHAsset.fetchAssets(withLocalIdentifiers: [asset.localIdentifier], options: nil).firstObject })
    }

    @Test func trimAndRotateIsRenderedResumableAndRevertible() async throws {
        let temporary = try TemporaryLibrary()
        let video = try VideoRequestTests.addVideo(temporary, TestClip(), name: "trip.mp4")
        #expect(video.canPerform(.content))
        let input = try await Self.input(video)
        #expect(input.mediaType == .video)
        #expect(input.fullSizeImageURL == nil && input.displaySizeImage == nil)
        let movie = try #require(input.audiovisualAsset as? AVURLAsset)
        #expect(abs(try await movie.load(.duration).seconds - 2) < 0.1)

        let recipe = PHBasicAdjustments(
            quarterTurns: 1, saturation: 0.5,
            timeRange: CMTimeRange(start: CMTime(value: 1, timescale: 2), duration: CMTime(value: 1, timescale: 1)))
        let output = PHContentEditingOutput(contentEditingInput: input)
        #expect(output.renderedContentURL.pathExtension == "mov")
        #expect(output.defaultRenderedContentType == .quickTimeMovie)
        try recipe.render(movieAt: movie.url, to: output.renderedContentURL)
        output.adjustmentData = recipe.adjustmentData
        try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: video).contentEditingOutput = output }

        let edited = try Self.refetch(video, in: temporary)
        #expect(edited.hasAdjustments)
        #expect(abs(edited.duration - 1) < 0.1, "the trimmed length: \(edited.duration)")
        #expect((edited.pixelWidth, edited.pixelHeight) == (240, 320))
        #expect(PHAssetResource.assetResources(for: edited).map(\.type).contains(.fullSizeVideo))
        let current = try await PHImageManager.default().avAsset(forVideo: edited)
        #expect(abs(current.duration.seconds - 1) < 0.1)
        #expect(current.tracks(withMediaType: .video).first?.naturalSize == CGSize(width: 240, height: 320))
        let originalOptions = PHVideoRequestOptions()
        originalOptions.version = .original
        let original = try await PHImageManager.default().avAsset(forVideo: edited, options: originalOptions)
        #expect(abs(original.duration.seconds - 2) < 0.1)
        // The poster frame shows the edit.
        let poster = try await PHImageManager.default().image(for: edited, targetSize: CGSize(width: 120, height: 120), contentMode: .aspectFit)
        #expect(poster.size == CGSize(width: 90, height: 120))

        // Resuming: the original movie and the stored recipe.
        let resumed = try await Self.input(edited, canHandle: PHBasicAdjustments.canHandle)
        #expect((resumed.audiovisualAsset as? AVURLAsset)?.url == movie.url)
        #expect(resumed.adjustmentData.flatMap(PHBasicAdjustments.init(adjustmentData:)) == recipe)
        // Not resuming: the current rendered movie.
        let rendered = try await Self.input(edited)
        #expect(abs(try #require(rendered.audiovisualAsset).duration.seconds - 1) < 0.1)

        try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: edited).revertAssetContentToOriginal() }
        let reverted = try Self.refetch(video, in: temporary)
        #expect(!reverted.hasAdjustments)
        #expect(abs(reverted.duration - 2) < 0.1)
        #expect((reverted.pixelWidth, reverted.pixelHeight) == (320, 240))
        #expect(!PHAssetResource.assetResources(for: reverted).map(\.type).contains(.fullSizeVideo))
        #expect(try temporary.library.checkConsistency().isConsistent)
    }

    @Test func aVideosEditMustBeAMovie() async throws {
        let temporary = try TemporaryLibrary()
        let video = try VideoRequestTests.addVideo(temporary, TestClip(), name: "v.mp4")
        let output = PHContentEditingOutput(contentEditingInput: try await Self.input(video))
        try TestImages.jpeg().write(to: output.renderedContentURL)
        output.adjustmentData = PHBasicAdjustments(exposure: 1).adjustmentData
        #expect(throws: PHPhotosError.self) {
            try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: video).contentEditingOutput = output }
        }
        #expect(!(try Self.refetch(video, in: temporary)).hasAdjustments)
        #expect(throws: PHPhotosError.self) {
            try PHBasicAdjustments(timeRange: CMTimeRange(start: CMTime(value: 5, timescale: 1), duration: CMTime(value: 1, timescale: 1)))
                .render(movieAt: try #require(PHAssetResource.assetResources(for: video).first?.fileURL), to: temporary.scratch.appendingPathComponent("x.mov"))
        }
    }

    @Test func livePhotoStillAndMovieAreEditedTogether() async throws {
        let temporary = try TemporaryLibrary()
        let asset = try VideoRequestTests.addLivePhoto(temporary)
        #expect(asset.canPerform(.content))
        let input = try await Self.input(asset)
        let live = try #require(input.livePhoto)
        let context = try #require(PHLivePhotoEditingContext(livePhotoEditingInput: input))
        #expect(abs(context.duration.seconds - 1.5) < 0.1)
        context.adjustments = PHBasicAdjustments(quarterTurns: 1, filter: .mono)
        context.audioVolume = 0.5
        let output = PHContentEditingOutput(contentEditingInput: input)
        let saved = await withCheckedContinuation { continuation in
            context.saveLivePhoto(to: output) { ok, error in continuation.resume(returning: ok ? nil : "\(String(describing: error))") }
        }
        #expect(saved == nil)
        output.adjustmentData = context.adjustments.adjustmentData
        try temporary.library.performChangesAndWait { PHAssetChangeRequest(for: asset).contentEditingOutput = output }

        let edited = try Self.refetch(asset, in: temporary)
        #expect((edited.pixelWidth, edited.pixelHeight) == (300, 400))
        let types = PHAssetResource.assetResources(for: edited).map(\.type)
        #expect(types.contains(.fullSizePhoto) && types.contains(.fullSizePairedVideo))
        let current = try await PHImageManager.default().livePhoto(for: edited)
        #expect(current.size == CGSize(width: 300, height: 400))
        #expect(AVURLAsset(url: current.videoURL).tracks(withMediaType: .video).first?.naturalSize == CGSize(width: 300, height: 400))
        let options = PHLivePhotoRequestOptions()
        options.version = .original
        let original = try await PHImageManager.default().livePhoto(for: edited, options: options)
        #expect(original.videoURL == live.videoURL)
        #expect(PHLivePhotoEditingContext(livePhotoEditingInput: try await Self.input(try VideoRequestTests.addVideo(temporary, TestClip(), name: "n.mp4"))) == nil)
    }
}
