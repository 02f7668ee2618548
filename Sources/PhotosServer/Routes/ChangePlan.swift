import Foundation
import Photos
import PhotosLocking

/// The operations of one `POST /api/changes`, resolved before the change block runs: every
/// album and every asset an album step, an edit or a recovery names looked up (404 for unknown
/// ones, as for assets a limited token can't see), every edit rendered, so the block itself
/// only makes change requests. The assets of favorites, hiding and deleting are found last, in
/// one read with those of the other requests arriving at the same time (``AssetLookups``).
final class ChangePlan: Sendable {
    private enum AlbumTarget: Sendable {
        case existing(PHAssetCollection)
        case created(ref: String)
    }

    private enum Step: Sendable {
        case favorite([AssetReference], Bool)
        case hide([AssetReference], Bool)
        case delete([AssetReference])
        case recover([PHAsset])
        case createAlbum(title: String, ref: String?)
        case renameAlbum(PHAssetCollection, String)
        case deleteAlbum(PHAssetCollection)
        case addToAlbum(AlbumTarget, [PHAsset])
        case removeFromAlbum(PHAssetCollection, [PHAsset])
        case reorderAlbum(PHAssetCollection, IndexSet, Int)
        case edit(PHAsset, PHContentEditingOutput)
        case revert(PHAsset)
        case createSharedAlbum(title: String, ref: String?)
        case share(AlbumTarget, person: String, PHSharedAlbumRole)
        case unshare(PHAssetCollection, person: String)
        case leave(PHAssetCollection)
    }

    private let steps: [Step]
    /// The assets the favorite, hide and delete steps name, by local identifier.
    private let found: [String: PHAsset]
    private let created = Mutex<[String: String]>([:])

    /// An operation resolved: a step, or an edit to render (with its asset looked up).
    private enum Resolved: Sendable {
        case step(Step)
        case edit(PHAsset, ChangeOperation, index: Int)
    }

    init(_ operations: [ChangeOperation], client: ClientAccess, service: LibraryService) async throws {
        // Every lookup reads the store: off the event loops, in one go; then the edits render
        // (on the CPU pool). Favorites, hiding and deleting alone need no read here.
        let resolved =
            if operations.allSatisfy(\.namesAssetsOnly) {
                try Self.resolve(operations, client: client, service: service)
            } else {
                try await service.quickly("change lookups") { try Self.resolve(operations, client: client, service: service) }
            }
        // The assets favorites, hiding and deleting name: found together with other requests'.
        let named = Self.references(in: resolved)
        let found = named.isEmpty ? [:] : try await service.lookups.assets(Array(Set(named.map(\.identifier))).sorted(), on: service)
        if let missing = named.first(where: { found[$0.identifier] == nil }) { throw APIError.notFound("asset '\(missing.text)'") }
        self.found = found
        var steps: [Step] = []
        for item in resolved {
            switch item {
            case .step(let step): steps.append(step)
            case .edit(let asset, let operation, let index):
                if let output = try await Self.render(operation, of: asset, at: index, service: service) {
                    steps.append(.edit(asset, output))
                } else {
                    steps.append(.revert(asset))
                }
            }
        }
        self.steps = steps
    }

    /// Looks every asset and album up and checks each operation, in order.
    private static func resolve(_ operations: [ChangeOperation], client: ClientAccess, service: LibraryService) throws -> [Resolved] {
        var resolved: [Resolved] = []
        func add(_ step: Step) { resolved.append(.step(step)) }
        var refs = Set<String>()
        // The albums' order as the operations before each one leave it: a reorder's indexes
        // refer to it, as successive moves of one PhotoKit change request do.
        var members: [String: [String]] = [:]
        func order(of album: PHAssetCollection) -> [String] {
            members[album.localIdentifier]
                ?? service.withLibrary { PHAsset.fetchAssets(in: album, options: nil).map(\.localIdentifier) }
        }
        for (index, operation) in operations.enumerated() {
            func named() throws -> [String] {
                let list = try operation.require(operation.assets ?? operation.asset.map { [$0] }, "assets", at: index)
                guard !list.isEmpty else { throw APIError(.badRequest, "operations[\(index)]: 'assets' is empty") }
                return list
            }
            func assets(deleted: Bool = false) throws -> [PHAsset] {
                try named().map { try service.asset($0, for: client, includeDeleted: deleted) }
            }
            /// Checked now; found with other requests' assets at the end (``AssetLookups``).
            func references() throws -> [AssetReference] {
                try named().map { try service.assetReference($0, for: client) }
            }
            func album() throws -> PHAssetCollection {
                let text = try operation.require(operation.album, "album", at: index)
                let identifier = try ObjectID.collection(text)
                let found = try service.withLibrary {
                    try PHAssetCollection.fetchAssetCollections(withLocalIdentifiers: [identifier], options: nil).firstObjectOrFailure()
                }
                guard let found, found.assetCollectionType == .album else { throw APIError.notFound("album '\(text)'") }
                return found
            }
            /// Sharing is between people: a client that is no person (a library without people)
            /// can't.
            func person() throws -> String {
                guard client.person != nil else {
                    throw APIError(.forbidden, "operations[\(index)] (\(operation.op.rawValue)): sharing is between the people of a library")
                }
                return try operation.require(operation.person, "person", at: index)
            }
            switch operation.op {
            case .createSharedAlbum:
                guard client.person != nil else {
                    throw APIError(.forbidden, "operations[\(index)] (createSharedAlbum): sharing is between the people of a library")
                }
                let title = try operation.require(operation.title, "title", at: index).trimmingCharacters(in: .whitespaces)
                guard !title.isEmpty else { throw APIError(.badRequest, "operations[\(index)]: the title is empty") }
                if let ref = operation.ref { refs.insert(ref) }
                add(.createSharedAlbum(title: title, ref: operation.ref))
            case .shareAlbum:
                let whom = try person()
                let text = try operation.require(operation.role, "role", at: index)
                guard let role = PHSharedAlbumRole(rawValue: text) else {
                    throw APIError(.badRequest, "operations[\(index)]: 'role' must be viewer or contributor, not '\(text.prefix(40))'")
                }
                if let ref = operation.album, refs.contains(ref) {
                    add(.share(.created(ref: ref), person: whom, role))
                } else {
                    add(.share(.existing(try album()), person: whom, role))
                }
            case .unshareAlbum:
                let whom = try person()
                add(.unshare(try album(), person: whom))
            case .leaveAlbum:
                guard client.person != nil else {
                    throw APIError(.forbidden, "operations[\(index)] (leaveAlbum): sharing is between the people of a library")
                }
                add(.leave(try album()))
            case .favorite: add(.favorite(try references(), try operation.require(operation.value, "value", at: index)))
            case .hide: add(.hide(try references(), try operation.require(operation.value, "value", at: index)))
            case .delete: add(.delete(try references()))
            case .recover: add(.recover(try assets(deleted: true)))
            case .createAlbum:
                let title = try operation.require(operation.title, "title", at: index).trimmingCharacters(in: .whitespaces)
                guard !title.isEmpty else { throw APIError(.badRequest, "operations[\(index)]: the title is empty") }
                if let ref = operation.ref { refs.insert(ref) }
                add(.createAlbum(title: title, ref: operation.ref))
            case .renameAlbum:
                let title = try operation.require(operation.title, "title", at: index).trimmingCharacters(in: .whitespaces)
                guard !title.isEmpty else { throw APIError(.badRequest, "operations[\(index)]: the title is empty") }
                add(.renameAlbum(try album(), title))
            case .deleteAlbum: add(.deleteAlbum(try album()))
            case .addToAlbum:
                if let ref = operation.album, refs.contains(ref) {
                    add(.addToAlbum(.created(ref: ref), try assets()))
                } else {
                    let target = try album()
                    let added = try assets()
                    var list = order(of: target)
                    let present = Set(list)
                    list += added.map(\.localIdentifier).filter { !present.contains($0) }
                    members[target.localIdentifier] = list
                    add(.addToAlbum(.existing(target), added))
                }
            case .removeFromAlbum:
                let target = try album()
                let removed = try assets()
                let gone = Set(removed.map(\.localIdentifier))
                members[target.localIdentifier] = order(of: target).filter { !gone.contains($0) }
                add(.removeFromAlbum(target, removed))
            case .reorderAlbum:
                let target = try album()
                let from = try operation.require(operation.from, "from", at: index)
                let to = try operation.require(operation.to, "to", at: index)
                var list = order(of: target)
                let moved = IndexSet(from)
                guard !moved.isEmpty, moved.allSatisfy({ (0..<list.count).contains($0) }), to >= 0, to <= list.count - moved.count else {
                    throw APIError(
                        .badRequest, "operations[\(index)]: 'from' and 'to' must be indexes within the album's \(list.count) assets")
                }
                let moving = moved.map { list[$0] }
                list = list.enumerated().filter { !moved.contains($0.offset) }.map(\.element)
                list.insert(contentsOf: moving, at: to)
                members[target.localIdentifier] = list
                add(.reorderAlbum(target, moved, to))
            case .edit:
                let asset = try service.asset(try operation.require(operation.asset, "asset", at: index), for: client)
                resolved.append(.edit(asset, operation, index: index))
            case .revert:
                add(.revert(try service.asset(try operation.require(operation.asset, "asset", at: index), for: client)))
            }
        }
        return resolved
    }

    /// The assets the favorite, hide and delete steps name, in the operations' order.
    private static func references(in resolved: [Resolved]) -> [AssetReference] {
        resolved.flatMap { item -> [AssetReference] in
            switch item {
            case .step(.favorite(let assets, _)), .step(.hide(let assets, _)), .step(.delete(let assets)): assets
            default: []
            }
        }
    }

    /// The change block: one change request per step, in order.
    var block: @Sendable () -> Void {
        { [self] in
            func assets(_ references: [AssetReference]) -> [PHAsset] { references.compactMap { found[$0.identifier] } }
            var createdRequests: [String: PHAssetCollectionChangeRequest] = [:]
            // One request per existing album: its edits apply in order, each on the result of
            // the one before (separate requests would each start from the album as fetched).
            var albumRequests: [String: PHAssetCollectionChangeRequest] = [:]
            func request(for album: PHAssetCollection) -> PHAssetCollectionChangeRequest? {
                if let known = albumRequests[album.localIdentifier] { return known }
                let made = PHAssetCollectionChangeRequest(for: album, assets: PHAsset.fetchAssets(in: album, options: nil))
                albumRequests[album.localIdentifier] = made
                return made
            }
            var createdIdentifiers: [String: String] = [:]
            for step in steps {
                switch step {
                case .favorite(let named, let value): for asset in assets(named) { PHAssetChangeRequest(for: asset).isFavorite = value }
                case .hide(let named, let value): for asset in assets(named) { PHAssetChangeRequest(for: asset).isHidden = value }
                case .delete(let named): PHAssetChangeRequest.deleteAssets(assets(named))
                case .recover(let assets): PHAssetChangeRequest.recoverAssets(assets)
                case .createAlbum(let title, let ref):
                    let request = PHAssetCollectionChangeRequest.creationRequestForAssetCollection(withTitle: title)
                    if let ref {
                        createdRequests[ref] = request
                        createdIdentifiers[ref] = request.placeholderForCreatedAssetCollection.localIdentifier
                    }
                case .renameAlbum(let album, let title): request(for: album)?.title = title
                case .deleteAlbum(let album): PHAssetCollectionChangeRequest.deleteAssetCollections([album])
                case .addToAlbum(.existing(let album), let assets): request(for: album)?.addAssets(assets)
                case .addToAlbum(.created(let ref), let assets): createdRequests[ref]?.addAssets(assets)
                case .removeFromAlbum(let album, let assets): request(for: album)?.removeAssets(assets)
                case .reorderAlbum(let album, let from, let to): request(for: album)?.moveAssets(at: from, to: to)
                case .edit(let asset, let output): PHAssetChangeRequest(for: asset).contentEditingOutput = output
                case .revert(let asset): PHAssetChangeRequest(for: asset).revertAssetContentToOriginal()
                case .createSharedAlbum(let title, let ref):
                    let request = PHAssetCollectionChangeRequest.creationRequestForSharedAlbum(withTitle: title)
                    if let ref {
                        createdRequests[ref] = request
                        createdIdentifiers[ref] = request.placeholderForCreatedAssetCollection.localIdentifier
                    }
                case .share(.existing(let album), let person, let role): request(for: album)?.addMember(person, role: role)
                case .share(.created(let ref), let person, let role): createdRequests[ref]?.addMember(person, role: role)
                case .unshare(let album, let person): request(for: album)?.removeMember(person)
                case .leave(let album): request(for: album)?.leaveSharedAlbum()
                }
            }
            created.withLock { $0 = createdIdentifiers }
        }
    }

    /// The assets of a plan whose every step changes assets alone (favorite, hide, delete,
    /// recover), which ``ChangeCommitter`` may commit with other such plans; nil for any other.
    var batchableAssets: Set<String>? {
        var touched = Set<String>()
        for step in steps {
            switch step {
            case .favorite(let assets, _), .hide(let assets, _), .delete(let assets):
                touched.formUnion(assets.map(\.identifier))
            case .recover(let assets):
                touched.formUnion(assets.map(\.localIdentifier))
            default:
                return nil
            }
        }
        return touched
    }

    /// The assets whose content the plan changes (edits and reverts).
    var editedAssets: [String] {
        steps.compactMap { step in
            switch step {
            case .edit(let asset, _), .revert(let asset): asset.localIdentifier
            default: nil
            }
        }
    }

    /// Albums created, by ref (after the block ran).
    func createdIdentifiers() -> [String: String] {
        created.withLock { $0 }
    }

    /// Removes rendered edits the library didn't take (it copies what it takes).
    func cleanUp() {
        for case .edit(_, let output) in steps {
            try? FileManager.default.removeItem(at: output.renderedContentURL)
        }
    }

    /// The rendered edit, or `nil` when the edit goes back to the original (a revert).
    private static func render(
        _ operation: ChangeOperation, of asset: PHAsset, at index: Int, service: LibraryService
    ) async throws -> PHContentEditingOutput? {
        let options = PHContentEditingInputRequestOptions()
        options.canHandleAdjustmentData = PHBasicAdjustments.canHandle
        let input: PHContentEditingInput = try await withCheckedThrowingContinuation { continuation in
            asset.requestContentEditingInput(with: options) { input, info in
                if let input {
                    continuation.resume(returning: input)
                } else {
                    let error = info[PHContentEditingInputErrorKey] as? PHPhotosError
                    continuation.resume(throwing: APIError(error ?? PHPhotosError(.internalError, "No editing input for \(asset.localIdentifier)")))
                }
            }
        }
        let recipe = try operation.adjustments(resuming: input.adjustmentData.flatMap(PHBasicAdjustments.init(adjustmentData:)), at: index)
        if recipe.isIdentity { return nil }
        guard let image = input.fullSizeImageURL else {
            throw APIError(.conflict, "operations[\(index)]: \(asset.localIdentifier) has no image to edit")
        }
        // Decoding, rendering and encoding the full-size image: seconds for a big photo, on
        // the work pool (on the event loop it would stall every connection of that loop).
        return try await service.offLoop("edit") {
            let output = PHContentEditingOutput(contentEditingInput: input)
            do {
                try recipe.render(imageAt: image, to: output.renderedContentURL)
            } catch {
                try? FileManager.default.removeItem(at: output.renderedContentURL)
                throw APIError(.unprocessableContent, "operations[\(index)]: rendering the edit failed: \(error)")
            }
            output.adjustmentData = recipe.adjustmentData
            return output
        }
    }
}
