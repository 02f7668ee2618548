/// What a library knows about its own health: its rows against its files
/// (``checkConsistency(verifyingContents:)``, `photos check`), files no row names
/// (``orphanFiles()``, ``repairOrphans(now:)``), and the reads a repair makes (files missing,
/// assets, albums). Reached as ``LibraryDatabase/checks``.
package struct LibraryChecks: Sendable {
    let database: LibraryDatabase
}

extension LibraryDatabase {
    /// The library's checks and repairs (``LibraryChecks``).
    package var checks: LibraryChecks { LibraryChecks(database: self) }
}
