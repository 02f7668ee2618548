import Foundation
import PhotosStore

/// What ``PHPhotoLibrary/checkConsistency(verifyingContents:)`` found.
///
/// Linux addition.
public struct PHLibraryCheckReport: Sendable {
    /// One thing wrong.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        public enum Kind: String, Sendable {
            /// SQLite's `PRAGMA integrity_check` reported damage.
            case databaseIntegrity
            /// A row refers to a row that doesn't exist.
            case foreignKey
            /// An asset's file is missing.
            case missingFile
            /// An asset's file has another size than when it was imported.
            case sizeMismatch
            /// An asset's file has other bytes than when it was imported.
            case contentMismatch
            /// A file in a folder the library owns (originals, edits, derivatives, local copies,
            /// staging) that belongs to nothing.
            case orphanFile
            /// An asset with no photo or video file.
            case assetWithoutFile
            /// An asset whose current version the library failed to render (a thumbnail or a
            /// video's poster frame could not be decoded): it can't be shown. Recorded when a
            /// render fails (an image request, `photos cache warm`, an import making
            /// thumbnails), forgotten when it succeeds or the asset is edited.
            case unrenderable
            /// An object under the library's bucket location that no asset refers to (an
            /// upload whose change failed or whose process was killed before its commit).
            /// Linux addition, for libraries with originals in a bucket.
            case orphanObject
        }

        public let kind: Kind
        public let detail: String
        public var description: String { "\(kind.rawValue): \(detail)" }
    }

    public let problems: [Problem]
    /// Assets and files looked at.
    public let assetCount: Int
    public let fileCount: Int
    /// Bytes read to compare contents (0 unless contents were verified).
    public let bytesVerified: Int64

    /// Whether nothing is wrong.
    public var isConsistent: Bool { problems.isEmpty }
}

extension PHPhotoLibrary {
    /// Checks that the library is whole: SQLite's integrity and foreign-key checks, every
    /// asset's files present with their recorded sizes (and, with `verifyingContents`, their
    /// recorded SHA-256, which reads every original), no stray files in the folders the
    /// library owns (`originals/`, `renders/`, `derivatives/`, `cache/`, `tmp/`), and no asset
    /// whose current version failed to render (``PHLibraryCheckReport/Problem/Kind/unrenderable``).
    /// Reads only.
    ///
    /// In a library whose originals are in a bucket (``init(url:originals:)``), the bucket is
    /// listed: an asset whose object is gone is a `missingFile` naming the asset, one of
    /// another size a `sizeMismatch`, and an object no asset refers to an
    /// ``PHLibraryCheckReport/Problem/Kind/orphanObject``.
    ///
    /// Linux addition (Photos on Apple's platforms repairs its library itself when it opens).
    public func checkConsistency(verifyingContents: Bool = false) throws -> PHLibraryCheckReport {
        let check: ConsistencyCheck
        do {
            check = try store.checks.checkConsistency(verifyingContents: verifyingContents)
        } catch {
            throw PHPhotosError(error)
        }
        let objects = try checkObjects()
        return PHLibraryCheckReport(
            problems: check.problems.map {
                PHLibraryCheckReport.Problem(kind: PHLibraryCheckReport.Problem.Kind(rawValue: $0.kind.rawValue) ?? .databaseIntegrity, detail: $0.detail)
            } + objects.problems,
            assetCount: check.assets, fileCount: check.files, bytesVerified: check.bytesVerified)
    }

    /// The bucket's objects against the rows: problems, and the orphans with when they were
    /// stored.
    private func checkObjects() throws(PHPhotosError) -> (problems: [PHLibraryCheckReport.Problem], orphans: [StoredObject]) {
        guard let location = store.objectOriginals.location, let prefix = URL(string: location + "/") else { return ([], []) }
        let listed = try ObjectStorage.requireBackend(for: prefix).list(prefix)
        let resources: [(path: String, assetUUID: String, size: Int64)]
        do {
            resources = try store.objectResources()
        } catch {
            throw PHPhotosError(error)
        }
        // Compared by bucket and decoded key, however each spells its URL.
        func key(_ url: URL) -> String { "\(url.host ?? "")\(url.path)" }
        let stored = Dictionary(listed.map { (key($0.url), $0) }, uniquingKeysWith: { first, _ in first })
        var problems: [PHLibraryCheckReport.Problem] = []
        var named = Set<String>()
        for resource in resources {
            guard let url = URL(string: resource.path) else { continue }
            named.insert(key(url))
            let identifier = LocalIdentifier.asset(resource.assetUUID)
            guard let object = stored[key(url)] else {
                problems.append(.init(kind: .missingFile, detail: "\(resource.path) (asset \(identifier)) is missing from the bucket"))
                continue
            }
            if object.size != resource.size {
                problems.append(
                    .init(kind: .sizeMismatch, detail: "\(resource.path) (asset \(identifier)) has \(object.size) bytes, the library recorded \(resource.size)"))
            }
        }
        let orphans = listed.filter { !named.contains(key($0.url)) }
        problems += orphans.map { object in
            let when = object.stored.map { " (stored \(ISO8601DateFormatter().string(from: $0)))" } ?? ""
            return .init(kind: .orphanObject, detail: "\(object.url.absoluteString) belongs to nothing\(when)")
        }
        return (problems, orphans)
    }

    /// Removes the objects under the library's bucket location that no asset refers to and
    /// that were stored more than `grace` seconds ago; younger ones may belong to a change
    /// still uploading (its rows commit only after every object is stored), and are kept.
    /// Returns the objects removed and those kept for now. For `photos check --repair`.
    package func repairOrphanObjects(grace: TimeInterval, now: Date = Date()) throws -> (removed: [URL], kept: [URL]) {
        let orphans = try checkObjects().orphans
        guard !orphans.isEmpty, let location = store.objectOriginals.location, let url = URL(string: location) else { return ([], []) }
        let due = orphans.filter { ($0.stored ?? .distantPast) <= now.addingTimeInterval(-grace) }.map(\.url)
        try ObjectStorage.requireBackend(for: url).remove(due)
        return (due, orphans.map(\.url).filter { !due.contains($0) })
    }
}

extension PHPhotoLibrary {
    /// What ``repairOrphanFiles()`` did: files removed, originals moved aside.
    package struct OrphanRepairReport: Sendable {
        package let removed: [String]
        package let recovered: [(from: String, to: String)]
    }

    /// Removes the files that belong to nothing (a kill during an edit or a revert can leave
    /// a render behind), except originals, which are moved to `recovered/<date>/` and listed:
    /// repair never deletes an original. For `photos check --repair`.
    package func repairOrphanFiles() throws -> OrphanRepairReport {
        do {
            let repair = try store.checks.repairOrphans(now: Date())
            return OrphanRepairReport(removed: repair.removed, recovered: repair.recovered)
        } catch {
            throw PHPhotosError(error)
        }
    }
}
