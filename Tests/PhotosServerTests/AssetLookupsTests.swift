import Foundation
import Photos
@testable import PhotosServer
import PhotosTestSupport
import Testing

/// The lookups of concurrent changes' assets (issue 35): requests that wait while one read is in
/// flight are answered by the next read, together, each with its own assets.
@Suite("Asset lookups of concurrent changes")
struct AssetLookupsTests {
    @Test func lookupsWaitingTogetherAreOneRead() async throws {
        let fixture = try ServerFixture(photos: 5, changeCheckInterval: .seconds(60))
        let service = LibraryService(library: fixture.library, configuration: ServerConfiguration())
        let ids = fixture.assets
        let lookups = service.lookups
        // Both threads of the reads pool held: the first read waits for one, the requests
        // after it wait for the first.
        let release = DispatchSemaphore(value: 0)
        let entered = DispatchSemaphore(value: 0)
        let holders = (0..<2).map { _ in
            Task {
                try await service.quickly("holding the reads pool") {
                    entered.signal()
                    release.wait()
                }
            }
        }
        await Task.detached {
            entered.wait()
            entered.wait()
        }.value
        let first = Task { try await lookups.assets([ids[0]], on: service) }
        // (waitUntil records a failure and goes on: the pool is let go whatever happens.)
        try await waitUntil { lookups.pending == (reading: true, waiting: 0) }
        let unknown = "00000000-0000-4000-8000-000000000000/L0/001"
        let asked = [[ids[1]], [ids[2], ids[3]], [ids[4], unknown]]
        let others = asked.map { identifiers in Task { try await lookups.assets(identifiers, on: service) } }
        try await waitUntil { lookups.pending.waiting == asked.count }
        release.signal()
        release.signal()
        for holder in holders { try await holder.value }

        #expect(Set(try await first.value.keys) == [ids[0]])
        var answers: [Set<String>] = []
        for task in others { answers.append(Set(try await task.value.keys)) }
        #expect(answers == [[ids[1]], [ids[2], ids[3]], [ids[4]]], "each request gets its own assets, an unknown one absent")
        // Each read is one fetch of at most a batch's identifiers: one statement on PostgreSQL
        // (the rows and the position together; ChangeRoundTripTests counts it).
        #expect(lookups.counts == (2, 4), "the three waiting together are one read: \(lookups.counts)")
    }

    /// Through the server: a request naming an unknown asset among others' is answered 404, and
    /// theirs commit.
    @Test func anUnknownAssetIsA404ForItsRequestOnly() async throws {
        let fixture = try ServerFixture(photos: 2)
        let known = ServerFixture.uuid(fixture.assets[0])
        try await fixture.withServer { client in
            async let good = client.call(
                .post, "/api/changes", token: fixture.readWrite,
                json: #"{"operations":[{"op":"favorite","assets":["\#(known)"],"value":true}]}"#)
            async let bad = client.call(
                .post, "/api/changes", token: fixture.readWrite,
                json: #"{"operations":[{"op":"favorite","assets":["00000000-0000-4000-8000-000000000000"],"value":true}]}"#)
            let (goodResponse, badResponse) = try await (good, bad)
            #expect(goodResponse.status == .ok)
            #expect(badResponse.status == .notFound)
            #expect(String(buffer: badResponse.body).contains("00000000-0000-4000-8000-000000000000"))
        }
        #expect(fixture.asset(fixture.assets[0])?.isFavorite == true)
    }
}
