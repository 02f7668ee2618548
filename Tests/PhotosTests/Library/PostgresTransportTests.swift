import Foundation
import PhotosTestSupport
import Testing

@testable import Photos

/// The PostgreSQL pass of the behaviour suites runs over TLS, verified in full
/// (`sslmode=verify-full` against the test's own authority), as a deployment across a network
/// connects (issue 35): the server says so of the library's own connection.
@Suite("PostgreSQL transport", .enabled(if: TestStore.isPostgres, "the PostgreSQL pass only (PHOTOKIT_TEST_STORE=postgres)"))
struct PostgresTransportTests {
    @Test func theLibrarysConnectionsUseTLS() throws {
        let temporary = try TemporaryLibrary()
        #expect(try temporary.texts("SELECT ssl::text FROM pg_stat_ssl WHERE pid = pg_backend_pid()") == ["true"])
        let url = try #require(temporary.database)
        #expect(url.query?.contains("sslmode=verify-full") == true, "\(url)")
    }
}
