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
    /// Linux addition (Photos on Apple's platforms repairs its library itself when it opens).
    public func checkConsistency(verifyingContents: Bool = false) throws -> PHLibraryCheckReport {
        let check: ConsistencyCheck
        do {
            check = try store.checks.checkConsistency(verifyingContents: verifyingContents)
        } catch {
            throw PHPhotosError(error)
        }
        return PHLibraryCheckReport(
            problems: check.problems.map {
                PHLibraryCheckReport.Problem(kind: PHLibraryCheckReport.Problem.Kind(rawValue: $0.kind.rawValue) ?? .databaseIntegrity, detail: $0.detail)
            },
            assetCount: check.assets, fileCount: check.files, bytesVerified: check.bytesVerified)
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
