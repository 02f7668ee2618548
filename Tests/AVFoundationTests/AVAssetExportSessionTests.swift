import AVFoundation
import Foundation
import PhotosLocking
import PhotosTestSupport
import Testing

/// What ffprobe, the oracle, says of an exported file.
struct Probe {
    var codec: String?
    var tag: String?
    var width = 0
    var height = 0
    var rotation: Double?
    var duration = 0.0
    var hasAudio = false
    var hasVideo = false

    init(_ url: URL) throws {
        let data = try ExternalTool.output("/usr/bin/ffprobe", ["-v", "error", "-print_format", "json", "-show_streams", "-show_format", url.path])
        let root = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let streams = root["streams"] as? [[String: Any]] ?? []
        if let video = streams.first(where: { $0["codec_type"] as? String == "video" }) {
            hasVideo = true
            codec = video["codec_name"] as? String
            tag = video["codec_tag_string"] as? String
            width = video["width"] as? Int ?? 0
            height = video["height"] as? Int ?? 0
            rotation = ((video["side_data_list"] as? [[String: Any]])?.first?["rotation"] as? NSNumber)?.doubleValue
        }
        hasAudio = streams.contains { $0["codec_type"] as? String == "audio" }
        duration = Double((root["format"] as? [String: Any])?["duration"] as? String ?? "") ?? 0
    }
}

@Suite(.enabled(if: TestClip.isAvailable, "needs ffmpeg (apt install ffmpeg)"))
struct AVAssetExportSessionTests {
    let folder: URL

    init() throws {
        folder = try TestImages.temporaryDirectory("export")
    }

    private func export(_ source: URL, preset: String, as type: AVFileType = .mp4, named name: String) async throws -> URL {
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: preset))
        let output = folder.appendingPathComponent(name)
        try await session.export(to: output, as: type)
        #expect(session.status == .completed)
        #expect(session.progress == 1)
        return output
    }

    @Test func sizePresetsFitTheUprightPictureInTheirBox() async throws {
        let source = try TestClip.iPhone(width: 1920, height: 1080, rotation: 90, duration: 1).write(to: folder.appendingPathComponent("portrait.mov"))
        let hd = try Probe(try await export(source, preset: AVAssetExportPreset1280x720, named: "720.mp4"))
        #expect((hd.codec, hd.width, hd.height) == ("h264", 720, 1280))
        #expect(hd.rotation == nil)
        #expect(hd.hasAudio)
        let small = try Probe(try await export(source, preset: AVAssetExportPreset640x480, as: .mov, named: "480.mov"))
        #expect((small.width, small.height) == (360, 640))
    }

    @Test func presetsNeverEnlarge() async throws {
        let source = try TestClip().write(to: folder.appendingPathComponent("small.mp4"))
        let out = try Probe(try await export(source, preset: AVAssetExportPreset1920x1080, named: "big.mp4"))
        #expect((out.width, out.height) == (320, 240))
    }

    @Test func hevcPresetWritesHvc1() async throws {
        let source = try TestClip().write(to: folder.appendingPathComponent("h264.mp4"))
        let out = try Probe(try await export(source, preset: AVAssetExportPresetHEVCHighestQuality, as: .mov, named: "hevc.mov"))
        #expect(out.codec == "hevc")
        #expect(out.tag == "hvc1")
    }

    @Test func passthroughCopiesStreamsAndKeepsTheRotation() async throws {
        let source = try TestClip.iPhone().write(to: folder.appendingPathComponent("pass.mov"))
        let out = try Probe(try await export(source, preset: AVAssetExportPresetPassthrough, as: .mp4, named: "pass.mp4"))
        #expect((out.codec, out.width, out.height) == ("hevc", 640, 360))
        #expect(out.rotation.map(abs) == 90)
    }

    @Test func timeRangeAndAudioOnly() async throws {
        let source = try TestClip().write(to: folder.appendingPathComponent("range.mp4"))
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: AVAssetExportPresetMediumQuality))
        session.timeRange = CMTimeRange(start: CMTime(value: 1, timescale: 2), duration: CMTime(value: 1, timescale: 1))
        let output = folder.appendingPathComponent("range-out.mp4")
        try await session.export(to: output, as: .mp4)
        #expect(abs(try Probe(output).duration - 1) < 0.15)
        let m4a = try Probe(try await export(source, preset: AVAssetExportPresetAppleM4A, as: .m4a, named: "sound.m4a"))
        #expect(m4a.hasAudio && !m4a.hasVideo)
    }

    @Test func existingOutputAndWrongTypeFailWithReasons() async throws {
        let source = try TestClip().write(to: folder.appendingPathComponent("x.mp4"))
        let existing = folder.appendingPathComponent("exists.mp4")
        try Data("keep me".utf8).write(to: existing)
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: AVAssetExportPreset640x480))
        await #expect(throws: AVError.self) { try await session.export(to: existing, as: .mp4) }
        #expect(session.status == .failed)
        #expect((session.error as? AVError)?.code == .fileAlreadyExists)
        #expect(try Data(contentsOf: existing) == Data("keep me".utf8))

        let audioOnly = try #require(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: AVAssetExportPresetAppleM4A))
        do {
            try await audioOnly.export(to: folder.appendingPathComponent("wrong.mp4"), as: .mp4)
            Issue.record("an M4A preset wrote an MP4")
        } catch AVError.exportFailed {
        }
        #expect(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: "NoSuchPreset") == nil)
        #expect(AVAssetExportSession.exportPresets(compatibleWith: AVURLAsset(url: source)).contains(AVAssetExportPreset1920x1080))
    }

    @Test func cancellingMidExportKillsFFmpegAndLeavesNothing() async throws {
        var clip = TestClip()
        clip.width = 1280
        clip.height = 720
        clip.duration = 10
        let source = try clip.write(to: folder.appendingPathComponent("long.mp4"))
        let outputFolder = folder.appendingPathComponent("out", isDirectory: true)
        try FileManager.default.createDirectory(at: outputFolder, withIntermediateDirectories: true)
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: AVAssetExportPresetHighestQuality))
        session.outputURL = outputFolder.appendingPathComponent("long-out.mp4")
        session.outputFileType = .mp4
        let finished = AsyncStream<Void>.makeStream()
        // Cancelled from the first progress report short of the end: ffmpeg is mid-encode.
        let partials = Mutex<[String]>([])
        session.progressObserver = { [session] fraction in
            guard fraction < 1, partials.withLock({ $0.isEmpty }) else { return }
            let files = (try? FileManager.default.contentsOfDirectory(atPath: outputFolder.path)) ?? []
            partials.withLock { $0 = files.isEmpty ? ["(none)"] : files }
            #expect(session.status == .exporting)
            session.cancelExport()
        }
        session.exportAsynchronously { finished.continuation.yield() }
        for await _ in finished.stream { break }
        let seen = partials.withLock { $0 }
        #expect(seen.count == 1 && seen[0].hasSuffix(".partial"), "the export writes beside its output: \(seen)")
        #expect(session.status == .cancelled)
        #expect((session.error as? CocoaError)?.code == .userCancelled)
        #expect(session.progress < 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: outputFolder.path).isEmpty)
    }

    @Test func cancellingTheTaskCancelsTheAsyncExport() async throws {
        var clip = TestClip()
        clip.width = 1280
        clip.height = 720
        clip.duration = 10
        let source = try clip.write(to: folder.appendingPathComponent("long2.mp4"))
        let session = try #require(AVAssetExportSession(asset: AVURLAsset(url: source), presetName: AVAssetExportPresetHighestQuality))
        let output = folder.appendingPathComponent("cancelled.mp4")
        // The task is cancelled from the first progress report short of the end (on the
        // export's thread: a test task waiting its turn could come too late).
        let handle = Mutex<Task<Void, any Error>?>(nil)
        let cancelledMidway = Atomic(false)
        session.progressObserver = { fraction in
            guard fraction < 1, let task = handle.withLock({ $0 }), !cancelledMidway.exchange(true, ordering: .relaxed) else { return }
            task.cancel()
        }
        let task = Task { try await session.export(to: output, as: .mp4) }
        handle.withLock { $0 = task }
        await #expect(throws: CancellationError.self) { try await task.value }
        let wasCancelledMidway = cancelledMidway.load(ordering: .relaxed)
        #expect(wasCancelledMidway)
        #expect(session.status == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: output.path))
    }
}
