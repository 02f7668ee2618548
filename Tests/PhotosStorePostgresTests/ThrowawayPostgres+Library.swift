import Foundation
import PhotosTestSupport

@testable import PhotosStorePostgres

extension ThrowawayPostgres {
    /// A new database on this server holding an empty library's schema, its URL and name.
    func createLibraryDatabase() throws -> (url: URL, name: String) {
        let url = try createDatabase()
        try PostgresLibraryDatabase.open(url: url).close()
        return (url, url.lastPathComponent)
    }
}
