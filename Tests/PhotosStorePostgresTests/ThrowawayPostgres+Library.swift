import Foundation
import PhotosTestSupport
import Testing

@testable import PhotosStorePostgres

extension ThrowawayPostgres {
    /// A new database on this server holding an empty library's schema, its URL and name.
    func createLibraryDatabase() throws -> (url: URL, name: String) {
        let url = try createDatabase()
        try PostgresLibraryDatabase.open(url: url).close()
        return (url, url.lastPathComponent)
    }
}

extension Trait where Self == ConditionTrait {
    /// Runs a suite only where PostgreSQL's server is installed, saying so when it is skipped.
    static var postgresInstalled: Self {
        .enabled(if: ThrowawayPostgres.isAvailable, "PostgreSQL's server is not installed (apt install postgresql)")
    }
}
