package import Foundation

extension ChangeApplier {
    /// `renders/<A>/<UUID>_<stamp>.<ext>`, `…_<stamp>.aae` and for a Live Photo's movie
    /// `…_<stamp>_live.<ext>`: a new name per edit, so the previous version's files (removed
    /// after the commit) are never overwritten in place.
    static func contentPaths(uuid: String, edit: ContentEdit, at date: Date) -> [String] {
        guard case .apply(let content) = edit else { return [] }
        let base = "renders/\(uuid.prefix(1))/\(uuid)_\(Int64(date.timeIntervalSince1970 * 1000))"
        var paths = ["\(base).\(content.fileExtension)", "\(base).aae"]
        if let movie = content.pairedVideo { paths.append("\(base)_live.\(movie.fileExtension)") }
        return paths
    }

    /// The resource types an edit writes: `.fullSizePhoto`, `.fullSizeVideo`,
    /// `.adjustmentData`, `.fullSizePairedVideo`.
    static let editResourceTypes: StoreSQL = "5, 6, 7, 10"

    /// Applies edits and reverts: the rendered version becomes the asset's `.fullSizePhoto` (or
    /// `.fullSizeVideo`) resource, a Live Photo's rendered movie its `.fullSizePairedVideo`,
    /// and the adjustment data its `.adjustmentData` resource (replacing earlier ones, whose
    /// files go after the commit); a revert removes them. Either way the asset's size (and a
    /// video's duration) follows its current version and `contentVersion` goes up.
    mutating func applyContentEdits() throws {
        let now = changes.now.timeIntervalSince1970
        for (uuid, edit) in changes.contentEdits.sorted(by: { $0.key < $1.key }) {
            let row = try assetRow(uuid)
            if case .revert = edit,
                try db.bool("SELECT hasAdjustments FROM asset WHERE id = \(row.id)") != true
            {
                continue  // nothing to revert
            }
            expungedFiles += try db.texts("SELECT path FROM resource WHERE assetID = \(row.id) AND type IN (\(Self.editResourceTypes))")
            try db.execute("DELETE FROM resource WHERE assetID = \(row.id) AND type IN (\(Self.editResourceTypes))")
            switch edit {
            case .apply(let content):
                let paths = Self.contentPaths(uuid: uuid, edit: edit, at: changes.now)
                let adjustmentSize = (try? FileManager.default.attributesOfItem(atPath: content.adjustmentFile.path)[.size] as? NSNumber)?
                    .int64Value ?? 0
                var files: [(type: Int, uti: String, name: String, path: String, size: Int64, width: Int, height: Int, staged: URL)] = [
                    (content.renderedType, content.uniformTypeIdentifier, "FullSizeRender.\(content.fileExtension)", paths[0], content.fileSize,
                     content.pixelWidth, content.pixelHeight, content.renderedFile),
                    (7, "com.apple.photos.adjustment-data", "Adjustments.aae", paths[1], adjustmentSize, 0, 0, content.adjustmentFile),
                ]
                if let movie = content.pairedVideo {
                    files.append(
                        (10, movie.uniformTypeIdentifier, "FullSizeRender.\(movie.fileExtension)", paths[2], movie.fileSize, movie.pixelWidth,
                         movie.pixelHeight, movie.file))
                }
                for file in files {
                    var resource = TableRow<ResourceColumn>()
                    resource[.assetID] = row.id
                    resource[.type] = file.type
                    resource[.uniformTypeIdentifier] = file.uti
                    resource[.originalFilename] = file.name
                    resource[.path] = changes.contentObjectLocation.map { $0 + "/" + file.path } ?? file.path
                    resource[.fileSize] = file.size
                    resource[.pixelWidth] = file.width
                    resource[.pixelHeight] = file.height
                    try db.execute(ResourceColumn.insert(resource))
                    if changes.contentObjectLocation == nil { try moves.move(file.staged, to: file.path) }
                }
                try db.execute(
                    """
                        UPDATE asset SET hasAdjustments = 1, adjustmentFormatIdentifier = \(content.formatIdentifier),
                        pixelWidth = \(content.pixelWidth), pixelHeight = \(content.pixelHeight),
                        duration = COALESCE(\(content.duration), duration), contentVersion = contentVersion + 1, modificationDate = \(now)
                        WHERE id = \(row.id)
                        """)
            case .revert(let duration):
                // Back to the original's (upright) size, as recorded for its `.photo` resource.
                try db.execute(
                    """
                        UPDATE asset SET hasAdjustments = 0, adjustmentFormatIdentifier = NULL,
                        pixelWidth = COALESCE((SELECT pixelWidth FROM resource WHERE assetID = asset.id AND type IN (1, 2) ORDER BY type LIMIT 1), pixelWidth),
                        pixelHeight = COALESCE((SELECT pixelHeight FROM resource WHERE assetID = asset.id AND type IN (1, 2) ORDER BY type LIMIT 1), pixelHeight),
                        duration = COALESCE(\(duration), duration), contentVersion = contentVersion + 1, modificationDate = \(now)
                        WHERE id = \(row.id)
                        """)
            }
            changedContent.append(uuid)
        }
    }
}

extension ContentEdit {
    /// Where an applied edit's files go, relative to the library's root: its rendered version,
    /// its adjustment data and a Live Photo's rendered movie, in that order (none for a revert).
    package func relativePaths(assetUUID: String, at date: Date) -> [String] {
        ChangeApplier.contentPaths(uuid: assetUUID, edit: self, at: date)
    }
}
