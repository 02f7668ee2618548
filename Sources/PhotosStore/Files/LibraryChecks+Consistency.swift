import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// One thing wrong with a library, found by ``LibraryDatabase/checkConsistency(verifyingContents:)``.
package struct ConsistencyProblem: Sendable, Hashable {
    package enum Kind: String, Sendable {
        /// SQLite's own check failed.
        case databaseIntegrity
        /// A row points at a row that doesn't exist.
        case foreignKey
        /// A resource's file is missing.
        case missingFile
        /// A resource's file has another size than recorded.
        case sizeMismatch
        /// A resource's file has other bytes than recorded (only when contents are verified).
        case contentMismatch
        /// A file in `originals/`, `renders/`, `derivatives/`, `cache/` or `tmp/` that belongs to nothing.
        case orphanFile
        /// An asset with no photo or video file.
        case assetWithoutFile
        /// An asset whose current version failed to render (a thumbnail or poster frame could
        /// not be decoded from it): it can't be shown.
        case unrenderable
    }

    package var kind: Kind
    /// What, where: a path relative to the library or an asset UUID, with details.
    package var detail: String
}

/// What a consistency check looked at.
package struct ConsistencyCheck: Sendable {
    package var problems: [ConsistencyProblem] = []
    package var assets = 0
    package var files = 0
    package var bytesVerified: Int64 = 0
}

extension LibraryChecks {
    /// Checks the database (SQLite: `PRAGMA integrity_check` and `foreign_key_check`;
    /// PostgreSQL checks its own pages and keys) and every resource row against its file:
    /// present, of the recorded size and, with `verifyingContents`, of the recorded SHA-256 (or,
    /// for originals referenced in place, of the recorded ``ContentSignature``). Files in every
    /// folder the library owns that belong to nothing are reported too (``orphanFiles()``).
    /// Reads only; repairs nothing.
    package func checkConsistency(verifyingContents: Bool) throws(StoreError) -> ConsistencyCheck {
        var check = ConsistencyCheck()
        var (integrity, foreignKeys) = (["ok"], [String]())
        if database.sqlite != nil {
            (integrity, foreignKeys) = try database.sqliteRead { db in
                let integrity = try db.texts("PRAGMA integrity_check")
                let foreignKeys = try db.rows("PRAGMA foreign_key_check") { row in
                    "\(row.optionalText(0) ?? "?") row \(row.optionalInt64(1) ?? -1) → \(row.optionalText(2) ?? "?")"
                }
                return (integrity, foreignKeys)
            }
        }
        let (resources, assets, fileless) = try database.read { db in
            let resources = try db.rows(
                "SELECT resource.path, resource.fileSize, resource.contentHash, asset.uuid, resource.contentSignature FROM resource JOIN asset ON asset.id = resource.assetID"
            ) { (path: $0.text(0), size: $0.int64(1), hash: $0.optionalText(2), asset: $0.text(3), signature: $0.optionalText(4)) }
            let assets = try db.int("SELECT COUNT(*) FROM asset") ?? 0
            let fileless = try db.texts(
                """
                SELECT uuid FROM asset WHERE NOT EXISTS (
                    SELECT 1 FROM resource WHERE resource.assetID = asset.id AND resource.type IN (1, 2))
                ORDER BY id LIMIT 1000
                """)
            return (resources, assets, fileless)
        }
        check.assets = assets
        check.files = resources.count
        if integrity != ["ok"] {
            check.problems += integrity.map { ConsistencyProblem(kind: .databaseIntegrity, detail: $0) }
        }
        check.problems += foreignKeys.map { ConsistencyProblem(kind: .foreignKey, detail: $0) }
        check.problems += fileless.map { ConsistencyProblem(kind: .assetWithoutFile, detail: "asset \($0) has no photo or video file") }

        var named = Set<String>()
        for resource in resources {
            named.insert(resource.path)
            // A remote store's files are its own to keep; only their local copies are ours.
            if LibraryLayout.isRemote(path: resource.path) { continue }
            let url = database.layout.url(forRelativePath: resource.path)
            // stat follows a link (an original with a name that isn't UTF-8, kept as a link).
            var info = stat()
            guard stat(url.path, &info) == 0 else {
                let what = LibraryLayout.isReferenced(path: resource.path) ? "referenced original \(resource.path)" : resource.path
                check.problems.append(ConsistencyProblem(kind: .missingFile, detail: "\(what) (asset \(resource.asset)) is missing"))
                continue
            }
            let size = Int64(info.st_size)
            guard size == resource.size else {
                check.problems.append(
                    ConsistencyProblem(
                        kind: .sizeMismatch,
                        detail: "\(resource.path) (asset \(resource.asset)) has \(size) bytes, the library recorded \(resource.size)"))
                continue
            }
            guard verifyingContents else { continue }
            // Copies carry a full hash; originals referenced in place only a signature.
            let matches: Bool
            if let expected = resource.hash {
                matches = try ContentHash.sha256(ofFileAt: url) == expected
                check.bytesVerified += size
            } else if let expected = resource.signature {
                matches = try ContentSignature.signature(ofFileAt: url, size: size) == expected
                check.bytesVerified += min(size, Int64(2 * ContentSignature.edgeSize))
            } else {
                continue
            }
            if !matches {
                check.problems.append(
                    ConsistencyProblem(
                        kind: .contentMismatch, detail: "\(resource.path) (asset \(resource.asset)) has other bytes than imported"))
            }
        }
        check.problems += try database.renderFailures.all().map { failure in
            ConsistencyProblem(
                kind: .unrenderable,
                detail: "asset \(failure.assetUUID) (\(failure.sourcePath)) can't be shown: \(failure.reason)")
        }
        check.problems += try orphanFiles().map { orphan in
            ConsistencyProblem(kind: .orphanFile, detail: "\(orphan.path) belongs to no asset")
        }
        return check
    }
}
