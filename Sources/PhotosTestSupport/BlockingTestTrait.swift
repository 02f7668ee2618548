public import Testing

/// A trait for tests that block their thread for seconds at a time: they run child processes
/// and wait for them (the `photos` CLI, PostgreSQL's and moto's servers), or wait on a
/// semaphore. Each test case runs on a dispatch queue's thread of its own
/// (``DispatchQueueTaskExecutor``), never on one of Swift concurrency's cooperative threads
/// (as many as cores: two on CI). When two such tests held both of those, every other test
/// stood still; the server suites' socket tests then passed their time limits (CI, 12-03:
/// 11 tests at once, 60 s after they started, all of them waiting for a thread).
///
/// At most ``width`` such tests run at once (the others wait without holding a thread), as
/// many as the cooperative pool would have let run: starting them all at once would start
/// dozens of processes on two cores.
///
/// ```swift
/// @Suite("photos import", .blocking)
/// ```
public struct BlockingTestTrait: TestTrait, SuiteTrait, TestScoping {
    /// How many blocking tests run at once.
    public static let width = 2
    private static let gate = TestGate(width: width)

    public var isRecursive: Bool { true }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await Self.gate.enter()
        do {
            try await withTaskExecutorPreference(DispatchQueueTaskExecutor(label: "blocking-test")) { try await function() }
        } catch {
            await Self.gate.leave()
            throw error
        }
        await Self.gate.leave()
    }
}

extension Trait where Self == BlockingTestTrait {
    /// Runs each test case on a thread of its own, a few at a time (``BlockingTestTrait``).
    public static var blocking: Self { Self() }
}

/// An asynchronous counting semaphore: a task waiting to enter holds no thread.
actor TestGate {
    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(width: Int) {
        free = width
    }

    func enter() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func leave() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
