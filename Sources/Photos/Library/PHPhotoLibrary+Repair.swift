public import Foundation
import PhotosStore

/// A database snapshot a library keeps of itself in `database/snapshots/`.
///
/// Linux addition: a library takes one when it opens (or every 256 commits of a process that
/// stays open) if its newest is more than 6 hours old, and keeps the newest 3.
public struct PHLibrarySnapshot: Sendable, Hashable {
    /// `Photos-<UTC time>.sqlite`.
    public let name: String
    public let date: Date
    public let byteCount: Int64
}

/// What ``PHPhotoLibrary/repairLibrary(at:ignoringSnapshots:)`` or
/// ``PHPhotoLibrary/restoreSnapshot(_:inLibraryAt:)`` did.
///
/// Linux addition.
public struct PHLibraryRepairReport: Sendable {
    /// The snapshot put back, when one was.
    public internal(set) var snapshot: String?
    /// Whether a new, empty database replaced a lost one before the files were read.
    public internal(set) var rebuiltDatabase = false
    /// What was left of the lost database, moved to `database/lost-<time>/` (never deleted).
    public internal(set) var movedAside: [String] = []
    /// Assets made again from originals no row named (their local identifiers are the ones
    /// they had: the UUID is the file's name).
    public internal(set) var rebuiltAssets: [String] = []
    /// Assets whose edit was re-attached from its rendered file and adjustment data.
    public internal(set) var reattachedEdits: [String] = []
    /// Assets of the snapshot whose original was gone (deleted after the snapshot): removed.
    public internal(set) var removedAssets: [String] = []
    /// Assets of the snapshot whose edit's files were gone (edited again since): back to the
    /// original, then given their newer edit when its files were found.
    public internal(set) var revertedEdits: [String] = []
    /// Files rows name that are missing (listed, rows kept: the database was not lost).
    public internal(set) var assetsWithLostFiles: [String] = []
    /// Files in `originals/` or `renders/` that could not be used, and why.
    public internal(set) var unusedFiles: [(path: String, reason: String)] = []
    /// User albums and folders in the library afterwards (none after a rebuild from files).
    public internal(set) var albumCount = 0

    /// What a rebuild from files can't bring back, in words; empty after a snapshot.
    public var notRecovered: [String] {
        guard rebuiltDatabase else { return [] }
        return [
            "albums and folders (the files don't record them; only a snapshot or a backup holds them)",
            "favorites, hidden states and Recently Deleted (assets there are back in the library)",
            "dates and locations changed after import (each asset has its file's again), and the original file names",
            "the dates assets were added (now the repair's date)",
        ]
    }
}

extension PHPhotoLibrary {
    /// The database snapshots the library at `url` keeps of itself, oldest first.
    ///
    /// Linux addition. Readable when the database is lost.
    public static func snapshots(inLibraryAt url: URL) -> [PHLibrarySnapshot] {
        LibraryLayout(root: url).automaticSnapshots().map { PHLibrarySnapshot(name: $0.name, date: $0.date, byteCount: $0.size) }
    }

    /// Puts back a database snapshot the library took of itself (`name`, else the newest)
    /// when its database is lost or empty, then brings the snapshot up to date with the files:
    /// originals added since become assets again, edits made since are re-attached, and assets
    /// deleted since (their originals are gone) are removed.
    ///
    /// Linux addition: the one-command recovery for a lost `database/Photos.sqlite`. Refuses
    /// when the database is there. Albums, favorites and everything else the snapshot holds
    /// come back as they were at its time.
    public static func restoreSnapshot(_ name: String? = nil, inLibraryAt url: URL) throws -> PHLibraryRepairReport {
        var report = PHLibraryRepairReport()
        do {
            let placed = try LibraryBackups.placeSnapshot(name, inLibraryAt: url)
            report.snapshot = placed.snapshot.name
            report.movedAside = placed.movedAside
        } catch {
            throw PHPhotosError(error)
        }
        let library = try PHPhotoLibrary(url: url)
        try LibraryReconciler(library: library).run(droppingRowsOfLostFiles: true, into: &report)
        return report
    }

    /// Rebuilds a library's database from its files.
    ///
    /// Linux addition. When the database is lost or empty, a new one replaces it (keeping the
    /// library's identifier), then every original in `originals/` becomes an asset again with
    /// its metadata read as an import reads it and its UUID taken from its file name (so local
    /// identifiers survive), and each asset's newest edit in `renders/` is re-attached from its
    /// adjustment data. What files don't record can't come back (see
    /// ``PHLibraryRepairReport/notRecovered``): albums above all. So when the library has
    /// snapshots this refuses, naming ``restoreSnapshot(_:inLibraryAt:)``, unless
    /// `ignoringSnapshots`.
    ///
    /// When the database is there, only files no row names are brought back (originals as
    /// assets, edits of assets without one); rows whose files are missing are listed, not
    /// removed.
    public static func repairLibrary(at url: URL, ignoringSnapshots: Bool = false) throws -> PHLibraryRepairReport {
        var report = PHLibraryRepairReport()
        let layout = LibraryLayout(root: url)
        if layout.databaseSize == 0 {
            guard layout.libraryContents() != nil else {
                throw PHPhotosError(.libraryVolumeOffline, "\(layout.root.path) holds no library (no originals, edits or library identifier) to repair")
            }
            if !ignoringSnapshots, let newest = layout.automaticSnapshots().last {
                throw PHPhotosError(
                    .changeNotSupported,
                    "The library has a database snapshot from \(ISO8601DateFormatter().string(from: newest.date)), which holds its albums, "
                        + "favorites and edits of dates: run `photos restore --snapshot latest` instead (it also brings back what was added since). "
                        + "To rebuild from the files alone, losing albums, repeat with --ignore-snapshots.")
            }
            do {
                report.movedAside = try LibraryBackups.replaceLostDatabase(inLibraryAt: url)
            } catch {
                throw PHPhotosError(error)
            }
            report.rebuiltDatabase = true
        }
        let library = try PHPhotoLibrary(url: url)
        try LibraryReconciler(library: library).run(droppingRowsOfLostFiles: false, into: &report)
        return report
    }
}
