import Dispatch
import PhotosTestSupport
import Testing

/// The `.blocking` trait every suite here carries: a test's synchronous body (which waits
/// for `photos` to exit) runs on a queue's thread, not one of Swift concurrency's.
@Suite("Tests that block run off the cooperative threads", .blocking)
struct BlockingTestTraitTests {
    @Test func aSynchronousTestRunsOnTheTraitsQueue() {
        #expect(DispatchQueueTaskExecutor.current == "blocking-test")
    }

    @Test func anAsynchronousTestComesBackToItAfterAwaiting() async throws {
        try await Task.sleep(for: .milliseconds(5))
        #expect(DispatchQueueTaskExecutor.current == "blocking-test")
    }
}
