import Foundation
import PhotosLocking

/// A library's originals in an object store (an S3 bucket and prefix, `s3://BUCKET/PREFIX`),
/// recorded in `libraryInfo.originalsLocation` when the library is created, so every process
/// that opens the library finds it.
///
/// Resource paths of the library's own objects are their URLs under that location
/// (`s3://BUCKET/PREFIX/originals/A/UUID.jpg`); they are read as remote originals are
/// (``LibraryLayout/isRemote(path:)``), and removed from the store when their rows are gone.
/// An `s3://` URL outside the location is a referenced original: read, never removed.
package final class ObjectOriginals: Sendable {
    private struct State {
        var location: String?
        var remove: (@Sendable ([String]) -> Void)?
    }

    private let state = Mutex(State())

    package init() {}

    /// The location's URL, without a trailing `/` (nil: originals are in the library's folder).
    package var location: String? { state.withLock { $0.location } }

    /// Whether `path` is one of the library's own objects (not a referenced one).
    package func owns(path: String) -> Bool {
        guard let location else { return false }
        return path.hasPrefix(location + "/")
    }

    /// The URL the library's file at `relativePath` (`originals/A/UUID.jpg`) is kept at.
    package func objectPath(forRelativePath relativePath: String) -> String? {
        location.map { $0 + "/" + relativePath }
    }

    /// Uses `location` for this process (after it was read or recorded) and removes objects
    /// with `remove` once their rows are gone.
    package func use(_ location: String?, remove: (@Sendable ([String]) -> Void)?) {
        state.withLock { $0 = State(location: location, remove: remove) }
    }

    /// Removes the library's own objects among `paths` (after the commit that dropped their
    /// rows). A failure leaves an object nothing refers to, which `photos check` finds.
    func removeOwned(_ paths: [String]) {
        let (location, remove) = state.withLock { ($0.location, $0.remove) }
        guard let location, let remove else { return }
        let owned = paths.filter { $0.hasPrefix(location + "/") }
        if !owned.isEmpty { remove(owned) }
    }
}

extension LibraryDatabase {
    /// `libraryInfo.originalsLocation`: where the library keeps its originals when not in its
    /// folder (nil: in the folder).
    package func recordedOriginalsLocation() throws(StoreError) -> String? {
        try read { db in try db.text("SELECT value FROM libraryInfo WHERE key = 'originalsLocation'") }
    }

    /// Records `location` as where the library keeps its originals, unless another location is
    /// recorded (returned instead) or the library already holds originals of its own in its
    /// folder (`.notAllowed`: those are moved by `photos storage move`). One transaction, so
    /// two processes creating the library at once record one location.
    package func recordOriginalsLocation(_ location: String) throws(StoreError) -> String {
        try write { db in
            if let recorded = try db.text("SELECT value FROM libraryInfo WHERE key = 'originalsLocation'") { return recorded }
            let local = try db.int64(
                "SELECT count(*) FROM resource WHERE \(Self.inLibraryFolder)"
            ) ?? 0
            if local > 0 {
                throw StoreError(
                    .notAllowed,
                    "The library at \(layout.root.path) keeps \(local) original file\(local == 1 ? "" : "s") in its folder; "
                        + "`photos storage move --to \(location)` moves them to \(location)")
            }
            try db.execute("INSERT INTO libraryInfo (key, value) VALUES ('originalsLocation', \(location))")
            return location
        }
    }
}

extension LibraryDatabase {
    /// The library's own objects its rows name: each resource's path (the object's URL), its
    /// asset's UUID and its recorded size.
    package func objectResources() throws(StoreError) -> [(path: String, assetUUID: String, size: Int64)] {
        guard let location = objectOriginals.location else { return [] }
        let rows = try read { db in
            // LIKE's `_` matches any character: a wider net, narrowed below.
            try db.rows(
                """
                SELECT resource.path, asset.uuid, resource.fileSize FROM resource JOIN asset ON asset.id = resource.assetID
                WHERE resource.path LIKE \(location + "/%")
                """
            ) { ($0.text(0), $0.text(1), $0.int64(2)) }
        }
        return rows.filter { objectOriginals.owns(path: $0.0) }
    }
}

/// A file `photos storage move` moves between the library's folder and its bucket.
package struct MovableResource: Sendable {
    package var id: Int64
    package var path: String
    package var assetUUID: String
    package var type: Int
    /// SHA-256 recorded at import (hex); nil when it was not taken.
    package var contentHash: String?
    package var size: Int64
}

extension LibraryDatabase {
    /// Resources whose files are the library's own, in its folder: not referenced where they
    /// are (an absolute path), nor in a remote store (``LibraryLayout/isRemote(path:)``).
    private static let inLibraryFolder: StoreSQL =
        "resource.path NOT LIKE '/%' AND resource.path NOT LIKE 'http://%' AND resource.path NOT LIKE 'https://%' AND resource.path NOT LIKE 's3://%'"

    /// Sets where the library keeps its originals (nil: its folder), whatever it held:
    /// `photos storage move` moves the files after (or, back to the folder, before) this.
    package func setOriginalsLocation(_ location: String?) throws(StoreError) {
        try write { db in
            if let location {
                try db.execute(
                    """
                    INSERT INTO libraryInfo (key, value) VALUES ('originalsLocation', \(location))
                    ON CONFLICT(key) DO UPDATE SET value = excluded.value
                    """)
            } else {
                try db.execute("DELETE FROM libraryInfo WHERE key = 'originalsLocation'")
            }
        }
    }

    /// Up to `limit` of the library's own files still to move, by row id after `after`: those
    /// in its folder (toward a bucket), or its objects in the bucket at `location` (back toward
    /// the folder).
    package func movableResources(toBucket: Bool, location: String, after: Int64, limit: Int) throws(StoreError) -> [MovableResource] {
        let condition: StoreSQL =
            toBucket
            ? Self.inLibraryFolder
            : "resource.path LIKE \(location + "/%")"
        let rows = try read { db in
            try db.rows(
                """
                SELECT resource.id, resource.path, asset.uuid, resource.type, resource.contentHash, resource.fileSize
                FROM resource JOIN asset ON asset.id = resource.assetID WHERE \(condition) AND resource.id > \(after)
                ORDER BY resource.id LIMIT \(literal: limit)
                """
            ) { row in
                MovableResource(
                    id: row.int64(0), path: row.text(1), assetUUID: row.text(2), type: Int(row.int64(3)), contentHash: row.optionalText(4),
                    size: row.int64(5))
            }
        }
        return toBucket ? rows : rows.filter { $0.path.hasPrefix(location + "/") }
    }

    /// Points the resource at `newPath` if it is still at `oldPath` (nothing else moved or
    /// removed it meanwhile); whether it did.
    package func moveResource(id: Int64, from oldPath: String, to newPath: String) throws(StoreError) -> Bool {
        try write { db in
            try db.execute("UPDATE resource SET path = \(newPath) WHERE id = \(id) AND path = \(oldPath)") == 1
        }
    }
}
