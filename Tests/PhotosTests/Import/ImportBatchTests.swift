import Foundation
import PhotosLocking
import PhotosStore
import PhotosTestSupport
import Testing

@testable import Photos

/// Uploads as shared work (``ImportBatches``): received by one instance, imported once by
/// whichever claims them, retried with backoff, never lost when an instance dies. On both
/// engines.
@Suite("Import batches")
struct ImportBatchTests {
    /// Writes `count` photos into a new batch folder and returns its UUID and files.
    static func stage(_ library: PHPhotoLibrary, count: Int, seed: Int = 0) throws -> (uuid: String, files: [ImportBatchFile]) {
        let (uuid, folder) = try library.importBatches.newBatchFolder()
        var files: [ImportBatchFile] = []
        for index in 0..<count {
            let name = "upload-\(seed)-\(index).jpg"
            try TestImages.jpeg(width: 40 + index + seed * 7, height: 30).write(to: folder.appendingPathComponent("\(index).jpg"))
            files.append(ImportBatchFile(name: name, file: "\(index).jpg", isVideo: false))
        }
        return (uuid, files)
    }

    static func assetCount(_ library: PHPhotoLibrary) -> Int {
        library.withCurrent { PHAsset.fetchAssets(with: nil).count }
    }

    @Test func aBatchIsImportedOnceAndItsFolderGoes() throws {
        let temporary = try TemporaryLibrary()
        let library = temporary.library
        let (uuid, files) = try Self.stage(library, count: 3)
        let (batch, replayed) = try library.importBatches.submit(uuid: uuid, files: files, owner: "", clientKey: "key-1", tokenIdentifier: nil)
        #expect(!replayed)
        #expect(batch.state == .done)
        #expect(batch.attempts == 1)
        #expect(batch.assetUUIDs.count == 3)
        #expect(Self.assetCount(library) == 3)
        let names = library.withCurrent {
            PHAsset.fetchAssets(withLocalIdentifiers: batch.assetUUIDs.map(PHAsset.localIdentifier(forUUID:)), options: nil)
                .map { PHAssetResource.assetResources(for: $0).first?.originalFilename ?? "" }
        }
        #expect(names == files.map(\.name), "the assets in the files' order, with their names")
        #expect(!FileManager.default.fileExists(atPath: temporary.library.store.layout.importBatchFolder(uuid: uuid).path))

        // The same key again: the first batch's assets, nothing new, and the new folder gone.
        let (again, againFiles) = try Self.stage(library, count: 3, seed: 1)
        let replay = try library.importBatches.submit(uuid: again, files: againFiles, owner: "", clientKey: "key-1", tokenIdentifier: nil)
        #expect(replay.replayed)
        #expect(replay.batch.uuid == uuid && replay.batch.assetUUIDs == batch.assetUUIDs)
        #expect(Self.assetCount(library) == 3)
        #expect(!FileManager.default.fileExists(atPath: temporary.library.store.layout.importBatchFolder(uuid: again).path))
        // Another owner's key is its own.
        let (other, otherFiles) = try Self.stage(library, count: 1, seed: 2)
        let theirs = try library.importBatches.submit(uuid: other, files: otherFiles, owner: "someone", clientKey: "key-1", tokenIdentifier: nil)
        #expect(!theirs.replayed && theirs.batch.state == .done)
        #expect(Self.assetCount(library) == 4)

        // The commit itself refuses a batch already done: a second import adds nothing.
        #expect(throws: PHPhotosError.self) {
            try library.performChangesAndWait(
                {
                    let request = PHAssetCreationRequest.forAsset()
                    request.addResource(with: .photo, data: try! TestImages.jpeg(width: 50, height: 50), options: nil)
                }, completing: ImportBatchCompletion(batchID: batch.id, tokenIdentifier: nil))
        }
        #expect(Self.assetCount(library) == 4)
    }

    /// An instance that dies mid-import lets go of its claim: another's background worker
    /// imports the batch (its files still there), once.
    @Test func aBatchLeftByAnInstanceThatDiedIsImportedByAnother() throws {
        var configuration = PHPhotoLibrary.Configuration()
        configuration.importBatchRetry.firstDelay = 0.2
        configuration.importBatchRetry.pollInterval = 0.1
        let temporary = try TemporaryLibrary(configuration: configuration)
        let dead = temporary.library
        let (uuid, files) = try Self.stage(dead, count: 2)
        // The receiving instance recorded the batch under its claim and started (an attempt
        // counted), then died: its claim is what it leaves behind, until the engine drops it.
        let claim = try #require(try dead.store.claimJob(.importBatch(uuid: uuid), waiting: false))
        let batch = try dead.store.importBatches.enqueue(uuid: uuid, owner: "", clientKey: nil, tokenIdentifier: nil, files: files, now: Date()).batch
        try dead.store.importBatches.start(id: batch.id, retryAt: Date().addingTimeInterval(0.2), now: Date())

        let events = Mutex<[ImportBatchEvent]>([])
        let finished = DispatchSemaphore(value: 0)
        var otherConfiguration = configuration
        otherConfiguration.delegate = EventDelegate(importBatches: { event in
            events.withLock { $0.append(event) }
            if case .finished = event { finished.signal() }
        })
        let other = try temporary.openAgain(configuration: otherConfiguration)
        other.importBatches.startBackgroundWork()
        defer { other.importBatches.stopBackgroundWork() }
        // Held: passed over, however often the worker looks (it looks every 0.1 s).
        #expect(finished.wait(timeout: .now() + 1) == .timedOut)
        #expect(Self.assetCount(other) == 0)
        claim.release()
        #expect(finished.wait(timeout: .now() + 30) == .success)
        let done = try #require(other.importBatches.batch(uuid: uuid))
        #expect(done.state == .done && done.attempts == 2 && done.assetUUIDs.count == 2)
        #expect(events.withLock { $0.first } == .started(uuid: uuid, foreground: false))
        #expect(Self.assetCount(other) == 2)
        #expect(!FileManager.default.fileExists(atPath: other.store.layout.importBatchFolder(uuid: uuid).path))
    }

    /// Each attempt, whether it fails or its instance dies, pushes the next one back
    /// (doubling), and too many give the batch up; a file that is no photo fails it at once.
    @Test func attemptsBackOffAndEndWithTheReason() throws {
        var configuration = PHPhotoLibrary.Configuration()
        configuration.importBatchRetry.firstDelay = 10
        let temporary = try TemporaryLibrary(configuration: configuration)
        let library = temporary.library
        let store = library.store

        let (uuid, files) = try Self.stage(library, count: 1)
        let batch = try store.importBatches.enqueue(uuid: uuid, owner: "", clientKey: "k", tokenIdentifier: nil, files: files, now: Date()).batch
        let retry = configuration.importBatchRetry
        #expect(retry.delay(after: 1) == 10 && retry.delay(after: 2) == 20 && retry.delay(after: 3) == 40)
        #expect(ImportBatchRetry().delay(after: 30) == 3_600, "at most an hour")
        let now = Date()
        try store.importBatches.start(id: batch.id, retryAt: now.addingTimeInterval(retry.delay(after: 1)), now: now)
        #expect(try store.importBatches.nextDue(now: now, excluding: []) == nil, "not due during its backoff")
        #expect(try store.importBatches.nextDue(now: now.addingTimeInterval(11), excluding: [])?.uuid == uuid)
        for _ in 1..<retry.maximumAttempts {
            try store.importBatches.start(id: batch.id, retryAt: now, now: now)
        }
        try store.importBatches.fail(id: batch.id, code: PHPhotosError.Code.notEnoughSpace.rawValue, reason: "disk full", permanently: false, now: now)
        let given = library.importBatches.resume(try #require(library.importBatches.batch(uuid: uuid)))
        #expect(given.state == .failed)
        #expect(given.lastError == "Given up after 6 attempts: disk full")
        #expect(Self.assetCount(library) == 0)
        #expect(!FileManager.default.fileExists(atPath: store.layout.importBatchFolder(uuid: uuid).path))

        // Not a photo: failed at the first attempt, with the client's file name.
        let (bad, folder) = try library.importBatches.newBatchFolder()
        try Data("just text".utf8).write(to: folder.appendingPathComponent("0.jpg"))
        try TestImages.jpeg(width: 30, height: 20).write(to: folder.appendingPathComponent("1.jpg"))
        let failed = try library.importBatches.submit(
            uuid: bad, files: [ImportBatchFile(name: "notes.jpg", file: "0.jpg", isVideo: false), ImportBatchFile(name: "ok.jpg", file: "1.jpg", isVideo: false)],
            owner: "", clientKey: nil, tokenIdentifier: nil
        ).batch
        #expect(failed.state == .failed && failed.attempts == 1)
        #expect(failed.errorCode == PHPhotosError.Code.invalidResource.rawValue)
        #expect(failed.lastError?.contains("notes.jpg") == true, "\(failed.lastError ?? "")")
        #expect(failed.lastError?.contains(folder.path) == false, "the server's paths stay out")
        #expect(Self.assetCount(library) == 0, "nothing of the batch was added")
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }
}
