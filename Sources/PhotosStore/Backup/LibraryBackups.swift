/// A library's copies of itself: backups into another folder (``backup(to:keeping:now:afterSnapshot:)``,
/// restored by ``LibraryRestore``), and the automatic database snapshots it keeps in
/// `database/snapshots/` (taken when it opens and every ``snapshotCheckCommits`` commits, put
/// back in place of a lost database by ``placeSnapshot(_:inLibraryAt:now:)``). SQLite
/// libraries only: on another engine each throws `StoreError.unsupported`. Reached as
/// ``LibraryDatabase/backups``.
package struct LibraryBackups: Sendable {
    let database: LibraryDatabase
}

extension LibraryDatabase {
    /// The library's backups and snapshots (``LibraryBackups``).
    package var backups: LibraryBackups { LibraryBackups(database: self) }
}
