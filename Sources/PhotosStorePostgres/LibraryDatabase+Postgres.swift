package import CoreLocation
package import Foundation
package import PhotosStore

extension LibraryDatabase {
    /// Opens the library whose rows are in the PostgreSQL database at `database` (a
    /// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` URL) and whose files (originals,
    /// renders, derivatives) are in the folder `files`, which every instance sharing the
    /// database mounts. An empty database gets the library's schema; an older one is migrated
    /// (once, whichever instance comes first).
    ///
    /// - Throws: `StoreError.cannotOpen` (a bad URL, no server, a files folder that can't be
    ///   made or that holds another library), `.newerSchema`, `.database`.
    package static func open(postgres database: URL, files: URL, gazetteer: GazetteerChoice = .machine) throws(StoreError) -> LibraryDatabase {
        let migrated = try PostgresLibraryDatabase.open(url: database)
        let identifier = try migrated.libraryIdentifier()
        migrated.close()
        let layout = LibraryLayout(root: files)
        do {
            try layout.createFolders()
        } catch {
            throw StoreError(.cannotOpen, "Can't create the library's files folder at \(files.path): \(error.localizedDescription)")
        }
        if let existing = try? String(contentsOf: layout.identifierFile, encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines), !existing.isEmpty, existing != identifier
        {
            throw StoreError(
                .cannotOpen,
                "The files folder \(files.path) belongs to library \(existing), but the database \(database.redactingPassword) "
                    + "holds library \(identifier); nothing was opened")
        }
        let library = LibraryDatabase(layout: layout, engine: PostgresEngine(url: database), gazetteer: gazetteer)
        library.finishOpening()
        return library
    }
}
