import Foundation
package import PhotosStore

extension PHPhotoLibrary {
    /// The token of the library's newest change: fetch from it later to get what changed.
    ///
    /// Linux: a part that can't be read (logged) is empty: no library's identifier (fetching
    /// from the token reports it expired), or position 0.
    public var currentChangeToken: PHPersistentChangeToken {
        changeToken(at: logger.attempt(.warning, "read the library's position for a change token") { try store.currentPosition() } ?? 0)
    }

    /// The token of the library at `position` (its identifier is read once and kept).
    func changeToken(at position: Int64) -> PHPersistentChangeToken {
        let identifier = logger.attempt(.warning, "read the library's identifier for a change token") { try store.libraryIdentifier() }
        return PHPersistentChangeToken(libraryIdentifier: identifier ?? "", position: position)
    }

    /// Whether the library's rows are in a database reached over a connection (PostgreSQL),
    /// where each read is a round trip, rather than a local file. For `photos serve`.
    package var storeIsRemote: Bool { store.engine.dialect == .postgres }

    /// The engine under the library (SQLite's or PostgreSQL's), for what only one of them has.
    package var storeEngine: any StoreEngine { store.engine }

    /// The library's position (the newest change's id), read from the journal: a value kept
    /// with it holds while it doesn't move. For `photos serve` (`package` access).
    package func currentPosition() throws -> Int64 {
        do { return try store.currentPosition() } catch { throw PHPhotosError(error) }
    }

    /// The changes committed after `token`, oldest first.
    ///
    /// Throws ``PHPhotosError/Code/persistentChangeTokenExpired`` when the history no longer
    /// reaches back to the token (it keeps the newest ``persistentChangeHistoryLimit``
    /// changes) or the token belongs to another library: fetch everything again, then keep
    /// ``currentChangeToken``.
    ///
    /// - Note: Linux: a person's library (``library(forPerson:)``) lists only the changes that
    ///   hold something that person sees (``PHPersistentChange/changeDetails(for:)``); its
    ///   tokens are the whole library's positions, so a token stays valid across people.
    public func fetchPersistentChanges(since token: PHPersistentChangeToken) throws -> PHPersistentChangeFetchResult {
        let identifier: String
        let history: (floor: Int64, changes: [ChangeRecord])
        do {
            identifier = try store.libraryIdentifier()
            history = try store.changes(after: token.position)
        } catch {
            throw PHPhotosError(error)
        }
        guard token.libraryIdentifier == identifier else {
            throw PHPhotosError(.persistentChangeTokenExpired, "The change token belongs to another library")
        }
        guard token.position >= history.floor else {
            throw PHPhotosError(
                .persistentChangeTokenExpired,
                "The change token (\(token.position)) is older than the library's history, which starts after change \(history.floor)")
        }
        let changes = history.changes.map { change in
            PHPersistentChange(changeToken: PHPersistentChangeToken(libraryIdentifier: identifier, position: change.id), library: self)
        }
        // A person's history leaves out the changes that hold nothing of what they see.
        return PHPersistentChangeFetchResult(changes: personID == nil ? changes : try changes.filter { try !$0.isEmpty })
    }

    /// How many changes the persistent history keeps; older ones are removed as new ones
    /// commit, and tokens from before them expire.
    ///
    /// Linux addition; the default is 100,000 changes. It applies to the changes this process
    /// commits.
    public var persistentChangeHistoryLimit: Int {
        get { store.historyLimit }
        set { store.historyLimit = newValue }
    }
}
