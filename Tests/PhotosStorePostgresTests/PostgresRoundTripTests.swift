import Foundation
@testable import Photos
import PhotosPostgres
import PhotosStore
@testable import PhotosStorePostgres
import PhotosTestSupport
import Testing

/// What a change costs on PostgreSQL, in statements (each a round trip): counted by the
/// library's engine, so the figure can't creep back unnoticed (issue 35).
@Suite("PostgreSQL round trips", .enabled(if: ThrowawayPostgres.isAvailable, "PostgreSQL's server is not installed (apt install postgresql)"))
struct PostgresRoundTripTests {
    @Test func aFavoriteToggleSendsAFewStatements() throws {
        let server = try ThrowawayPostgres()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("round-trips-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let library = try PHPhotoLibrary(database: try server.createDatabase(), files: folder)
        try library.performChangesAndWait {
            PHAssetCreationRequest.forAsset().addResource(with: .photo, data: try! TestImages.jpeg(), options: nil)
        }
        let asset = try #require(library.withCurrent { PHAsset.fetchAssets(with: nil).firstObject })
        let engine = try #require(library.store.engine as? PostgresEngine)
        var counts: [Int] = []
        for value in [true, false, true] {
            let before = engine.statementsSent
            try library.performChangesAndWait { PHAssetChangeRequest(for: asset).isFavorite = value }
            counts.append(engine.statementsSent - before)
        }
        print("statements per favorite toggle: \(counts)")
        // BEGIN; the change opened with the write lock and the owner; the asset's row; its
        // update; the change closed with the history's floor; COMMIT (9 before issue 35: the
        // lock, the owner and the floor were each a statement of their own).
        #expect(counts == [6, 6, 6], "\(counts)")
    }
}
