import Foundation
import Hummingbird
import Photos
import PhotosLocking

/// `POST /api/changes`: a list of operations applied as one `performChanges` block, so they
/// all happen or none does; `GET /api/changes?since=TOKEN`: persistent history for sync.
struct ChangeRoutes {
    let service: LibraryService

    /// The most operations one request may hold.
    static let operationLimit = 1000

    func add(to group: RouterGroup<PhotosRequestContext>) {
        group.post("changes") { request, context in try await apply(request, context) }
        // Persistent history reads the journal: off the event loops.
        group.get("changes") { request, context in try await service.quickly("history") { try history(request, context) } }
    }

    private func apply(_ request: Request, _ context: PhotosRequestContext) async throws -> Response {
        let client = try context.requireClient()
        let service = try self.service.serving(client)
        try client.requireRead()
        try client.requireChanges()
        let batch = try await JSONResponse.decode(ChangeBatch.self, from: request)
        guard !batch.operations.isEmpty else { throw APIError(.badRequest, "'operations' is empty") }
        guard batch.operations.count <= Self.operationLimit else {
            throw APIError(.badRequest, "At most \(Self.operationLimit) operations per request")
        }
        if let albumChange = batch.operations.first(where: \.changesAlbums) {
            try client.requireOwner("'\(albumChange.op.rawValue)'")
        }
        let plan = try await ChangePlan(batch.operations, client: client, service: service)
        defer { plan.cleanUp() }
        let changeToken: String
        do {
            // The commit (with the edits' files copied in) on the writes pool, off the event
            // loop, with other requests' plans waiting at the same time when it can
            // (``ChangeCommitter``), and the change token after it.
            changeToken = try await service.committer.commit(plan, on: service)
        } catch let error as PHPhotosError where error.code == .identifierNotFound && client.person != nil {
            // Every object was found as the person sees it (the plan looked each up): one the
            // block can't change is shared with them, read-only (or was deleted meanwhile).
            throw APIError(.forbidden, "Shared with you read-only: only its owner changes it (\(error.localizedDescription.prefix(200)))")
        } catch {
            throw APIError(error)
        }
        await service.libraryChanged(editing: plan.editedAssets)
        let created = plan.createdIdentifiers()
        return JSONResponse.make(ChangeResult(created: created, changeToken: changeToken))
    }

    private func history(_ request: Request, _ context: PhotosRequestContext) throws -> Response {
        let client = try context.requireClient()
        let service = try self.service.serving(client)
        try client.requireOwner("Persistent history")
        // A person's is their library's: what they see (PHPersistentChange.changeDetails).
        let query = QueryParameters(request)
        let current = service.library.currentChangeToken
        let limit = try query.int("limit", in: 1...10_000, default: 1000)!
        guard let since = query.string("since") else {
            return JSONResponse.make(HistoryPage(currentToken: current.stringValue, changes: []))
        }
        guard let token = PHPersistentChangeToken(stringValue: since) else {
            throw APIError.badParameter("since", "'\(since.prefix(80))' is not a change token")
        }
        do {
            let changes = try service.library.fetchPersistentChanges(since: token)
            var page: [HistoryPage.Change] = []
            for change in changes.prefix(limit) {
                page.append(try HistoryPage.Change(change))
            }
            // The newest change listed (a change committed after `current` was read may be in
            // the page; starting after it next time neither repeats nor skips anything).
            return JSONResponse.make(HistoryPage(currentToken: page.last?.token ?? current.stringValue, changes: page))
        } catch {
            throw APIError(error)
        }
    }
}

/// `GET /api/changes` answers: what changed after a token, per object type.
struct HistoryPage: Encodable, Sendable {
    struct Details: Encodable, Sendable {
        let inserted: [String]
        let updated: [String]
        let deleted: [String]

        init(_ details: PHPersistentObjectChangeDetails) {
            inserted = details.insertedLocalIdentifiers.sorted()
            updated = details.updatedLocalIdentifiers.sorted()
            deleted = details.deletedLocalIdentifiers.sorted()
        }
    }

    struct Change: Encodable, Sendable {
        let token: String
        let assets: Details
        let assetCollections: Details
        let collectionLists: Details

        init(_ change: PHPersistentChange) throws {
            token = change.changeToken.stringValue
            assets = Details(try change.changeDetails(for: .asset))
            assetCollections = Details(try change.changeDetails(for: .assetCollection))
            collectionLists = Details(try change.changeDetails(for: .collectionList))
        }
    }

    /// Ask again from here (the newest change listed when the page is full).
    let currentToken: String
    let changes: [Change]
}
