import Foundation
import PhotosStore

/// The change block being run: the requests made in it, in order.
final class ChangeContext: @unchecked Sendable {
    // @unchecked Sendable: a context lives on the library's change queue; it is created,
    // filled and committed there by one thread.
    let library: PHPhotoLibrary
    private(set) var requests: [any ChangeContributing] = []
    private(set) var isOpen = true

    init(library: PHPhotoLibrary) {
        self.library = library
    }

    @TaskLocal static var current: ChangeContext?

    /// The context of the running change block; stops the process outside one, as Apple's
    /// `NSInternalInconsistencyException` does.
    static func require(_ api: String) -> ChangeContext {
        guard let context = current, context.isOpen else {
            fatalError(
                "\(api) can only be called from inside of -[PHPhotoLibrary performChanges:completionHandler:] "
                    + "or -[PHPhotoLibrary performChangesAndWait:error:]")
        }
        return context
    }

    func register(_ request: any ChangeContributing) {
        requests.append(request)
    }

    func close() {
        isOpen = false
    }

    /// Lets the requests go once the block has committed or failed: each request holds its
    /// context, so keeping them would keep every request (and the objects it targets) alive.
    func releaseRequests() {
        requests.removeAll()
    }
}

/// A change request: adds what it asks for to the change set at commit.
protocol ChangeContributing: AnyObject {
    /// Files this request needs in the library before the transaction (creation requests).
    func stage(into staging: inout StagingArea) throws(PHPhotosError)
    func contribute(to changes: inout StoreChangeSet, staging: StagingArea) throws(PHPhotosError)
}

extension ChangeContributing {
    func stage(into staging: inout StagingArea) throws(PHPhotosError) {}
}

extension PHPhotoLibrary {
    /// Runs a change block now, on the calling thread, and commits what it asked for.
    ///
    /// Observers hear of the commit only once `gate` is opened (see ``DeliveryGate``). Returns
    /// the library's position after the commit (nil when the block asked for nothing).
    @discardableResult
    func runChangeBlock(
        _ block: () -> Void, gate: DeliveryGate? = nil, importBatch: ImportBatchCompletion? = nil
    ) throws(PHPhotosError) -> Int64? {
        let context = ChangeContext(library: self)
        ChangeContext.$current.withValue(context) {
            PHPhotoLibrary.$scoped.withValue(self) { block() }
        }
        context.close()
        defer { context.releaseRequests() }
        return try commit(context, gate: gate, importBatch: importBatch)
    }

    private func commit(_ context: ChangeContext, gate: DeliveryGate?, importBatch: ImportBatchCompletion?) throws(PHPhotosError) -> Int64? {
        var staging = StagingArea(store: store, owner: personID, logger: logger)
        var changes = StoreChangeSet()
        changes.importBatch = importBatch
        changes.actingPerson = personID
        do {
            for request in context.requests { try request.stage(into: &staging) }
            for request in context.requests { try request.contribute(to: &changes, staging: staging) }
            normalize(&changes)
            guard !changes.isEmpty else { return nil }
            // Originals kept in a bucket are stored (and confirmed) before the rows commit.
            let uploads = try ObjectUploads(uploading: &changes, store: store, logger: logger)
            dispatcher.willCommit()
            let position: Int64
            do {
                position = try store.commit(changes, beforeCommit: dispatcher.awaitLastSnapshot)
            } catch {
                dispatcher.didCommit(false)
                uploads.removeObjects()
                throw error
            }
            uploads.keepLocalCopies()
            dispatcher.didCommit(true, gate: gate)
            staging.finish()
            return position
        } catch let error as PHPhotosError {
            staging.rollBack()
            throw error
        } catch {
            staging.rollBack()
            throw PHPhotosError(error)
        }
    }

    /// Deletion wins over other edits of the same asset in one block.
    private func normalize(_ changes: inout StoreChangeSet) {
        for uuid in changes.trashedAssets + changes.expungedAssets {
            changes.assetEdits[uuid] = nil
        }
        let deleted = Set(changes.deletedCollections)
        changes.collectionEdits = changes.collectionEdits.filter { !deleted.contains($0.key) }
    }
}

extension PHPhotosError {
    /// Maps a store failure to Apple's codes.
    package init(_ error: any Error) {
        guard let error = error as? StoreError else {
            self.init(.internalError, "\(error)")
            return
        }
        switch error.code {
        case .missingObject: self.init(.identifierNotFound, error.message)
        case .notAllowed: self.init(.changeNotSupported, error.message)
        case .fileOperation: self.init(.invalidResource, error.message)
        case .cannotOpen, .missingDatabase, .unavailable: self.init(.libraryVolumeOffline, error.message)
        case .newerSchema, .database: self.init(.internalError, error.message)
        case .unsupported: self.init(.changeNotSupported, error.message)
        case .readOnly: self.init(.accessRestricted, error.message)
        case .diskFull: self.init(.notEnoughSpace, error.message)
        }
    }
}
