import Foundation
import Photos
@testable import PhotosServer
import PhotosTestSupport
import Testing

/// Group commit (issue 35): change plans that wait while the library commits go in one
/// transaction; a batch that fails is committed again plan by plan, so each request gets its
/// own answer; plans that touch the same asset keep their order.
@Suite("Group commit of concurrent changes")
struct ChangeCommitterTests {
    static func plan(_ operations: String, _ service: LibraryService) async throws -> ChangePlan {
        let batch = try JSONDecoder().decode(ChangeBatch.self, from: Data(#"{"operations":[\#(operations)]}"#.utf8))
        return try await ChangePlan(batch.operations, client: .open, service: service)
    }

    static func favorite(_ uuid: String, _ value: Bool = true) -> String {
        #"{"op":"favorite","assets":["\#(uuid)"],"value":\#(value)}"#
    }

    /// Holds the library's change queue with a change block that waits until `release` is
    /// signalled (and then runs `changes`); returns once the block is running.
    static func holdChanges(of library: PHPhotoLibrary, release: DispatchSemaphore, then changes: @escaping @Sendable () -> Void = {}) async {
        let entered = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            try? library.performChangesAndWait {
                entered.signal()
                release.wait()
                changes()
            }
        }
        await Task.detached { entered.wait() }.value
    }

    /// Waits until `condition` holds of the committer (each look 1 ms apart, 10 s at most).
    static func wait(for committer: ChangeCommitter, _ condition: @escaping ((draining: Bool, waiting: Int)) -> Bool) async throws {
        let deadline = Date().addingTimeInterval(10)
        while !condition(committer.pending) {
            try #require(Date() < deadline, "the committer never got there: \(committer.pending)")
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    @Test func plansWaitingTogetherCommitAsOneChange() async throws {
        let fixture = try ServerFixture(photos: 4)
        let service = LibraryService(library: fixture.library, configuration: ServerConfiguration())
        let ids = fixture.assets.map(ServerFixture.uuid)
        let first = try await Self.plan(Self.favorite(ids[0]), service)
        var others: [ChangePlan] = []
        for id in ids.dropFirst() { others.append(try await Self.plan(Self.favorite(id), service)) }
        others.append(try await Self.plan(#"{"op":"hide","assets":["\#(ids[0])"],"value":true}"#, service))

        let release = DispatchSemaphore(value: 0)
        await Self.holdChanges(of: fixture.library, release: release)
        let committer = service.committer
        async let firstToken = committer.commit(first, on: service)
        // The first plan is taken and waits for the library; the others wait for the next batch.
        try await Self.wait(for: committer) { $0.draining && $0.waiting == 0 }
        let tokens = others.map { plan in Task { try await committer.commit(plan, on: service) } }
        try await Self.wait(for: committer) { $0.waiting == others.count }
        release.signal()

        let before = try await firstToken
        var after: [String] = []
        for task in tokens { after.append(try await task.value) }
        #expect(Set(after).count == 1, "one change token for the batch: \(after)")
        #expect(after[0] != before)
        #expect(committer.batchCounts == (1, 4))
        for (index, asset) in fixture.assets.enumerated() {
            #expect(fixture.asset(asset)?.isFavorite == true, "asset \(index)")
        }
        #expect(fixture.asset(fixture.assets[0])?.isHidden == true)
        // One change in the persistent history, holding the four assets.
        let token = try #require(PHPersistentChangeToken(stringValue: before))
        let changes = Array(try fixture.library.fetchPersistentChanges(since: token))
        #expect(changes.count == 1)
        let details = try #require(try changes.first?.changeDetails(for: .asset))
        #expect(details.updatedLocalIdentifiers == Set(fixture.assets))
    }

    @Test func aBatchThatFailsIsCommittedPlanByPlanInOrder() async throws {
        let fixture = try ServerFixture(photos: 3)
        let service = LibraryService(library: fixture.library, configuration: ServerConfiguration())
        let ids = fixture.assets.map(ServerFixture.uuid)
        let first = try await Self.plan(Self.favorite(ids[0]), service)
        // Its asset is deleted for good before it commits.
        let doomed = try await Self.plan(Self.favorite(ids[2]), service)
        // The same asset twice: the second may not go ahead of the first.
        let unfavorite = try await Self.plan(Self.favorite(ids[1], false), service)
        let favorite = try await Self.plan(Self.favorite(ids[1]), service)
        let victim = try #require(fixture.asset(fixture.assets[2]))

        let release = DispatchSemaphore(value: 0)
        await Self.holdChanges(of: fixture.library, release: release) {
            PHAssetChangeRequest.deleteAssetsPermanently([victim])
        }
        let committer = service.committer
        async let firstToken = committer.commit(first, on: service)
        try await Self.wait(for: committer) { $0.draining && $0.waiting == 0 }
        let doomedTask = Task { try await committer.commit(doomed, on: service) }
        try await Self.wait(for: committer) { $0.waiting == 1 }
        let unfavoriteTask = Task { try await committer.commit(unfavorite, on: service) }
        try await Self.wait(for: committer) { $0.waiting == 2 }
        let favoriteTask = Task { try await committer.commit(favorite, on: service) }
        try await Self.wait(for: committer) { $0.waiting == 3 }
        release.signal()

        _ = try await firstToken
        await #expect(throws: PHPhotosError.self) { try await doomedTask.value }
        if case .failure(let error) = await doomedTask.result {
            #expect((error as? PHPhotosError)?.code == .identifierNotFound, "\(error)")
        }
        let unfavored = try await unfavoriteTask.value
        let favored = try await favoriteTask.value
        #expect(unfavored != favored, "the second change to the same asset is a change of its own")
        #expect(fixture.asset(fixture.assets[1])?.isFavorite == true, "the requests' order kept")
        #expect(fixture.asset(fixture.assets[0])?.isFavorite == true)
        #expect(committer.batchCounts.batches == 0, "the failed batch counted no batch")
    }
}
