public import Foundation
import PhotosStore

/// What ``PHPhotoLibrary/backup(to:keepingGenerations:)`` did.
///
/// Linux addition.
public struct PHLibraryBackupReport: Sendable {
    /// The new generation's name (its UTC time, `20260102T030405.678Z`).
    public let generation: String
    public let assetCount: Int
    /// Files the backup holds for this generation (originals, renders, adjustment data).
    public let fileCount: Int
    /// Files copied this run, and their bytes; the rest were in the backup already.
    public let copiedFileCount: Int
    public let copiedBytes: Int64
    /// Originals referenced in place (outside the library), copied into the backup too.
    public let referencedFileCount: Int
    /// Originals kept in a remote store: not copied (the store keeps them).
    public let remoteOriginalCount: Int
    /// Files the library had lost before this backup (`photos check` lists them too).
    public let missingFiles: [String]
    /// Files whose bytes differ from those recorded at import: backed up as they are.
    public let damagedFiles: [String]
    /// Database snapshots taken: more than 1 when commits removed files while it ran.
    public let snapshotCount: Int
    /// Older generations removed to keep the number asked for.
    public let removedGenerations: [String]
    /// The database snapshot's size.
    public let databaseBytes: Int64
}

/// What ``PHPhotoLibrary/restoreBackup(from:generation:to:copyingReferencedFiles:)`` did.
///
/// Linux addition.
public struct PHLibraryRestoreReport: Sendable {
    public let generation: String
    public let assetCount: Int
    /// Files written into the new library, and their bytes.
    public let fileCount: Int
    public let bytes: Int64
    /// Originals referenced in place that are still at their path: referenced again.
    public let referencedFilesKept: [String]
    /// Originals referenced in place that were gone (or all of them, when asked): copied into
    /// the new library from the backup, as (old absolute path, path in the library).
    public let referencedFilesCopied: [(from: String, to: String)]
    /// Originals in a remote store, referenced as before.
    public let remoteOriginalCount: Int
    /// Files the library had lost before the backup: not in it, so not restored.
    public let missingFiles: [String]
}

extension PHPhotoLibrary {
    /// Backs the library up into `destination`: a consistent snapshot of its database and
    /// every original, rendered edit and adjustment file that snapshot names, each verified
    /// by SHA-256 after copying.
    ///
    /// Linux addition (Photos on Apple's platforms leaves backups to Time Machine and iCloud).
    /// Safe while this or other processes change the library (`photos serve`, imports): the
    /// snapshot is `VACUUM INTO` on a reader and the files it names are copied afterwards; a
    /// file a later commit removed before it was copied makes the backup take a new snapshot.
    ///
    /// `destination` is a new or empty folder, or an earlier backup of this format; each run
    /// adds a generation and keeps the newest `keepingGenerations`. Files are stored once per
    /// content, so a re-run copies only new files (an unchanged file, same path, size and
    /// modification time, is not read again). An interrupted run leaves the earlier
    /// generations intact. Originals referenced in place are copied into the backup; originals
    /// in a remote store are not (they are listed). Thumbnails and previews are not backed up:
    /// they are made again on demand.
    public func backup(to destination: URL, keepingGenerations: Int = 3) throws -> PHLibraryBackupReport {
        let report: BackupReport
        do {
            report = try store.backups.backup(to: destination, keeping: keepingGenerations)
        } catch {
            throw PHPhotosError(error)
        }
        return PHLibraryBackupReport(report)
    }

    /// The same, with a hook run after each database snapshot (tests commit there).
    package func backup(to destination: URL, keepingGenerations: Int = 3, afterSnapshot: (Int) -> Void) throws -> PHLibraryBackupReport {
        do {
            return PHLibraryBackupReport(try store.backups.backup(to: destination, keeping: keepingGenerations, afterSnapshot: afterSnapshot))
        } catch {
            throw PHPhotosError(error)
        }
    }

    /// Brings a backup made by ``backup(to:keepingGenerations:)`` back as a library in the
    /// folder `destination`, which must be missing or empty (it is never overwritten).
    ///
    /// Linux addition. Restores `generation` (see the backup's `generations/` folder), else
    /// the newest. Every file is checked against its SHA-256 and renamed into place; the
    /// database goes in last, so a restore that fails leaves nothing behind. Originals that
    /// were referenced in place stay referenced if they are still at their path with their
    /// size, else (or with `copyingReferencedFiles`) are copied into the new library.
    /// `checkConsistency(verifyingContents: true)` passes on the result when it passed on the
    /// library when it was backed up.
    public static func restoreBackup(
        from backup: URL, generation: String? = nil, to destination: URL, copyingReferencedFiles: Bool = false
    ) throws -> PHLibraryRestoreReport {
        let report: RestoreReport
        do {
            report = try LibraryRestore.restore(backup: backup, generation: generation, to: destination, copyingReferenced: copyingReferencedFiles)
        } catch {
            throw PHPhotosError(error)
        }
        return PHLibraryRestoreReport(
            generation: report.generation, assetCount: report.assets, fileCount: report.files, bytes: report.bytes,
            referencedFilesKept: report.referencedKept, referencedFilesCopied: report.referencedCopied,
            remoteOriginalCount: report.remoteOriginals, missingFiles: report.missingFiles)
    }
}

extension PHLibraryBackupReport {
    init(_ report: BackupReport) {
        self.init(
            generation: report.generation, assetCount: report.assets, fileCount: report.files, copiedFileCount: report.copiedFiles,
            copiedBytes: report.copiedBytes, referencedFileCount: report.referencedFiles, remoteOriginalCount: report.remoteOriginals,
            missingFiles: report.missingFiles, damagedFiles: report.damagedFiles, snapshotCount: report.snapshotAttempts,
            removedGenerations: report.removedGenerations, databaseBytes: report.databaseBytes)
    }
}
