import Foundation
import Logging
package import PhotosStore
import PhotosLocking

/// A step of the import-batch work, for logs and tests.
package enum ImportBatchEvent: Sendable, Equatable {
    case started(uuid: String, foreground: Bool)
    case finished(uuid: String, assets: Int)
    case failed(uuid: String, reason: String, permanently: Bool)
}

/// When an import batch that did not finish is tried again.
package struct ImportBatchRetry: Sendable {
    /// The wait after the first attempt; each attempt after doubles it.
    package var firstDelay: TimeInterval = 2
    /// The longest wait between attempts.
    package var longestDelay: TimeInterval = 3_600
    /// Attempts (started, whether they failed or their process died) before the batch is
    /// given up.
    package var maximumAttempts = 6
    /// How often background workers look for batches whose claim was let go (an instance
    /// died mid-import) when nothing else wakes them.
    package var pollInterval: TimeInterval = 2

    package init() {}

    /// The wait after attempt `attempt` (1 for the first).
    func delay(after attempt: Int) -> TimeInterval {
        min(longestDelay, firstDelay * pow(2, Double(max(0, min(attempt - 1, 30)))))
    }
}

/// Uploads as shared work: the files of an upload wait in the library's `imports/<uuid>/`
/// folder (which every instance mounts) and an `importBatch` row says what they are; the
/// instance that received them claims the batch (``JobKey/importBatch(uuid:)``) and imports
/// it at once, and if it dies meanwhile, any instance's background worker claims it and
/// imports it again.
///
/// - **Once**: the assets and the batch's `done` mark commit in one transaction, which
///   refuses a batch already finished; a claim keeps two instances from working on one batch.
/// - **Never lost**: the files leave their folder only as hard links moved into `originals/`
///   by the commit (a crash before it leaves the folder whole), and the folder goes after.
/// - **Retried with backoff**: each attempt is counted when it starts and sets when the batch
///   is due again (``ImportBatchRetry``); a file that is not a photo or video fails the batch
///   for good at once, and so do ``ImportBatchRetry/maximumAttempts`` attempts.
package final class ImportBatches: Sendable {
    /// The library the batches are imported into (it owns this).
    private let owner: LibraryReference
    private let store: LibraryDatabase
    private let retry: ImportBatchRetry
    private let delegate: any PHPhotoLibrary.Delegate
    /// Where failures the work goes on from are reported (the library's logger).
    private let logger: Logger
    private let running = Mutex<(running: Bool, workers: Int)>((false, 0))
    private let wakeups = DispatchSemaphore(value: 0)
    /// The worker's reads of what is due, which fail at every wake-up while the database is gone.
    private let dueReads = RecurringFailure(), dueDateReads = RecurringFailure()

    init(
        owner: LibraryReference, store: LibraryDatabase, retry: ImportBatchRetry, delegate: any PHPhotoLibrary.Delegate, logger: Logger
    ) {
        self.owner = owner
        self.store = store
        self.retry = retry
        self.delegate = delegate
        self.logger = logger
    }

    // MARK: Receiving

    /// A new batch's UUID and its folder, created, for the upload's files.
    package func newBatchFolder() throws(PHPhotosError) -> (uuid: String, folder: URL) {
        let uuid = UUID().uuidString
        let folder = store.layout.importBatchFolder(uuid: uuid)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw PHPhotosError(.notEnoughSpace, "Can't make a folder for an upload: \(error.localizedDescription)")
        }
        return (uuid, folder)
    }

    /// Records the batch whose files are in ``newBatchFolder()``'s folder `uuid` and imports
    /// it now, returning how it ended (`.pending` when this attempt failed and a later one
    /// will try again). When `owner` already sent a batch with `clientKey`, this one is
    /// dropped (its folder removed) and that one is returned, imported first if it still
    /// waits (`replayed` true).
    package func submit(
        uuid: String, files: [ImportBatchFile], owner: String, clientKey: String?, tokenIdentifier: String?
    ) throws(PHPhotosError) -> (batch: ImportBatchRecord, replayed: Bool) {
        // Claimed before it is recorded: no background worker starts it meanwhile.
        let claim = logger.attempt(.warning, "claim the import batch \(uuid)") {
            try store.claimJob(.importBatch(uuid: uuid), waiting: false)
        }
        defer { claim?.release() }
        let recorded: (batch: ImportBatchRecord, isNew: Bool)
        do {
            // Its first attempt starts now, counted in the same transaction.
            let now = Date()
            recorded = try store.importBatches.enqueue(
                uuid: uuid, owner: owner, clientKey: clientKey, tokenIdentifier: tokenIdentifier, files: files, now: now,
                startingUntil: now.addingTimeInterval(retry.delay(after: 1)))
        } catch {
            removeFolder(uuid)
            throw PHPhotosError(error)
        }
        guard recorded.isNew else {
            removeFolder(uuid)
            return (resume(recorded.batch), true)
        }
        return (perform(recorded.batch, foreground: true, started: true), false)
    }

    /// A batch sent before, finished: imported now if it still waits (waiting for whoever
    /// holds it), else as it ended.
    package func resume(_ batch: ImportBatchRecord) -> ImportBatchRecord {
        guard batch.state == .pending else { return batch }
        let claim = logger.attempt(.warning, "claim the import batch \(batch.uuid)") {
            try store.claimJob(.importBatch(uuid: batch.uuid), waiting: true)
        }
        defer { claim?.release() }
        return perform(batch, foreground: true)
    }

    /// One batch by its UUID; nil when there is none, or it can't be read (logged).
    package func batch(uuid: String) -> ImportBatchRecord? {
        logger.attempt(.warning, "read the import batch \(uuid)") { try store.importBatches.batch(uuid: uuid) }
    }

    /// One owner's batch by the client's `Idempotency-Key`; nil when there is none, or it
    /// can't be read (logged).
    package func batch(owner: String, clientKey: String) -> ImportBatchRecord? {
        logger.attempt(.warning, "read the import batch of \(owner) with the client's key \(clientKey)") {
            try store.importBatches.batch(owner: owner, clientKey: clientKey)
        }
    }

    // MARK: The work

    /// Imports a claimed batch, unless it finished meanwhile; returns it as it is after.
    /// `started`: `batch` was just recorded with its first attempt counted.
    private func perform(_ batch: ImportBatchRecord, foreground: Bool, started: Bool = false) -> ImportBatchRecord {
        var fresh = batch
        if !started {
            guard let current = self.batch(uuid: batch.uuid) else { return batch }
            guard current.state == .pending else { return current }
            guard current.attempts < retry.maximumAttempts else {
                let reason = "Given up after \(current.attempts) attempts" + (current.lastError.map { ": \($0)" } ?? "")
                return fail(current, PHPhotosError(.internalError, reason), permanently: true)
            }
            let now = Date()
            do {
                try store.importBatches.start(
                    id: current.id, retryAt: now.addingTimeInterval(retry.delay(after: current.attempts + 1)), now: now)
            } catch {
                return fail(current, PHPhotosError(error), permanently: false)
            }
            fresh = current
            fresh.attempts += 1
        }
        // `fresh.attempts` counts this attempt from here on.
        delegate.importBatches(didReport: .started(uuid: fresh.uuid, foreground: foreground))
        guard let served = owner.library else { return fail(fresh, PHPhotosError(.libraryVolumeOffline, "The library was closed"), permanently: false) }
        let library = uploadersLibrary(fresh, from: served)
        let folder = store.layout.importBatchFolder(uuid: fresh.uuid)
        var links: [URL] = []
        // try?: a link the commit moved into `originals/` is gone (the usual case); one left
        // stays in the batch's folder, which goes with the batch.
        defer { for link in links { try? FileManager.default.removeItem(at: link) } }
        var sources: [(file: ImportBatchFile, url: URL, moves: Bool)] = []
        for file in fresh.files {
            let url = folder.appendingPathComponent(file.file)
            guard FileManager.default.fileExists(atPath: url.path) else {
                return fail(fresh, PHPhotosError(.missingResource, "The upload's file \(file.name) is gone"), permanently: true)
            }
            // A hard link is what moves into `originals/`: the upload itself stays until the
            // commit, so an attempt that dies leaves it for the next.
            let link = folder.appendingPathComponent(".\(fresh.attempts)-\(file.file)")
            // try?: usually absent; one that stays makes the link below fail, and the upload's
            // own file is imported instead (copied, not moved).
            try? FileManager.default.removeItem(at: link)
            if Glibc.link(url.path, link.path) == 0 {
                links.append(link)
                sources.append((file, link, true))
            } else {
                sources.append((file, url, false))
            }
        }
        do {
            try library.performChangesAndWait(
                {
                    for source in sources {
                        let request = PHAssetCreationRequest.forAsset()
                        let options = PHAssetResourceCreationOptions()
                        options.originalFilename = source.file.name
                        options.shouldMoveFile = source.moves
                        request.addResource(with: source.file.isVideo ? .video : .photo, fileURL: source.url, options: options)
                    }
                }, completing: ImportBatchCompletion(batchID: fresh.id, tokenIdentifier: fresh.tokenIdentifier))
        } catch {
            let error = (error as? PHPhotosError) ?? PHPhotosError(error)
            if let now = self.batch(uuid: fresh.uuid), now.state != .pending { return now }
            // A file the library can't read fails the batch for good; anything else (the
            // database, the disk) is tried again.
            return fail(fresh, error, permanently: error.code == .invalidResource)
        }
        removeFolder(fresh.uuid)
        let done = self.batch(uuid: fresh.uuid) ?? fresh
        delegate.importBatches(didReport: .finished(uuid: fresh.uuid, assets: done.assetUUIDs.count))
        return done
    }

    /// The library of the person who uploaded `batch` (its owner is their `pe_` identifier, or
    /// a `tk_` token of theirs), so what it imports is theirs whichever instance or worker
    /// commits it; `library` itself in a library without people (or when they are gone).
    private func uploadersLibrary(_ batch: ImportBatchRecord, from library: PHPhotoLibrary) -> PHPhotoLibrary {
        var person: String?
        if batch.owner.hasPrefix("pe_") {
            person = batch.owner
        } else if batch.owner.hasPrefix("tk_") {
            person = logger.attempt(.warning, "read the person of the token that uploaded \(batch.uuid)") {
                try store.accessTokens.token(identifier: batch.owner)?.personID.flatMap { try store.people.person(id: $0)?.identifier }
            } ?? nil
        }
        guard let person, person != library.person?.identifier else { return library }
        return logger.attempt(.warning, "open the library of \(person), who uploaded \(batch.uuid)") {
            try library.library(forPerson: person)
        } ?? library
    }

    private func fail(_ batch: ImportBatchRecord, _ error: PHPhotosError, permanently: Bool) -> ImportBatchRecord {
        // Name the client's files, not where the library kept them.
        var message = error.message
        let folder = store.layout.importBatchFolder(uuid: batch.uuid).path
        for file in batch.files {
            message = message.replacingOccurrences(of: folder + "/." + "\(batch.attempts)-" + file.file, with: file.name)
            message = message.replacingOccurrences(of: folder + "/" + file.file, with: file.name)
        }
        logger.attempt(.warning, "record that the import batch \(batch.uuid) failed (\(message))") {
            try store.importBatches.fail(id: batch.id, code: error.code.rawValue, reason: message, permanently: permanently, now: Date())
        }
        if permanently { removeFolder(batch.uuid) }
        delegate.importBatches(didReport: .failed(uuid: batch.uuid, reason: message, permanently: permanently))
        return self.batch(uuid: batch.uuid) ?? batch
    }

    /// Removes a batch's folder of uploaded files; one that can't be removed is logged (its
    /// files stay in `imports/`, where `photos check` lists them).
    private func removeFolder(_ uuid: String) {
        let folder = store.layout.importBatchFolder(uuid: uuid)
        logger.attempt(.warning, "remove the upload folder \(folder.path)") { try FileManager.default.removeItemIfPresent(at: folder) }
    }

    // MARK: Background work

    /// Starts a background worker that imports batches left by instances that died (and
    /// retries failed ones when due), until ``stopBackgroundWork()``. Does nothing for a
    /// library opened read-only.
    package func startBackgroundWork() {
        guard !store.isReadOnly else { return }
        let start = running.withLock { state -> Bool in
            guard !state.running else { return false }
            state = (true, state.workers + 1)
            return true
        }
        guard start else { return }
        NamedThread.start("ImportBatches") { [self] in workerLoop() }
    }

    /// Stops the worker after its current batch.
    package func stopBackgroundWork() {
        let workers = running.withLock { state in
            state.running = false
            return state.workers
        }
        for _ in 0..<workers { wakeups.signal() }
    }

    private func workerLoop() {
        defer { running.withLock { $0.workers -= 1 } }
        while running.withLock({ $0.running }) {
            if let (batch, claim) = claimNext() {
                _ = perform(batch, foreground: false)
                claim.release()
                continue
            }
            // Due batches are all claimed elsewhere (or none is due): look again at the next
            // due time, or after the poll interval, for a claim let go by an instance that died.
            let due = logger.attempt(.warning, "read when the next import batch is due", recurring: dueDateReads) {
                try store.importBatches.nextDueDate()
            }
            let wait = min(retry.pollInterval, max(0.05, due.map { $0.timeIntervalSinceNow } ?? retry.pollInterval))
            _ = wakeups.wait(timeout: .now() + wait)
        }
    }

    /// The next due batch nobody holds, claimed.
    private func claimNext() -> (ImportBatchRecord, any JobClaim)? {
        var elsewhere = Set<Int64>()
        while true {
            let due = logger.attempt(.warning, "find the next due import batch", recurring: dueReads) {
                try store.importBatches.nextDue(now: Date(), excluding: elsewhere)
            }
            guard let batch = due else { return nil }
            let claim = logger.attempt(.warning, "claim the import batch \(batch.uuid)") {
                try store.claimJob(.importBatch(uuid: batch.uuid), waiting: false)
            }
            guard let claim else {
                elsewhere.insert(batch.id)
                continue
            }
            return (batch, claim)
        }
    }
}

extension PHAsset {
    /// The local identifier of the asset with `uuid`.
    package static func localIdentifier(forUUID uuid: String) -> String {
        LocalIdentifier.asset(uuid)
    }
}

/// The store's import-batch types, for the server (which uses the Photos module only).
package typealias ImportBatchRecord = PhotosStore.ImportBatchRecord
package typealias ImportBatchFile = PhotosStore.ImportBatchFile
package typealias ImportBatchState = PhotosStore.ImportBatchState
