import Foundation
import Imaging
import PhotosStore

/// Makes a library's rows and files agree again after its database was rebuilt or put back
/// from a snapshot: originals no row names become assets again (their UUID kept from the file
/// name), edits no row names are re-attached from their adjustment data, and, for a snapshot
/// older than the files, rows whose files were removed since go.
struct LibraryReconciler {
    let library: PHPhotoLibrary
    var store: LibraryDatabase { library.store }
    /// Assets per commit.
    static let batchSize = 200

    /// - Parameter droppingRowsOfLostFiles: remove assets whose original is gone and revert
    ///   edits whose files are gone (right for a snapshot, where that means "deleted since");
    ///   else they are only listed.
    func run(droppingRowsOfLostFiles: Bool, into report: inout PHLibraryRepairReport) throws(PHPhotosError) {
        do throws(StoreError) {
            try dropRows(removing: droppingRowsOfLostFiles, into: &report)
            let orphans = try store.checks.orphanFiles()
            let (known, _) = try store.checks.assetUUIDs()
            try adoptOriginals(orphans.filter(\.isOriginal).map(\.path), known: known, into: &report)
            let (_, edited) = try store.checks.assetUUIDs()
            try reattachEdits(orphans.filter { $0.path.hasPrefix("renders/") }.map(\.path), edited: edited, into: &report)
            report.albumCount = try store.checks.userCollectionCount()
        } catch {
            throw PHPhotosError(error)
        }
    }

    // MARK: Rows whose files are gone

    private func dropRows(removing: Bool, into report: inout PHLibraryRepairReport) throws(StoreError) {
        let missing = try store.checks.resourcesWithMissingFiles()
        guard !missing.isEmpty else { return }
        let primaryLost = Set(missing.filter { [1, 2].contains($0.type) }.map(\.assetUUID))
        let editLost = Set(missing.filter { [5, 6, 7, 10].contains($0.type) }.map(\.assetUUID)).subtracting(primaryLost)
        let otherLost = missing.filter { ![1, 2, 5, 6, 7, 10].contains($0.type) && !primaryLost.contains($0.assetUUID) }.map(\.path)
        guard removing else {
            report.assetsWithLostFiles = missing.map(\.path).sorted()
            return
        }
        var changes = StoreChangeSet()
        changes.expungedAssets = primaryLost.sorted()
        for uuid in editLost { changes.contentEdits[uuid] = .revert(duration: nil) }
        try store.commit(changes)
        report.removedAssets = primaryLost.map(LocalIdentifier.asset).sorted()
        report.revertedEdits = editLost.map(LocalIdentifier.asset).sorted()
        report.assetsWithLostFiles = otherLost.sorted()
    }

    // MARK: Originals

    /// `originals/<A>/<UUID>.<ext>` (the main file) and `<UUID>_<type>.<ext>` (a Live Photo's
    /// movie, a RAW alternate), by UUID.
    private func adoptOriginals(_ paths: [String], known: Set<String>, into report: inout PHLibraryRepairReport) throws(StoreError) {
        var groups: [String: [(path: String, type: PHAssetResourceType?)]] = [:]
        for path in paths {
            let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
            let uuid = String(name.prefix(36))
            guard UUID(uuidString: uuid) != nil, uuid == uuid.uppercased() else {
                report.unusedFiles.append((path, "its name is not an asset's UUID"))
                continue
            }
            let rest = name.dropFirst(36)
            var type: PHAssetResourceType?
            if !rest.isEmpty {
                guard rest.hasPrefix("_"), let raw = Int(rest.dropFirst()), let parsed = PHAssetResourceType(rawValue: raw) else {
                    report.unusedFiles.append((path, "its name is not an asset's UUID"))
                    continue
                }
                type = parsed
            }
            groups[uuid, default: []].append((path, type))
        }
        var pending: [NewAsset] = []
        let now = Date()
        for (uuid, files) in groups.sorted(by: { $0.key < $1.key }) {
            if known.contains(uuid) {
                for file in files { report.unusedFiles.append((file.path, "asset \(uuid) exists and names other files")) }
                continue
            }
            switch asset(uuid: uuid, files: files, now: now) {
            case .success(let asset):
                pending.append(asset)
                if pending.count >= Self.batchSize {
                    try commitAssets(pending, into: &report)
                    pending = []
                }
            case .failure(let reason):
                for file in files { report.unusedFiles.append((file.path, reason.message)) }
            }
        }
        try commitAssets(pending, into: &report)
    }

    private func commitAssets(_ assets: [NewAsset], into report: inout PHLibraryRepairReport) throws(StoreError) {
        guard !assets.isEmpty else { return }
        var changes = StoreChangeSet()
        changes.newAssets = assets
        try store.commit(changes)
        for asset in assets {
            // Derivatives may show an edit that is not re-attached: made again on demand.
            store.layout.removeDerivatives(assetUUID: asset.record.uuid)
            report.rebuiltAssets.append(LocalIdentifier.asset(asset.record.uuid))
        }
    }

    /// The row of an asset from its files in `originals/`, read with the importer's probe.
    private func asset(uuid: String, files: [(path: String, type: PHAssetResourceType?)], now: Date) -> Result<NewAsset, PHPhotosError> {
        var staged: [StagedResource] = []
        var paths: [String] = []
        // The main file first: the builder takes the first photo or video.
        for file in files.sorted(by: { ($0.type?.rawValue ?? 0) < ($1.type?.rawValue ?? 0) }) {
            let url = store.layout.url(forRelativePath: file.path)
            let metadata: MediaMetadata
            do {
                metadata = try MediaProbe.probe(fileAt: url)
            } catch {
                return .failure(PHPhotosError(.invalidResource, "it can't be read as a photo or video: \(error)"))
            }
            let hash: String
            let signature: String
            guard let (size, modified) = SafeFiles.stat(url) else { return .failure(PHPhotosError(.invalidResource, "it is gone")) }
            do throws(StoreError) {
                hash = try ContentHash.sha256(ofFileAt: url)
                signature = try ContentSignature.signature(ofFileAt: url, size: size)
            } catch {
                return .failure(PHPhotosError(.invalidResource, error.message))
            }
            staged.append(
                StagedResource(
                    type: file.type ?? (metadata.isVideo ? .video : .photo), metadata: metadata, stagedFile: nil, referencedFile: nil,
                    fileSize: size, originalFilename: URL(fileURLWithPath: file.path).lastPathComponent,
                    uniformTypeIdentifier: metadata.format.uniformTypeIdentifier, fileExtension: metadata.format.preferredFilenameExtension,
                    fileModificationDate: Date(timeIntervalSince1970: modified), contentHash: hash, contentSignature: signature))
            paths.append(file.path)
        }
        guard ResourceSpec.isSupported(staged.map(\.type)) else {
            return .failure(PHPhotosError(.invalidResource, "its files (\(staged.map { "\($0.type)" }.joined(separator: ", "))) don't make an asset"))
        }
        do throws(PHPhotosError) {
            var asset = try AssetRecordBuilder.newAsset(uuid: uuid, resources: staged, edit: AssetEdit(), now: now)
            // The files stay where they are, under the names they have.
            for index in asset.resources.indices { asset.resources[index].relativePath = paths[index] }
            return .success(asset)
        } catch {
            return .failure(error)
        }
    }

    // MARK: Edits

    /// `renders/<A>/<UUID>_<stamp>.<ext>`, `…_<stamp>.aae`, `…_<stamp>_live.<ext>`: the newest
    /// complete edit of an asset without one is re-attached.
    private func reattachEdits(_ paths: [String], edited: Set<String>, into report: inout PHLibraryRepairReport) throws(StoreError) {
        struct Edit {
            var rendered: String?
            var adjustment: String?
            var movie: String?
        }
        var edits: [String: [Int64: Edit]] = [:]
        for path in paths {
            let url = URL(fileURLWithPath: path)
            var name = url.deletingPathExtension().lastPathComponent
            let uuid = String(name.prefix(36))
            guard UUID(uuidString: uuid) != nil, name.dropFirst(36).hasPrefix("_") else {
                report.unusedFiles.append((path, "its name is not an edit's"))
                continue
            }
            let isMovie = name.hasSuffix("_live")
            if isMovie { name = String(name.dropLast(5)) }
            guard let stamp = Int64(name.dropFirst(37)) else {
                report.unusedFiles.append((path, "its name is not an edit's"))
                continue
            }
            if isMovie {
                edits[uuid, default: [:]][stamp, default: Edit()].movie = path
            } else if url.pathExtension == "aae" {
                edits[uuid, default: [:]][stamp, default: Edit()].adjustment = path
            } else {
                edits[uuid, default: [:]][stamp, default: Edit()].rendered = path
            }
        }
        let (known, _) = try store.checks.assetUUIDs()
        var changes = StoreChangeSet()
        var attached: [String] = []
        for (uuid, stamps) in edits.sorted(by: { $0.key < $1.key }) {
            let newestFirst = stamps.sorted { $0.key > $1.key }
            guard known.contains(uuid), !edited.contains(uuid) else {
                let why = known.contains(uuid) ? "an older edit (the asset's current one is in place)" : "an edit of an asset that is gone"
                for (_, edit) in newestFirst { for path in [edit.rendered, edit.adjustment, edit.movie].compactMap({ $0 }) { report.unusedFiles.append((path, why)) } }
                continue
            }
            var chosen: Int64?
            for (stamp, edit) in newestFirst where chosen == nil {
                if let content = renderedContent(edit.rendered, edit.adjustment, edit.movie) {
                    changes.contentEdits[uuid] = .apply(content)
                    chosen = stamp
                }
            }
            for (stamp, edit) in newestFirst where stamp != chosen {
                for path in [edit.rendered, edit.adjustment, edit.movie].compactMap({ $0 }) {
                    report.unusedFiles.append((path, chosen == nil ? "an edit without its rendered image or adjustment data" : "an older edit"))
                }
            }
            if chosen != nil { attached.append(uuid) }
            if changes.contentEdits.count >= Self.batchSize {
                try store.commit(changes)
                changes = StoreChangeSet()
            }
        }
        if !changes.contentEdits.isEmpty { try store.commit(changes) }
        report.reattachedEdits = attached.map(LocalIdentifier.asset)
    }

    /// An edit's files as a content change (the commit renames them to new names in `renders/`).
    private func renderedContent(_ rendered: String?, _ adjustment: String?, _ movie: String?) -> RenderedContent? {
        guard let rendered, let adjustment else { return nil }
        let layout = store.layout
        let renderedURL = layout.url(forRelativePath: rendered), adjustmentURL = layout.url(forRelativePath: adjustment)
        // Files that can't be read (logged) are not reattached: the repair lists them as unused.
        let logger = library.logger
        let data = logger.attempt(.warning, "read the adjustment data \(adjustment) to reattach its edit") {
            try Data(contentsOf: adjustmentURL)
        }
        guard let data, let recipe = PHAdjustmentData(propertyList: data) else { return nil }
        let metadata = logger.attempt(.warning, "read the rendered file \(rendered) to reattach its edit") {
            try MediaProbe.probe(fileAt: renderedURL)
        }
        guard let metadata, let (size, _) = SafeFiles.stat(renderedURL) else { return nil }
        var content = RenderedContent(
            renderedFile: renderedURL, adjustmentFile: adjustmentURL, formatIdentifier: recipe.formatIdentifier,
            uniformTypeIdentifier: metadata.format.uniformTypeIdentifier, fileExtension: metadata.format.preferredFilenameExtension,
            fileSize: size, pixelWidth: metadata.orientedPixelWidth, pixelHeight: metadata.orientedPixelHeight)
        if metadata.isVideo {
            content.renderedType = PHAssetResourceType.fullSizeVideo.rawValue
            content.duration = metadata.duration
        }
        if let movie {
            let movieURL = layout.url(forRelativePath: movie)
            let probed = logger.attempt(.notice, "read the rendered movie \(movie) to reattach it with its edit") {
                try MediaProbe.probe(fileAt: movieURL)
            }
            if let probed, probed.isVideo, let (movieSize, _) = SafeFiles.stat(movieURL) {
                content.pairedVideo = RenderedContent.StagedMovie(
                    file: movieURL, uniformTypeIdentifier: probed.format.uniformTypeIdentifier,
                    fileExtension: probed.format.preferredFilenameExtension, fileSize: movieSize, pixelWidth: probed.orientedPixelWidth,
                    pixelHeight: probed.orientedPixelHeight)
            }
        }
        return content
    }
}
