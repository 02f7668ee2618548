import Foundation
@testable import Photos
import PhotosPostgres
@testable import PhotosStore
@testable import PhotosStorePostgres
import PhotosTestSupport
import Testing

/// Planner settings a statement carries (`StoreSQL.plannerSetting`, the album fetch's merge
/// join): PostgreSQL runs the statement after `SET LOCAL` of each, and they end with it.
@Suite("PostgreSQL planner settings", .postgresInstalled)
struct PostgresPlannerSettingsTests {
    @Test func aStatementRunsWithItsSettingsAndTheyEndWithIt() throws {
        let server = try ThrowawayPostgres()
        let (library, _, folder) = try PostgresRoundTripTests.libraryWithAPhoto(on: try server.createDatabase())
        defer { try? FileManager.default.removeItem(at: folder) }
        let engine = try #require(library.store.engine as? PostgresEngine)
        let probe: StoreSQL =
            "SELECT (CASE WHEN current_setting('enable_hashjoin') = 'off' AND current_setting('random_page_cost') = '1.1' THEN 1 ELSE 0 END)::bigint"
        let steered = probe + .plannerSetting("random_page_cost", "1.1") + .plannerSetting("enable_hashjoin", "off")
        #expect(steered.plannerSettings.map(\.name) == ["random_page_cost", "enable_hashjoin"])
        #expect(steered.rendered(for: .postgres).sql == probe.rendered(for: .postgres).sql, "no text of their own")
        // Each more than prepare_threshold times: the prepared statement keeps them too.
        for _ in 0..<8 {
            #expect(try engine.idsAndPosition(steered).ids == [1])
            #expect(try engine.idsAndPosition(probe).ids == [0], "the settings ended with the statement's transaction")
        }
    }

    /// The album fetch of the store carries them; other fetches don't.
    @Test func theAlbumFetchCarriesThem() {
        let album = AssetQuery(scope: .album(1))
        #expect(album.statement().plannerSettings.map(\.name) == ["random_page_cost", "enable_hashjoin"])
        #expect(AssetQuery(scope: .library).statement().plannerSettings.isEmpty)
        #expect(album.statement(restrictedTo: .ids([1, 2])).plannerSettings.isEmpty, "a diff's read of a few rows keeps the default costs")
    }
}
