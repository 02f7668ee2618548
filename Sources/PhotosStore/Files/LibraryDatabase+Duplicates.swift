package import Foundation

/// An asset already holding a file with the same content.
package struct ContentMatch: Sendable, Hashable {
    package var assetUUID: String
    /// `PHAssetResourceType` raw value of the matching file.
    package var resourceType: Int
    /// Whether the asset is in Recently Deleted.
    package var isTrashed: Bool
    /// Where the matching file is (a path relative to the library, or a referenced file's
    /// absolute path or URL).
    package var path: String = ""
    /// Its SHA-256, when recorded.
    package var contentHash: String?
}

/// A file about to be imported, as the duplicate check sees it.
package struct ContentQuery: Sendable {
    package var url: URL
    package var fileSize: Int64
    /// ``ContentSignature`` of the file.
    package var signature: String
    /// Whose assets count (`person.id`); nil: anyone's.
    package var owner: Int64?

    package init(url: URL, fileSize: Int64, signature: String, owner: Int64? = nil) {
        self.owner = owner
        self.url = url
        self.fileSize = fileSize
        self.signature = signature
    }
}

extension LibraryDatabase {
    /// Files of the size and signature asked, and those of that size without a signature:
    /// two seeks of `resource_by_size_signature`. (One `contentSignature = ? OR … IS NULL`
    /// term made SQLite seek the size alone and read every file of that size: an import of
    /// 200,000 files of one size fell from 1,250 to 90 files a second.)
    static func duplicateCandidates(fileSize: Int64, signature: String, owner: Int64? = nil) -> StoreSQL {
        let owned: StoreSQL = owner.map { " AND asset.ownerID = \($0)" } ?? ""
        return """
            SELECT resource.id, resource.path, resource.contentHash, resource.contentSignature,
                   asset.uuid, resource.type, asset.trashedDate IS NOT NULL
            FROM resource JOIN asset ON asset.id = resource.assetID
            WHERE resource.fileSize = \(fileSize) AND resource.contentSignature = \(signature)\(owned)
            UNION ALL
            SELECT resource.id, resource.path, resource.contentHash, resource.contentSignature,
                   asset.uuid, resource.type, asset.trashedDate IS NOT NULL
            FROM resource JOIN asset ON asset.id = resource.assetID
            WHERE resource.fileSize = \(fileSize) AND resource.contentSignature IS NULL\(owned)
            """
    }

    /// The assets holding a file with the same bytes as `file`.
    ///
    /// Candidates are files of the same size and ``ContentSignature``; each is confirmed before
    /// it counts: the very same file (an original referenced in place, imported again), the
    /// recorded SHA-256 of a copied original against the file's, or else the bytes compared.
    /// Files imported before signatures were kept have none; those of the same size get one
    /// now (stored), so a library made by an older version still finds its duplicates.
    package func duplicates(of file: ContentQuery) throws(StoreError) -> [ContentMatch] {
        let rows = try read { db in
            try db.rows(Self.duplicateCandidates(fileSize: file.fileSize, signature: file.signature, owner: file.owner)) { row in
                Candidate(
                    id: row.int64(0), path: row.text(1), contentHash: row.optionalText(2), contentSignature: row.optionalText(3),
                    match: ContentMatch(
                        assetUUID: row.text(4), resourceType: row.int(5), isTrashed: row.bool(6), path: row.text(1),
                        contentHash: row.optionalText(2)))
            }
        }
        guard !rows.isEmpty else { return [] }
        var signed: [(Int64, String)] = []
        var matches: [ContentMatch] = []
        var fileHash: String?
        let source = file.url.resolvingSymlinksInPath().path
        for row in rows {
            let url = layout.url(forRelativePath: row.path)
            if row.contentSignature == nil {
                // A missing or unreadable original can't be a duplicate; `photos check` reports it.
                guard let signature = try? ContentSignature.signature(ofFileAt: url, size: file.fileSize) else { continue }
                signed.append((row.id, signature))
                guard signature == file.signature else { continue }
            }
            let same: Bool
            if url.resolvingSymlinksInPath().path == source {
                same = true
            } else if let recorded = row.contentHash {
                if fileHash == nil { fileHash = try ContentHash.sha256(ofFileAt: file.url) }
                same = recorded == fileHash
            } else {
                same = (try? ContentSignature.sameBytes(file.url, url)) ?? false
            }
            if same { matches.append(row.match) }
        }
        if !signed.isEmpty {
            try write { db in
                for (id, signature) in signed {
                    try db.execute(
                        "UPDATE resource SET contentSignature = \(signature) WHERE id = \(id) AND contentSignature IS NULL")
                }
            }
        }
        return matches
    }

    private struct Candidate: Sendable {
        var id: Int64
        var path: String
        var contentHash: String?
        var contentSignature: String?
        var match: ContentMatch
    }
}

/// An original the library references in place, as it was when imported.
package struct ReferencedFile: Sendable, Hashable {
    package var assetUUID: String
    package var isTrashed: Bool
    package var fileSize: Int64
    /// Its modification time at import; nil for files referenced before it was recorded.
    package var fileModificationDate: Date?
}

extension LibraryDatabase {
    /// The original referenced in place at the absolute `path`, if any (the `resource.path`
    /// index: one probe, no file read), so an import of the same folder again can skip files
    /// whose size and modification time are unchanged without reading them.
    package func referencedFile(atPath path: String) throws(StoreError) -> ReferencedFile? {
        try read { db in
            try db.row(
                """
                    SELECT asset.uuid, asset.trashedDate IS NOT NULL, resource.fileSize, resource.fileModificationDate
                    FROM resource JOIN asset ON asset.id = resource.assetID WHERE resource.path = \(path)
                    """
            ) { row in
                ReferencedFile(assetUUID: row.text(0), isTrashed: row.bool(1), fileSize: row.int64(2), fileModificationDate: row.date(3))
            }
        }
    }
}
