import Foundation
import Logging
import PhotosLocking
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// Issue 33: what a library handles and goes on from is logged to its own logger
/// (`Configuration.logger`), not dropped: a derivative it can't keep, a render failure or a
/// rendition it can't record. Each test takes a real failure path, no mocks, and reads what a
/// `CollectingLogHandler` given to that one library kept.
@Suite("Library logging")
struct LibraryLoggingTests {
    /// A configuration whose logger keeps its records in `handler`.
    static func configuration(_ handler: CollectingLogHandler, readOnly: Bool = false) -> PHPhotoLibrary.Configuration {
        var configuration = PHPhotoLibrary.Configuration()
        configuration.logger = Logger(label: "photokit", factory: { _ in handler })
        configuration.readOnly = readOnly
        return configuration
    }

    /// The warnings whose message contains every one of `parts`.
    static func warnings(_ handler: CollectingLogHandler, containing parts: String...) -> [CollectingLogHandler.Record] {
        handler.records.filter { record in record.level == .warning && parts.allSatisfy { record.message.contains($0) } }
    }

    @Test("Logger.attempt returns the value, or logs what could not be done with the reason, at its level and place, once while it recurs")
    func attemptLogsFailures() throws {
        let handler = CollectingLogHandler()
        let logger = Logger(label: "photokit", factory: { _ in handler })
        #expect(logger.attempt(.warning, "count") { 3 } == 3)
        #expect(handler.records.isEmpty, "nothing is logged when the work succeeds")

        let missing = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/file")
        let removed: Void? = logger.attempt(.notice, "remove \(missing.path)") { try FileManager.default.removeItem(at: missing) }
        #expect(removed == nil)
        let record = try #require(handler.records.last)
        #expect(record.level == .notice)
        #expect(record.message == "Could not remove \(missing.path): No such file or directory", "the system's reason, not Foundation's")
        #expect(record.file.hasSuffix("LibraryLoggingTests.swift"), "the caller's place, not the helper's: \(record.file)")
        logger.attempt(.warning, "render it") { throw PHPhotosError(.invalidResource, "its pixels don't decode") }
        #expect(handler.records.last?.message == "Could not render it: its pixels don't decode", "the error's message, not a dump")

        // A body that answers nil itself is not a failure.
        #expect(logger.attempt(.warning, "find nothing") { () throws -> Int? in nil } == nil)
        #expect(handler.records.count == 2)
        // Below the logger's level, nothing is kept, and the message is not even built.
        var quiet = logger
        quiet.logLevel = .error
        var built = false
        func described() -> String {
            built = true
            return "fail quietly"
        }
        quiet.attempt(.warning, described()) { throw CocoaError(.fileNoSuchFile) }
        #expect(handler.records.count == 2)
        #expect(!built)

        // Work retried at every wake-up logs a failure that recurs once at its level, then at
        // .debug, until it succeeds again.
        let reads = RecurringFailure()
        let levels = { handler.records.dropFirst(2).map(\.level) }
        for _ in 0..<3 { logger.attempt(.notice, "read the position", recurring: reads) { throw CocoaError(.fileReadUnknown) } }
        #expect(levels() == [.notice, .debug, .debug])
        logger.attempt(.notice, "read the position", recurring: reads) { 1 }
        logger.attempt(.notice, "read the position", recurring: reads) { throw CocoaError(.fileReadUnknown) }
        #expect(levels() == [.notice, .debug, .debug, .notice])
    }

    /// A file where the thumbnail's folder should be: the derivative can't be written, the
    /// photo still renders, and the library says which file it could not keep.
    @Test("a derivative that can't be written is logged as a warning naming its file, from the cache warm and from an image request")
    func derivativeNotKeptIsLogged() throws {
        let handler = CollectingLogHandler()
        let temporary = try TemporaryLibrary(configuration: Self.configuration(handler))
        let library = temporary.library
        let asset = try PHImageManagerTests.asset(temporary, width: 1600, height: 1200)
        let thumbnail = DerivativeUseTests.derivative(temporary, asset, .thumbnail)
        let folder = thumbnail.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: folder)

        let warmed = try library.makeDerivatives()
        #expect(warmed.failed == 0, "the photo rendered; only its file was not kept")
        #expect(!FileManager.default.fileExists(atPath: thumbnail.path))
        #expect(Self.warnings(handler, containing: "Could not keep the derivative \(thumbnail.path)", "Not a directory").count == 1, "\(handler.records)")

        // An image request makes the thumbnail on first need: the request is answered, the
        // file is not kept, and that is logged too.
        guard case .success(let image) = UnrenderableAssetTests.thumbnail(asset, library) else {
            Issue.record("the photo did not render")
            return
        }
        #expect(image.size == CGSize(width: 256, height: 256))
        #expect(Self.warnings(handler, containing: "Could not keep the derivative \(thumbnail.path)").count == 2, "\(handler.records)")
    }

    /// A library opened read-only can't record that a photo fails to render: `photos check`
    /// won't list it, and the log says so.
    @Test(
        "a render failure a read-only library can't record is logged as a warning naming the asset",
        .enabled(if: TestStore.isSQLite, "SQLite's own: a library opened read-only"))
    func renderFailureNotRecordedIsLogged() throws {
        let temporary = try TemporaryLibrary()
        let url = try MalformedInputs.undecodableJPEG().write(into: temporary.scratch)
        #expect(PHAssetImporter(library: temporary.library).importFiles(at: [url]).imported.count == 1)
        let uuid = try #require(UnrenderableAssetTests.assets(temporary.library).first?.uuid)

        let handler = CollectingLogHandler()
        let reader = try temporary.openAgain(configuration: Self.configuration(handler, readOnly: true))
        let warmed = try reader.makeDerivatives()
        #expect(warmed.failed == 1)
        let warnings = Self.warnings(handler, containing: "Could not record that \(uuid) can't be rendered", "Huffman table")
        #expect(warnings.count == 1, "\(handler.records)")
        #expect(warnings.first?.message.contains("read-only") == true, "the store's reason: \(warnings.first?.message ?? "")")
        #expect(try temporary.library.checkConsistency().isConsistent, "nothing was recorded")
    }

    /// `photos cache warm --videos` on a library opened read-only: the renditions' outcomes
    /// can't be recorded. Each job is tried once and logged, instead of being taken again at
    /// once, forever (the store still says it is due).
    @Test(
        "renditions a read-only library can't record are logged, and each is tried once",
        .enabled(if: TestStore.isSQLite, "SQLite's own: a library opened read-only"),
        .enabled(if: TestClip.isAvailable, "needs ffmpeg (apt install ffmpeg)"))
    func renditionNotRecordedIsLogged() throws {
        let temporary = try TemporaryLibrary()
        let video = try VideoRequestTests.addVideo(temporary, TestClip(), name: "plays.mp4")
        #expect(try temporary.library.videoRenditions.counts() == RenditionCounts(pending: 1))

        let handler = CollectingLogHandler()
        let reader = try temporary.openAgain(configuration: Self.configuration(handler, readOnly: true))
        // On a queue of its own: were the job taken again and again, the test fails here
        // instead of never returning. (The library is let go here, not on a thread ending.)
        let outcome = Mutex<Result<RenditionCounts, PHPhotosError>?>(nil)
        let returned = DispatchSemaphore(value: 0)
        let renditions = reader.videoRenditions
        DispatchQueue.global().async {
            let result = Result { () throws(PHPhotosError) in try renditions.makeAllDue(retryingFailures: true) }
            outcome.withLock { $0 = result }
            returned.signal()
        }
        withExtendedLifetime(reader) {
            #expect(returned.wait(timeout: .now() + .seconds(60 * TestTimeScale.factor)) == .success, "each job is tried once")
        }
        let counts = try #require(outcome.withLock { $0 }).get()
        #expect(counts == RenditionCounts(pending: 1), "nothing recorded")
        #expect(Self.warnings(handler, containing: "Could not make the failed renditions due again", "read-only").count == 1, "\(handler.records)")
        #expect(
            Self.warnings(handler, containing: "Could not record that the movie of \(video.uuid) plays as it is", "read-only").count == 1,
            "\(handler.records)")
    }
}
