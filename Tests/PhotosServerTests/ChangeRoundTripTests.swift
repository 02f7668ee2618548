import Foundation
import HummingbirdTesting
import Photos
import PhotosPostgres
import PhotosTestSupport
import Testing

/// What a favorite toggle through `photos serve` costs on PostgreSQL, in statements (each a
/// round trip), from the request to its answer: the lookups, the change's transaction, its
/// delivery to the server's kept results and the change token (issue 35: 46 at the start,
/// then 32, 13, 12). Counted by the library's engine, so the figure can't creep back unnoticed.
@Suite("Statements per change through the server", .enabled(if: TestStore.isPostgres, "counts PostgreSQL's statements: the PostgreSQL pass"))
struct ChangeRoundTripTests {
    @Test func aFavoriteToggleSendsAFewStatements() async throws {
        // The watchers' looks without a wake-up (each a statement) a minute apart, so only the
        // toggles' own statements are counted however slowly a loaded machine runs them.
        let fixture = try ServerFixture(photos: 3, changeCheckInterval: .seconds(60))
        let library = fixture.library
        let id = ServerFixture.uuid(fixture.assets[0])
        let counts = try await fixture.withServer { client in
            // A page read first, so the server keeps a fetch result that each change moves on.
            let page = try await client.call(.get, "/api/assets?limit=10", token: fixture.readWrite)
            #expect(page.status == .ok)
            var counts: [Int] = []
            // The first toggle also reads what is read once (the library's identifier).
            for (index, value) in [true, false, true, false, true].enumerated() {
                let before = try #require(library.postgresStatementsSent)
                let response = try await client.call(
                    .post, "/api/changes", token: fixture.readWrite, json: #"{"operations":[{"op":"favorite","assets":["\#(id)"],"value":\#(value)}]}"#)
                #expect(response.status == .ok)
                if index > 0 { counts.append(try #require(library.postgresStatementsSent) - before) }
            }
            return counts
        }
        print("statements per favorite toggle through the server: \(counts)")
        // 1 lookup (the asset's row with the position), 5 for the change (its token from its
        // own commit); the delivery: the snapshot's BEGIN and first read, the journal (read
        // once for the observers and the kept result's details), the kept result's diff (the
        // touched row with its old place's neighbours, one read), COMMIT: 11. A wake-up's look at the
        // position may add one or two to a toggle on a loaded machine (the commit's own
        // NOTIFY, which finds nothing new), so the cheapest toggle holds the figure and none
        // may go far past it.
        #expect(counts.min() ?? .max <= 11, "\(counts)")
        #expect(counts.allSatisfy { $0 <= 14 }, "\(counts)")
    }
}
